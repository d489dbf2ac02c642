/** Placeholder page: replaced by the issue-6 work. */
export function Component() {
	return null
}
