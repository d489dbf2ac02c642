/** Cohere v2 chat answers and stream events → OpenAI's chat completion objects and chunks. */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream } from '../../formats/chunk-stream'
import { readSseEvents } from '../../formats/sse'
import { openAIUsage } from '../shared/openai-usage'
import type { EventReader } from '../../formats/events'

interface CohereTokens { input_tokens?: number; output_tokens?: number }
interface CohereUsage { billed_units?: CohereTokens; tokens?: CohereTokens }
interface CohereToolCall { id?: string; type?: string; function?: { name?: string; arguments?: string } }

const FINISH_REASONS: Record<string, string> = {
	COMPLETE: 'stop',
	STOP_SEQUENCE: 'stop',
	MAX_TOKENS: 'length',
	TOOL_CALL: 'tool_calls',
	ERROR: 'stop',
	TIMEOUT: 'stop',
}

const finishReason = (reason: string | undefined) => FINISH_REASONS[reason ?? ''] ?? 'stop'

/** Billed units are what Cohere charges for; `tokens` (which adds its prompt template) is the fallback. */
function cohereUsage(usage: CohereUsage | undefined) {
	const counted = usage?.billed_units?.input_tokens !== undefined ? usage.billed_units : usage?.tokens
	return openAIUsage({ prompt_tokens: counted?.input_tokens, completion_tokens: counted?.output_tokens })
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

export function cohereToOpenAI(text: string, model: string): Record<string, unknown> {
	const answer = JSON.parse(text) as {
		id?: string
		finish_reason?: string
		message?: { content?: { type?: string; text?: string }[]; tool_calls?: CohereToolCall[] }
		usage?: CohereUsage
	}
	const content = (answer.message?.content ?? []).filter((part) => part.type === 'text').map((part) => part.text ?? '').join('')
	const toolCalls = answer.message?.tool_calls ?? []
	const message = toolCalls.length > 0
		? { role: 'assistant', content: content || null, tool_calls: toolCalls.map((call) => ({ id: call.id, type: 'function', function: call.function })) }
		: { role: 'assistant', content }
	return {
		id: answer.id ?? '',
		object: 'chat.completion',
		created: nowSeconds(),
		model,
		choices: [{ index: 0, message, finish_reason: finishReason(answer.finish_reason) }],
		usage: cohereUsage(answer.usage),
	}
}

interface CohereStreamEvent {
	type?: string
	id?: string
	index?: number
	delta?: {
		message?: { content?: { text?: string }; tool_calls?: CohereToolCall }
		finish_reason?: string
		usage?: CohereUsage
	}
}

/** Content and tool-call events become deltas; `message-end` gives the finish reason and the usage. */
export function cohereStreamToOpenAI(reader: BodyReader, model: string): EventReader {
	const events = readSseEvents(reader)
	let id = ''
	const created = nowSeconds()
	let toolCallCount = 0
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	const delta = (value: Record<string, unknown>) => chunk([{ index: 0, delta: value, finish_reason: null }])
	return openAIChunkStream(async () => {
		const event = await events.next()
		if (!event) return undefined
		if (!event.data) return []
		const data = JSON.parse(event.data) as CohereStreamEvent
		switch (data.type) {
			case 'message-start':
				id = data.id ?? ''
				return [delta({ role: 'assistant', content: '' })]
			case 'content-delta': {
				const text = data.delta?.message?.content?.text
				return text ? [delta({ content: text })] : []
			}
			case 'tool-call-start': {
				const call = data.delta?.message?.tool_calls
				const index = data.index ?? toolCallCount
				toolCallCount = index + 1
				return [delta({ tool_calls: [{ index, id: call?.id, type: 'function', function: { name: call?.function?.name, arguments: call?.function?.arguments ?? '' } }] })]
			}
			case 'tool-call-delta': {
				const argumentsPiece = data.delta?.message?.tool_calls?.function?.arguments
				return argumentsPiece ? [delta({ tool_calls: [{ index: data.index ?? toolCallCount - 1, function: { arguments: argumentsPiece } }] })] : []
			}
			case 'message-end':
				return [
					chunk([{ index: 0, delta: {}, finish_reason: finishReason(data.delta?.finish_reason) }]),
					chunk([], { usage: cohereUsage(data.delta?.usage) }),
				]
			default:
				// content-start/end, tool-plan-delta, tool-call-end and citation events carry nothing OpenAI's format has.
				return []
		}
	}, (reason) => events.cancel(reason))
}
