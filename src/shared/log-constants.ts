/** Log entry types, the console's default ranges and tag tiers: zod-free, for the log page (`log.ts` re-exports them). */

/** Log entry types (docs/specification/logs-and-dashboard.md#log-lines); `cacheHit`: a call answered from the response cache, billed at ResponseCacheRatio. */
export const LOG_TYPE = { unknown: 0, topUp: 1, consume: 2, manage: 3, system: 4, cacheHit: 5 } as const
export type LogType = (typeof LOG_TYPE)[keyof typeof LOG_TYPE]

/** rpm and tpm count the consume entries of this many last seconds. */
export const LOG_STAT_WINDOW_SECONDS = 60

/**
 * The console's default time range (docs/specification/logs-and-dashboard.md#the-log-page: recent
 * days up to one hour ahead): three days back rather than the start of today, which would need the viewer's time zone.
 */
export const LOG_DEFAULT_LOOKBACK_SECONDS = 3 * 24 * 60 * 60
export const LOG_DEFAULT_LOOKAHEAD_SECONDS = 60 * 60
/** The cleanup time offered by default: this many months ago (docs/specification/logs-and-dashboard.md#log-cleanup-and-retention). */
export const LOG_CLEANUP_DEFAULT_MONTHS_AGO = 1

/** Use-time tag colours (docs/specification/logs-and-dashboard.md#the-log-page): under `fast` seconds green, under `slow` orange, else red. */
export const USE_TIME_TIERS_SECONDS = { fast: 101, slow: 300 } as const
/** First-token time (`other.frt`, ms) tag colours: under `fast` green, under `slow` orange, else red. */
export const FIRST_TOKEN_TIERS_MS = { fast: 3_000, slow: 10_000 } as const
