/**
 * The management API's common shapes. Every `/api` answer is the envelope
 * `{ success, message, data }`. Business rule failures answer HTTP 200 with `success: false`
 * (as the peers' clients expect); malformed or invalid input answers 400, a missing or expired
 * login 401, a role too low 403, an unknown resource 404, a rate limit 429 — all in the envelope.
 */
import { z } from 'zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './api-constants'

export * from './api-constants'

export type Envelope<Data = unknown> = { success: boolean; message: string; data?: Data }

/** `p` counts from 1; `p=0` or no `p` is the first page. `size` is accepted for `page_size`. */
export const pageQuerySchema = z.object({
	p: z.coerce.number().int().min(0).optional(),
	page_size: z.coerce.number().int().min(1).optional(),
	size: z.coerce.number().int().min(1).optional(),
})
export type PageQuery = z.infer<typeof pageQuerySchema>

export type Page<Item> = { items: Item[]; page: number; page_size: number; total: number }

export function resolvePage(query: PageQuery) {
	const page = Math.max(1, query.p ?? 1)
	const pageSize = Math.min(MAX_PAGE_SIZE, query.page_size ?? query.size ?? DEFAULT_PAGE_SIZE)
	return { page, pageSize, offset: (page - 1) * pageSize }
}

/**
 * The deepest nesting of arrays and objects a request body may have, on `/api` and the relay
 * (`src/lib/json-body.ts`). Real requests stay far below it: the tool definitions Claude Code sends
 * nest about 10 levels, and a strict OpenAI tool schema at its limit of 10 nested objects, each
 * behind an `anyOf`, about 45.
 */
export const MAX_JSON_DEPTH = 64

/** Client-facing messages shared by server and console (seed 000 §8, seed 002 §8). */
export const MESSAGES = {
	notLoggedIn: 'not logged in or login expired, please log in again',
	forbidden: 'insufficient permission for this operation',
	userHeaderMissing: 'the New-Api-User header is missing or does not match the logged-in user',
	tooManyRequests: 'too many requests, try later',
	serverError: 'server internal error, contact the administrator',
	invalidJson: 'the request body is not valid JSON',
	jsonTooDeep: `the request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
	invalidParameter: 'invalid parameter',
	notFound: 'not found',
	bodyTooLarge: 'the request body is too large',
} as const
