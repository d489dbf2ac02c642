/**
 * The charts' tooltip: a card that follows the pointer over a bar or a slice (or sits above the part
 * that has keyboard focus) and lists what the part stands for. One per chart, drawn over it.
 */
import { type FocusEvent, type PointerEvent, type ReactNode, useRef, useState } from 'react'

export type TooltipLine = { label: string; value: string; colour?: string }
export type TooltipContent = { title: string; lines: TooltipLine[] }

type Shown = { x: number; y: number; content: TooltipContent }

/** Half the card's width at most: the card's centre stays this far inside the frame's edges. */
const EDGE_MARGIN_PX = 90

export function useChartTooltip() {
	const frame = useRef<HTMLDivElement>(null)
	const [shown, setShown] = useState<Shown | null>(null)

	function showAt(clientX: number, clientY: number, content: TooltipContent) {
		const element = frame.current
		if (!element) return
		const box = element.getBoundingClientRect()
		const x = Math.min(Math.max(clientX - box.left + element.scrollLeft, EDGE_MARGIN_PX + element.scrollLeft), element.scrollLeft + box.width - EDGE_MARGIN_PX)
		setShown({ x, y: clientY - box.top, content })
	}

	/** The handlers of a part of the chart; `content` is computed when the tooltip opens. */
	const triggers = (content: () => TooltipContent) => ({
		onPointerMove: (event: PointerEvent<SVGElement>) => showAt(event.clientX, event.clientY, content()),
		onPointerLeave: () => setShown(null),
		onFocus: (event: FocusEvent<SVGElement>) => {
			const box = event.currentTarget.getBoundingClientRect()
			showAt(box.left + box.width / 2, box.top, content())
		},
		onBlur: () => setShown(null),
	})

	const tooltip: ReactNode = shown && (
		<div
			role="tooltip"
			data-testid="chart-tooltip"
			className="pointer-events-none absolute z-10 min-w-36 -translate-x-1/2 -translate-y-full rounded-md border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md"
			style={{ left: shown.x, top: shown.y - 8 }}
		>
			<p className="mb-1 font-medium">{shown.content.title}</p>
			{shown.content.lines.map((line) => (
				<p key={line.label} className="flex items-center gap-2">
					{line.colour && <span className="size-2 shrink-0 rounded-sm" style={{ background: line.colour }} aria-hidden="true" />}
					<span className="flex-1 text-muted-foreground">{line.label}</span>
					<span className="tabular-nums">{line.value}</span>
				</p>
			))}
		</div>
	)

	return { frame, triggers, tooltip }
}
