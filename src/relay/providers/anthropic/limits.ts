/** Output limits of Claude requests built from OpenAI-format ones. */

/**
 * Claude requires `max_tokens`. 4096 is the largest output every Messages model accepts (Claude 3
 * Haiku and Opus stop there); clients wanting more ask for it.
 */
export const DEFAULT_MAX_TOKENS = 4096

/**
 * The largest `max_tokens` Ferry picks for a thinking request: the most output every thinking Claude
 * model accepts (Opus 4 and 4.1 stop at 32000; the others go to 64000 or more).
 */
export const THINKING_MAX_TOKENS = 32000

/** Claude's smallest `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024
