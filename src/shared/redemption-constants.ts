/** Redemption code states and limits: zod-free, for the console's pages (`redemption.ts` re-exports them). */

/** A code is redeemable only while unused (docs/specification/tokens-and-money.md#redemption-codes). */
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const
export type RedemptionStatus = (typeof REDEMPTION_STATUS)[keyof typeof REDEMPTION_STATUS]

/** A key is this many random letters and digits; it is the bearer value of the code. */
export const REDEMPTION_KEY_LENGTH = 32
export const REDEMPTION_NAME_MAX_LENGTH = 20
export const REDEMPTION_CREATE_MAX_COUNT = 100
/** Defaults (docs/specification/tokens-and-money.md#redemption-codes). */
export const REDEMPTION_DEFAULT_QUOTA = 100_000
export const REDEMPTION_DEFAULT_COUNT = 1
/** `expired_time` 0: the code never expires. */
export const REDEMPTION_NEVER_EXPIRES = 0
