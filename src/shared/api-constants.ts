/** Paging limits and other bounds of the `/api` calls, zod-free so the console's first load can use them (`api.ts` re-exports them). */

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 100
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const

/**
 * The deepest nesting of arrays and objects a request body may have, on `/api` and the relay
 * (`src/lib/request-body.ts`). Real requests stay far below it: the tool definitions Claude Code sends
 * nest about 10 levels, and a strict OpenAI tool schema at its limit of 10 nested objects, each
 * behind an `anyOf`, about 45.
 */
export const MAX_JSON_DEPTH = 64

/**
 * The most fields a form body (`application/x-www-form-urlencoded`) and the most parts a
 * `multipart/form-data` body may have, on `/api` and the relay (`src/lib/request-body.ts`). An
 * upload to OpenAI's endpoints has a dozen; a sign-in form two.
 */
export const MAX_FORM_FIELDS = 1_000

/**
 * The largest row id: id columns are 32-bit integers on Postgres, so no row has a larger one, and
 * a statement comparing an id column with a larger number fails there (SQLite would only find
 * nothing). Every id a request names is read as at most this (`rowIdSchema` in `api.ts`).
 */
export const MAX_ROW_ID = 2_147_483_647
