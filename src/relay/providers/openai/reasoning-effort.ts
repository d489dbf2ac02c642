/**
 * A Claude client's thinking budget (Claude Code's) as `reasoning_effort`, for OpenAI's reasoning
 * models only: o1 (not o1-mini or o1-preview, which refuse the field), o3, o4-mini and GPT-5 (not
 * its `-chat` models, which do not reason). Every other model refuses the field or ignores it, so
 * it gets nothing. The level is the budget's (effortOfBudget), at least low and at most high: the
 * levels every one of these models takes (minimal is GPT-5's, xhigh only the newest models').
 * `adaptive` leaves the model's default and `disabled` asks for nothing: not every reasoning model
 * can stop reasoning.
 */
import { type ClaudeThinking, effortOfBudget } from '../shared/reasoning-effort'

const REASONING_MODEL = /^(?:o1(?!-mini|-preview)|o3|o4-mini|gpt-5(?!.*-chat))/

const LEVELS = ['low', 'medium', 'high'] as const

export function openAIReasoningEffort(thinking: ClaudeThinking, model: string): Record<string, unknown> | undefined {
	if (thinking.type !== 'enabled' || !REASONING_MODEL.test(model)) return undefined
	const effort = effortOfBudget(thinking.budget)
	return { reasoning_effort: (LEVELS as readonly string[]).includes(effort) ? effort : effort === 'xhigh' ? 'high' : 'low' }
}
