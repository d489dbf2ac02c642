/**
 * An OpenAI client's `reasoning_effort` as Gemini's `generationConfig.thinkingConfig` (see NOTES.md),
 * with `includeThoughts` so the thoughts come back (as `reasoning_content`). By model:
 *
 * - Gemini 3 and later take a level, `thinkingLevel`: Flash models minimal, low, medium, high; the
 *   others (Pro) only low and high, so minimal (and none: Gemini 3 always thinks) is low there and
 *   medium is high;
 * - Gemini 2.5 takes a token budget, `thinkingBudget`, from THINKING_BUDGETS: 0 turns thinking off
 *   on Flash and Flash-Lite, while Pro cannot stop thinking (its least budget, 128, stands for none);
 *   Flash budgets stop at 24576, Pro's at 32768;
 * - older models (1.5, 2.0) and other names do not think: nothing is sent.
 *
 * A Claude client's `thinking` (Claude Code's) wins: a budget is kept as Gemini 2.5's budget (within
 * the model's range) and is a level on Gemini 3 through its effort (effortOfBudget); `adaptive` is
 * the model's own choice (2.5's dynamic budget, -1; 3's default level); `disabled` is effort none.
 */
import type { GeminiThinkingConfig } from '@/relay/formats/gemini/types'
import { claudeThinkingOf, effortOfBudget, reasoningEffortOf, type ReasoningEffort, THINKING_BUDGETS } from '../shared/reasoning-effort'

const GEMINI_VERSION = /gemini-(\d+)(?:\.(\d+))?/

const FLASH_LEVELS: Readonly<Record<ReasoningEffort, string>> = Object.freeze({ none: 'minimal', minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'high' })
const PRO_LEVELS: Readonly<Record<ReasoningEffort, string>> = Object.freeze({ none: 'low', minimal: 'low', low: 'low', medium: 'high', high: 'high', xhigh: 'high' })

/** Gemini 2.5 Pro's budget range; Flash and Flash-Lite stop at FLASH_MAX_BUDGET. */
const PRO_MIN_BUDGET = 128
const PRO_MAX_BUDGET = 32768
const FLASH_MAX_BUDGET = 24576

/** Gemini 2.5's dynamic thinking: the model decides how much to think. */
const DYNAMIC_BUDGET = -1

/**
 * The thinking the request asks of its (upstream) model: a Claude client's `thinking` (an extra),
 * else the body's `reasoning_effort`; undefined when it asks none of this model.
 */
export function geminiThinkingConfig(body: Record<string, unknown>, thinking?: unknown): GeminiThinkingConfig | undefined {
	const claude = claudeThinkingOf(thinking)
	const effort = claude ? (claude.type === 'enabled' ? effortOfBudget(claude.budget) : claude.type === 'disabled' ? 'none' : undefined) : reasoningEffortOf(body)
	if (!effort && claude?.type !== 'adaptive') return undefined
	const model = String(body.model ?? '')
	const version = GEMINI_VERSION.exec(model)
	if (!version) return undefined
	const major = Number(version[1])
	const minor = Number(version[2] ?? 0)
	const flash = model.includes('flash')
	// Adaptive thinking is the model's own choice: Gemini 3's default level, Gemini 2.5's dynamic budget.
	if (major >= 3) return effort ? { thinkingLevel: (flash ? FLASH_LEVELS : PRO_LEVELS)[effort], includeThoughts: true } : { includeThoughts: true }
	if (major !== 2 || minor < 5) return undefined
	if (!effort) return { thinkingBudget: DYNAMIC_BUDGET, includeThoughts: true }
	// A Claude budget is kept as asked, within the model's range.
	const wanted = claude?.type === 'enabled' ? claude.budget : THINKING_BUDGETS[effort]
	const budget = flash ? Math.min(wanted, FLASH_MAX_BUDGET) : Math.min(Math.max(wanted, PRO_MIN_BUDGET), PRO_MAX_BUDGET)
	return budget > 0 ? { thinkingBudget: budget, includeThoughts: true } : { thinkingBudget: 0 }
}
