import { Tooltip } from '@ui/components/ui/tooltip'
import { cn } from '@ui/lib/utils'

/**
 * A long cell text (a name, a log's detail) cut to `className`'s width with an ellipsis; the whole
 * text is in a tooltip and in the title. Short texts show as they are, without a tooltip.
 */
export function TruncatedText({ text, className, tooltipAfter = 24 }: { text: string; className?: string; tooltipAfter?: number }) {
	const span = <span className={cn('block max-w-48 truncate', className)} title={text}>{text}</span>
	if (text.length <= tooltipAfter) return span
	return <Tooltip content={<span className="break-all">{text}</span>}>{span}</Tooltip>
}
