/** The `onAfterHandle` hook of `/api`: no answer of the management API is kept by a cache. */
export function noStore({ set }: { set: { headers: Record<string, unknown> } }) {
	set.headers['cache-control'] = 'no-store'
}
