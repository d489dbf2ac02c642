import { bearerKey } from '../edge/token-auth'

/** What Midjourney clients put in Authorization when they send the key as `mj-api-secret` (new-api's rule). */
const MIDJOURNEY_PLACEHOLDER = 'midjourney-proxy'

/**
 * The API token of a task call: `Authorization: Bearer sk-…`, or for Midjourney clients the
 * `mj-api-secret` header when Authorization is absent or the placeholder.
 */
export function taskKey(headers: Headers): string | undefined {
	const authorization = bearerKey(headers)
	if (authorization && authorization !== MIDJOURNEY_PLACEHOLDER) return authorization
	return headers.get('mj-api-secret')?.trim() || undefined
}
