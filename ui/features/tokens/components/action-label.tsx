/** Under 600 px most row actions are icons; their names stay for screen readers and tests. */
export const compactOnMobile = 'max-[600px]:size-8 max-[600px]:px-0'

export function ActionLabel({ text }: { text: string }) {
	return <span className="max-[600px]:sr-only">{text}</span>
}
