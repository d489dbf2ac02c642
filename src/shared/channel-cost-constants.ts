/** Bounds of a channel's cost fields: zod-free, for the channel editor (`channel-cost.ts` re-exports them). */

/** A cost price past any real one: USD per million tokens or per call. */
export const MAX_COST_PRICE = 1_000_000
/** `cost_ratio`, like any ratio an option holds. */
export const MAX_COST_RATIO = 10_000
