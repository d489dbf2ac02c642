/**
 * The management API's common shapes. Every `/api` answer is the envelope
 * `{ success, message, data }`. Business rule failures answer HTTP 200 with `success: false`
 * (as the peers' clients expect); malformed or invalid input answers 400, a missing or expired
 * login 401, a role too low 403, an unknown resource 404, a rate limit 429 — all in the envelope.
 */
import { z } from 'zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MAX_ROW_ID } from './api-constants'
import { API_MESSAGE_ENTRIES } from './messages/api'

export * from './api-constants'

export type Envelope<Data = unknown> = { success: boolean; message: string; data?: Data }

/** A row's id in a body: a whole number from 1 to MAX_ROW_ID (a larger one names no row, on either database). */
export const rowIdSchema = z.number().int().positive().max(MAX_ROW_ID)
/** A row's id in a path or query (or a body field that takes numeric text too). */
export const rowIdTextSchema = z.coerce.number().int().positive().max(MAX_ROW_ID)
/** The path parameters of `/…/:id`. */
export const idParamsSchema = z.object({ id: rowIdTextSchema })

/** Whether numeric search text can be a row's id (a keyword matches an id exactly, or a name in part). */
export const isRowIdText = (text: string) => /^\d{1,10}$/.test(text) && Number(text) <= MAX_ROW_ID

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
 * The English wording of the common `/api` messages, for the relay and the JSON reader (whose
 * errors reach API clients in English). The `/api` itself answers `API_MESSAGES` in the reader's
 * language (`messages/api.ts`).
 */
export const MESSAGES = /* @__PURE__ */ Object.fromEntries(Object.entries(API_MESSAGE_ENTRIES).map(([name, [, en]]) => [name, en])) as {
	readonly [Name in keyof typeof API_MESSAGE_ENTRIES]: (typeof API_MESSAGE_ENTRIES)[Name][1]
}
export { API_MESSAGES } from './messages/api'
