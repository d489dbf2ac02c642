/** Wenxin answers → OpenAI's shape; an `error_code` in a 200 answer is an upstream error. */
import { RelayError } from '../../errors'
import { forgetAccessTokens } from './access-token'

export interface WenxinAnswer {
	id?: string
	created?: number
	result?: string
	is_end?: boolean
	finish_reason?: string
	function_call?: { name?: string; arguments?: string }
	usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number }
	error_code?: number
	error_msg?: string
}

/** "Access token invalid or no longer valid" and "Access token expired". */
const TOKEN_REJECTED = new Set([110, 111])
const UPSTREAM_FAILED = 502
const FINISH_REASONS: Record<string, string> = { normal: 'stop', stop: 'stop', length: 'length', content_filter: 'content_filter', function_call: 'tool_calls' }

export function checked<Answer extends { error_code?: number; error_msg?: string }>(answer: Answer): Answer {
	if (answer.error_code === undefined || answer.error_code === 0) return answer
	if (TOKEN_REJECTED.has(answer.error_code)) forgetAccessTokens()
	throw new RelayError(502, `Baidu error ${answer.error_code}: ${answer.error_msg ?? ''}`.trim(), 'upstream_error', 'upstream_error')
}

export function openAIUsage(usage: WenxinAnswer['usage'] = {}) {
	const prompt = usage.prompt_tokens ?? 0
	const completion = usage.completion_tokens ?? 0
	return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage.total_tokens ?? prompt + completion }
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
	if (answer.error_code === undefined || answer.error_code === 0) return undefined
	if (TOKEN_REJECTED.has(answer.error_code)) forgetAccessTokens()
	return { status: UPSTREAM_FAILED, message: `Baidu error ${answer.error_code}: ${answer.error_msg ?? ''}`.trim() }
}
