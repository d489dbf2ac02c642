/**
 * What a wide table needs from the browser: whether it is scrolled away from either edge (the edge
 * shadows say there is more to the side) and where its sticky columns start (each one's `left` is the
 * sum of the widths before it). The server knows neither: it renders no shadow and estimated offsets,
 * which the first effect corrects.
 */
import { type RefObject, useEffect, useState } from 'react'

export type ScrollEdges = { start: boolean; end: boolean }

/** Sub-pixel widths can leave a scroll position a fraction short of its end. */
const EDGE_TOLERANCE_PX = 1

const sameOffsets = (left: number[], right: number[]) => left.length === right.length && left.every((value, index) => value === right[index])

/** `content` is what the table shows (its rows): new rows can change the columns' widths. */
export function useTableScroll(container: RefObject<HTMLDivElement | null>, stickyCount: number, estimatedOffsets: number[], content: unknown) {
	const [edges, setEdges] = useState<ScrollEdges>({ start: false, end: false })
	const [offsets, setOffsets] = useState(estimatedOffsets)

	useEffect(() => {
		const element = container.current
		if (!element) return
		function measure() {
			const scroller = container.current
			if (!scroller) return
			const start = scroller.scrollLeft > EDGE_TOLERANCE_PX
			const end = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - EDGE_TOLERANCE_PX
			setEdges((previous) => (previous.start === start && previous.end === end ? previous : { start, end }))
			const headers = scroller.querySelectorAll<HTMLElement>(':scope > table > thead > tr:first-child > th')
			const next: number[] = []
			let left = 0
			for (let index = 0; index < stickyCount && index < headers.length; index++) {
				next.push(left)
				left += headers[index]!.getBoundingClientRect().width
			}
			setOffsets((previous) => (sameOffsets(previous, next) ? previous : next))
		}
		measure()
		element.addEventListener('scroll', measure, { passive: true })
		const observer = new ResizeObserver(measure)
		observer.observe(element)
		const table = element.querySelector('table')
		if (table) observer.observe(table)
		return () => {
			element.removeEventListener('scroll', measure)
			observer.disconnect()
		}
	}, [container, stickyCount, content])

	return { edges, offsets }
}
