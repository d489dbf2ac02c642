/** Hunyuan answers and stream chunks → OpenAI's shapes. */
import { RelayError } from '../../errors'
import { openAIUsage } from '../shared/openai-usage'

type HunyuanToolCall = { Id?: string; Type?: string; Index?: number; Function?: { Name?: string; Arguments?: string } }
type HunyuanPart = { Role?: string; Content?: string; ReasoningContent?: string; ToolCalls?: HunyuanToolCall[] }
export type HunyuanUsage = { PromptTokens?: number; CompletionTokens?: number; TotalTokens?: number }
type HunyuanError = { Code?: string; Message?: string; Msg?: string }
export interface HunyuanChunk {
	Id?: string
	Created?: number
	Choices?: { Message?: HunyuanPart; Delta?: HunyuanPart; FinishReason?: string; Index?: number }[]
	Usage?: HunyuanUsage
	/** Cloud API errors (`Response.Error`) and errors inside a stream (`ErrorMsg`). */
	Error?: HunyuanError
	ErrorMsg?: HunyuanError
}

const FINISH_REASONS: Record<string, string> = { stop: 'stop', length: 'length', sensitive: 'content_filter', tool_calls: 'tool_calls' }

export const finishReason = (reason: string | undefined) => (reason ? FINISH_REASONS[reason] ?? 'stop' : null)

export function hunyuanUsage(usage: HunyuanUsage = {}) {
	return openAIUsage({ prompt_tokens: usage.PromptTokens, completion_tokens: usage.CompletionTokens, total_tokens: usage.TotalTokens })
}

export function openAIToolCalls(calls: HunyuanToolCall[] | undefined, withIndex: boolean) {
	if (!calls?.length) return {}
	return {
		tool_calls: calls.map((call, position) => ({
			...(withIndex ? { index: call.Index ?? position } : {}),
			id: call.Id, type: 'function', function: { name: call.Function?.Name ?? '', arguments: call.Function?.Arguments ?? '' },
		})),
	}
}

/**
 * Tencent Cloud answers most failures with HTTP 200 and `Response.Error`; that is an upstream
 * error, never an answer to bill.
 */
export function upstreamFailure(error: HunyuanError): RelayError {
	const code = error.Code ?? 'unknown'
	return new RelayError(502, `Hunyuan error ${code}: ${error.Message ?? error.Msg ?? ''}`.trim(), 'upstream_error', 'upstream_error')
}

export function toOpenAIAnswer(text: string, model: string): Record<string, unknown> {
	const answer = (JSON.parse(text) as { Response?: HunyuanChunk }).Response ?? {}
	const failure = answer.Error ?? answer.ErrorMsg
	if (failure) throw upstreamFailure(failure)
	return {
		id: answer.Id ?? '',
		object: 'chat.completion',
		created: answer.Created ?? 0,
		model,
		choices: (answer.Choices ?? []).map((choice, index) => ({
			index: choice.Index ?? index,
			message: {
				role: 'assistant',
				content: choice.Message?.Content ?? '',
				...(choice.Message?.ReasoningContent ? { reasoning_content: choice.Message.ReasoningContent } : {}),
				...openAIToolCalls(choice.Message?.ToolCalls, false),
			},
			finish_reason: finishReason(choice.FinishReason) ?? 'stop',
		})),
		usage: hunyuanUsage(answer.Usage),
	}
}

/** Tencent Cloud's signature and credential failures (`AuthFailure.SignatureFailure`, `AuthFailure.SecretIdNotFound`…). */
const CREDENTIAL_FAILURE = /^AuthFailure\./
const UNAUTHORIZED = 401
const UPSTREAM_FAILED = 502

/** For the relay: `Response.Error` in a 2xx answer is an upstream error (see Converter.errorOf). */
export function hunyuanErrorOf(text: string): { status: number; message: string } | undefined {
	let answer: HunyuanChunk
	try {
		answer = (JSON.parse(text) as { Response?: HunyuanChunk }).Response ?? {}
	} catch {
		return undefined
	}
	const failure = answer.Error ?? answer.ErrorMsg
	if (!failure) return undefined
	return { status: CREDENTIAL_FAILURE.test(failure.Code ?? '') ? UNAUTHORIZED : UPSTREAM_FAILED, message: upstreamFailure(failure).message }
}
