/** Call limits (requests and tokens per minute, requests per day, calls at once): zod-free, for the console's pages. */

/** The limits a token, a user, a group or a model may set; 0 sets none at that level. */
export const RATE_LIMIT_FIELDS = ['rpm_limit', 'tpm_limit', 'rpd_limit', 'concurrency_limit'] as const
export type RateLimitField = (typeof RATE_LIMIT_FIELDS)[number]
/** Counts that stay exact integers in Redis and in memory. */
export const RATE_LIMIT_MAX = 2_147_483_647
/** The most calls in flight at once a limit may allow (as tokens have always had). */
export const CONCURRENCY_LIMIT_MAX = 100_000
