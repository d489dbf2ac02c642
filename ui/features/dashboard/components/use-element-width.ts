import { type RefObject, useEffect, useState } from 'react'

/**
 * The element's content width in px, followed as it changes. The server cannot measure: both renders
 * start from `fallback`, and the browser corrects it after hydration.
 */
export function useElementWidth(element: RefObject<HTMLElement | null>, fallback: number): number {
	const [width, setWidth] = useState(fallback)
	useEffect(() => {
		const target = element.current
		if (!target) return
		const measure = () => setWidth(Math.floor(target.clientWidth) || fallback)
		measure()
		const observer = new ResizeObserver(measure)
		observer.observe(target)
		return () => observer.disconnect()
	}, [element, fallback])
	return width
}
