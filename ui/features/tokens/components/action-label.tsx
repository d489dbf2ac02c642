/** Under 600 px most row actions are icons; their names stay for screen readers and tests. */
export const compactOnMobile = 'max-[600px]:size-8 max-[600px]:px-0'

/** Under 1 500 px too, for a table whose actions would otherwise push it past the page. */
export const compactBelowWide = 'max-[1500px]:size-8 max-[1500px]:px-0'

export function ActionLabel({ text, belowWide = false }: { text: string; belowWide?: boolean }) {
	return <span className={belowWide ? 'max-[1500px]:sr-only' : 'max-[600px]:sr-only'}>{text}</span>
}
