/**
 * An OpenAI client's `reasoning_effort` as Claude's thinking settings (see NOTES.md). By model:
 *
 * - Claude 3.7 up to 4.5 think by budget: `thinking: {type: 'enabled', budget_tokens}` from
 *   THINKING_BUDGETS, at least 1024 and below `max_tokens` (Claude's rules);
 * - Claude 4.6 and later think adaptively (4.7 and later refuse a budget):
 *   `thinking: {type: 'adaptive'}` with `output_config.effort`;
 * - older models, and names that show no version, do not think: nothing is sent.
 *
 * `max_tokens`: the client's limit bounds the whole output, thinking included (as OpenAI's reasoning
 * models count it), so the budget is cut below it; without one, Ferry's default answer allowance
 * comes on top of the budget. none and minimal ask for no thinking, and so does a forced tool on a
 * budget model (which refuses one while thinking). Claude also refuses thinking while the last
 * assistant turn called tools without its thinking blocks (a tool loop is one turn, whose thinking
 * must come back): clients that do not send them back (a Responses client that did not ask for
 * `reasoning.encrypted_content`, formats/responses/reasoning-items.ts) think again once the loop ends; request.ts decides that from the turns it builds.
 */
import { isObject } from '../../formats/json'
import { clientTokenLimit, reasoningEffortOf, type ReasoningEffort, THINKING_BUDGETS } from '../shared/reasoning-effort'
import { DEFAULT_MAX_TOKENS, MIN_THINKING_BUDGET, THINKING_MAX_TOKENS } from './limits'
import { claudeVersionOf, isAtLeast } from './model-version'

type Json = Record<string, unknown>

/** `output_config.effort` of an adaptive model per level (xhigh: `max`, which every adaptive model takes). */
const ADAPTIVE_EFFORTS: Readonly<Record<ReasoningEffort, string | undefined>> = Object.freeze({
	none: undefined,
	minimal: undefined,
	low: 'low',
	medium: 'medium',
	high: 'high',
	xhigh: 'max',
})

export interface ClaudeThinkingSettings {
	thinking: Json
	maxTokens: number
	/** `output_config.effort`, adaptive models only. */
	effort?: string
}

/** `required` or a named function: what request.ts sends as `any` or `tool`. */
const forcesTool = (choice: unknown) => choice === 'required' || (isObject(choice) && isObject(choice.function) && typeof choice.function.name === 'string')

function thinkingMode(model: string): 'budget' | 'adaptive' | undefined {
	const version = claudeVersionOf(model)
	if (!version) return undefined
	if (isAtLeast(version, 4, 6)) return 'adaptive'
	return isAtLeast(version, 3, 7) ? 'budget' : undefined
}

/** The thinking the body's `reasoning_effort` asks of its (upstream) model; undefined for none. */
export function claudeThinkingFromEffort(body: Json): ClaudeThinkingSettings | undefined {
	const effort = reasoningEffortOf(body)
	if (!effort || THINKING_BUDGETS[effort] === 0) return undefined
	const mode = thinkingMode(String(body.model ?? ''))
	if (!mode) return undefined
	if (mode === 'budget' && Array.isArray(body.tools) && body.tools.length > 0 && forcesTool(body.tool_choice)) return undefined
	const wanted = THINKING_BUDGETS[effort]
	const limit = clientTokenLimit(body)
	const maxTokens = limit ?? Math.min(wanted + DEFAULT_MAX_TOKENS, THINKING_MAX_TOKENS)
	if (mode === 'adaptive') return { thinking: { type: 'adaptive' }, maxTokens, effort: ADAPTIVE_EFFORTS[effort] }
	const budget = Math.min(wanted, limit !== undefined ? limit - 1 : maxTokens - DEFAULT_MAX_TOKENS)
	if (budget < MIN_THINKING_BUDGET) return undefined
	return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens }
}
