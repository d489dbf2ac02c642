/** Wenxin answers → OpenAI's shape; an `error_code` in a 200 answer is an upstream error. */
import { RelayError } from '../../errors'
import { openAIUsage, type TokenCounts } from '../shared/openai-usage'
import { forgetAccessTokens } from './access-token'

export interface WenxinAnswer {
	id?: string
	created?: number
	result?: string
	is_end?: boolean
	finish_reason?: string
	function_call?: { name?: string; arguments?: string }
	usage?: TokenCounts
	error_code?: number
	error_msg?: string
}

/** "Access token invalid or no longer valid" and "Access token expired". */
const TOKEN_REJECTED = new Set([110, 111])
const UPSTREAM_FAILED = 502
const FINISH_REASONS: Record<string, string> = { normal: 'stop', stop: 'stop', length: 'length', content_filter: 'content_filter', function_call: 'tool_calls' }

/** The message of the error an answer reports, or undefined; a rejected token is dropped from the cache. */
function failureMessage(answer: { error_code?: number; error_msg?: string }): string | undefined {
	if (answer.error_code === undefined || answer.error_code === 0) return undefined
	if (TOKEN_REJECTED.has(answer.error_code)) forgetAccessTokens()
	return `Baidu error ${answer.error_code}: ${answer.error_msg ?? ''}`.trim()
}

export function checked<Answer extends { error_code?: number; error_msg?: string }>(answer: Answer): Answer {
	const message = failureMessage(answer)
	if (message) throw new RelayError(UPSTREAM_FAILED, message, 'upstream_error', 'upstream_error')
	return answer
}

export function finishReason(answer: WenxinAnswer) {
	if (answer.function_call) return 'tool_calls'
	return FINISH_REASONS[answer.finish_reason ?? ''] ?? 'stop'
}

/** Wenxin names no call id; the answer id stands in, so a client can send the result back. */
export function toolCalls(answer: WenxinAnswer, withIndex: boolean) {
	const call = answer.function_call
	if (!call) return {}
	return { tool_calls: [{ ...(withIndex ? { index: 0 } : {}), id: `call_${answer.id ?? ''}`, type: 'function', function: { name: call.name ?? '', arguments: call.arguments ?? '' } }] }
}

export function toOpenAIAnswer(text: string, model: string): Record<string, unknown> {
	const answer = checked(JSON.parse(text) as WenxinAnswer)
	return {
		id: answer.id ?? '',
		object: 'chat.completion',
		created: answer.created ?? 0,
		model,
		choices: [{ index: 0, message: { role: 'assistant', content: answer.result ?? '', ...toolCalls(answer, false) }, finish_reason: finishReason(answer) }],
		usage: openAIUsage(answer.usage),
	}
}

/** For the relay: an `error_code` in a 2xx answer is an upstream error (see Converter.errorOf). */
export function wenxinErrorOf(text: string): { status: number; message: string } | undefined {
	let answer: WenxinAnswer
	try {
		answer = JSON.parse(text) as WenxinAnswer
	} catch {
		return undefined
	}
	const message = failureMessage(answer)
	return message ? { status: UPSTREAM_FAILED, message } : undefined
}
