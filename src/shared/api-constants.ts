/** Paging limits of the `/api` lists, zod-free so the console's first load can use them (`api.ts` re-exports them). */

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 100
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const
