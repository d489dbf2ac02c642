/** Token states, limits and the editor's presets: zod-free, for the console's pages (`token.ts` re-exports them). */

export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const
export type TokenStatus = (typeof TOKEN_STATUS)[keyof typeof TOKEN_STATUS]

/** Keys are shown as `sk-` followed by this many random letters and digits. */
export const TOKEN_KEY_PREFIX = 'sk-'
export const TOKEN_KEY_LENGTH = 48
export const TOKEN_NAME_MAX_LENGTH = 50
/** Extra tokens of a batch are named `<name>-<suffix>`. */
export const TOKEN_NAME_SUFFIX_LENGTH = 6
export const TOKEN_BATCH_NAME_MAX_LENGTH = TOKEN_NAME_MAX_LENGTH - TOKEN_NAME_SUFFIX_LENGTH - 1
export const TOKEN_CREATE_MAX_COUNT = 100
export const TOKEN_NEVER_EXPIRES = -1
export const TOKEN_DEFAULT_REMAIN_QUOTA = 500_000
/** The most calls of one token in flight at once that a limit may allow; 0 sets none. */
export const TOKEN_CONCURRENCY_LIMIT_MAX = 100_000
/** A token has at most this many spend windows (`quota_windows`). */
export const TOKEN_QUOTA_WINDOWS_MAX = 4
/** The window lengths the editor offers (seconds); the API takes any length a plan window may have. */
export const TOKEN_WINDOW_PRESETS = { fiveHours: 5 * 3600, day: 24 * 3600, week: 7 * 24 * 3600, month: 30 * 24 * 3600 } as const
export const TOKEN_QUOTA_PRESETS = [500_000, 5_000_000, 25_000_000, 50_000_000, 250_000_000, 500_000_000] as const
export const TOKEN_COUNT_PRESETS = [10, 20, 30, 100] as const
const HOUR_SECONDS = 3600
const DAY_SECONDS = 24 * HOUR_SECONDS
/** The editor's expiry quick buttons (docs/specification/tokens-and-money.md#api-tokens): now plus this many seconds. */
export const TOKEN_EXPIRY_PRESETS = { hour: HOUR_SECONDS, day: DAY_SECONDS, month: 30 * DAY_SECONDS } as const
/** Group ratio tag colours (docs/specification/pricing.md#the-pricing-page): above `red` red, above `orange` orange, above `blue` blue, else green. */
export const GROUP_RATIO_TIERS = { red: 5, orange: 3, blue: 1 } as const
