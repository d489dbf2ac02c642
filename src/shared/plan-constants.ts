/** Plans and subscriptions: bounds, sources and the editor's presets; zod-free, for the console's pages (`plan.ts` re-exports them). */

const MINUTE_SECONDS = 60
const HOUR_SECONDS = 60 * MINUTE_SECONDS
const DAY_SECONDS = 24 * HOUR_SECONDS

/** A plan has 1 to 8 usage windows, each from a minute to 366 days long. */
export const PLAN_WINDOWS_MIN = 1
export const PLAN_WINDOWS_MAX = 8
export const PLAN_WINDOW_SECONDS_MIN = MINUTE_SECONDS
export const PLAN_WINDOW_SECONDS_MAX = 366 * DAY_SECONDS
/** A subscription lasts at most ten years. */
export const PLAN_DURATION_SECONDS_MAX = 10 * 366 * DAY_SECONDS
export const PLAN_NAME_MAX_LENGTH = 64
export const PLAN_MODELS_MAX = 1000
export const PLAN_MODEL_NAME_MAX_LENGTH = 256
export const PLAN_GROUP_MAX_LENGTH = 64

/** How a subscription came to its user. */
export const SUBSCRIPTION_SOURCE = { wallet: 'wallet', epay: 'epay', redemption: 'redemption', default: 'default' } as const
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCE)[keyof typeof SUBSCRIPTION_SOURCE]

/** The editor's window and duration quick picks, in seconds. */
export const PLAN_LENGTH_PRESETS = {
	fiveHours: 5 * HOUR_SECONDS,
	day: DAY_SECONDS,
	week: 7 * DAY_SECONDS,
	month: 30 * DAY_SECONDS,
} as const
