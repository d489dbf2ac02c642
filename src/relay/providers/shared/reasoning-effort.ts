/**
 * OpenAI's `reasoning_effort` (chat; a Responses request's `reasoning.effort` arrives as it) for
 * upstreams that set thinking otherwise: Claude (`thinking`, `output_config.effort`) and Gemini
 * (`generationConfig.thinkingConfig`). Each converter turns the level into its API's setting; the
 * token budgets they share are this table (see providers/anthropic/NOTES.md, providers/gemini/NOTES.md).
 */

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number]

/**
 * Thinking tokens per effort level where an API takes a token budget (Claude's `budget_tokens`,
 * Gemini 2.5's `thinkingBudget`). low, medium and high are the budgets Google's own OpenAI-compatible
 * endpoint gives these levels (1K, 8K, 24K); xhigh is Gemini 2.5 Pro's largest budget; none and
 * minimal think not at all (0).
 */
export const THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = Object.freeze({
	none: 0,
	minimal: 0,
	low: 1024,
	medium: 8192,
	high: 24576,
	xhigh: 32768,
})

/** The body's `reasoning_effort` when it is a level this table knows; anything else asks for nothing. */
export function reasoningEffortOf(body: Record<string, unknown>): ReasoningEffort | undefined {
	const effort = body.reasoning_effort
	return typeof effort === 'string' && (REASONING_EFFORTS as readonly string[]).includes(effort) ? (effort as ReasoningEffort) : undefined
}

/** The client's own output limit (`max_completion_tokens`, else `max_tokens`), when it set one. */
export function clientTokenLimit(body: Record<string, unknown>): number | undefined {
	const limit = body.max_completion_tokens ?? body.max_tokens
	return typeof limit === 'number' && limit > 0 ? limit : undefined
}

/**
 * A Claude client's `thinking` setting (Claude Code's `{type: 'enabled', budget_tokens}`, or
 * `adaptive`, or `disabled`), read from the request's extras for upstreams that think otherwise.
 */
export type ClaudeThinking = { type: 'enabled'; budget: number } | { type: 'adaptive' } | { type: 'disabled' }

export function claudeThinkingOf(thinking: unknown): ClaudeThinking | undefined {
	if (typeof thinking !== 'object' || thinking === null) return undefined
	const { type, budget_tokens: budget } = thinking as Record<string, unknown>
	if (type === 'enabled') return typeof budget === 'number' && budget > 0 ? { type, budget } : undefined
	return type === 'adaptive' || type === 'disabled' ? { type } : undefined
}

/**
 * The effort level of a thinking budget, THINKING_BUDGETS read backwards: the least level whose
 * budget covers it. Claude Code's budgets: 4000 ("think") is medium, 10000 ("think hard") high,
 * 31999 ("ultrathink") xhigh; Claude's least budget, 1024, is low.
 */
export function effortOfBudget(budget: number): ReasoningEffort {
	if (budget <= 0) return 'none'
	const levels = REASONING_EFFORTS.filter((effort) => THINKING_BUDGETS[effort] > 0)
	return levels.find((effort) => budget <= THINKING_BUDGETS[effort]) ?? 'xhigh'
}
