/**
 * Claude's event stream → OpenAI chunks, one upstream event per pull. `message_start` gives the
 * id and the prompt usage, blocks become deltas (text → `content`, `tool_use` → `tool_calls`,
 * thinking → `reasoning_content` plus the signature extension), `message_delta` the finish reason
 * and output usage, and `message_stop` ends with the usage chunk. An `error` event or a stream
 * cut before `message_stop` ends the stream as failed. The structured-output fallback tool's input
 * (structured-output.ts) streams as the answer's `content`.
 */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream } from '../../formats/chunk-stream'
import { readSseEvents } from '../../formats/sse'
import { finishReasonFromClaude } from '../../formats/claude/stop-reason'
import { THINKING_BLOCKS_FIELD } from '../../formats/claude/thinking'
import { openAIUsageFromClaude, type ClaudeUsage } from '../../formats/claude/usage'
import type { EventReader } from '../../formats/events'
import { parseGeneratedJson } from '../../formats/json'
import { fallbackAnswerText, fallbackToolOf } from './structured-output'

type Json = Record<string, any>

class ClaudeStreamError extends Error {}

/**
 * Claude's stream events, however they arrive, → OpenAI chunks. `nextEvents` answers the events of
 * one upstream read (possibly none), or undefined when the upstream ended. `request` is the
 * OpenAI-format body the upstream request was built from.
 */
export function openAIStreamFromClaudeEvents(nextEvents: () => Promise<Json[] | undefined>, cancel: (reason?: unknown) => Promise<void>, model: string, request?: Json): EventReader {
	const created = Math.floor(Date.now() / 1000)
	let id = ''
	let usage: ClaudeUsage = {}
	let stopped = false
	/** Claude block index → OpenAI tool call index. */
	const toolIndexes = new Map<number, number>()
	const fallback = fallbackToolOf(request)
	/** The block of the fallback tool's call, and its input so far when the schema's root is wrapped (sent whole at the block's end). */
	let answerBlock: number | undefined
	let wrappedInput = ''

	const chunk = (delta: Json, finishReason: string | null = null) => ({
		id, object: 'chat.completion.chunk', created, model,
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
	})

	const handle = (event: Json): Json[] => {
		switch (event.type) {
			case 'message_start':
				id = event.message?.id ?? ''
				usage = { ...event.message?.usage }
				return [chunk({ role: 'assistant', content: '' })]
			case 'content_block_start': {
				const block = event.content_block ?? {}
				if (block.type === 'tool_use' && fallback && block.name === fallback.name) {
					answerBlock = event.index
					return []
				}
				if (block.type === 'tool_use') {
					const toolIndex = toolIndexes.size
					toolIndexes.set(event.index, toolIndex)
					return [chunk({ tool_calls: [{ index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] })]
				}
				if (block.type === 'redacted_thinking') return [chunk({ [THINKING_BLOCKS_FIELD]: { type: 'redacted_thinking', data: block.data } })]
				if (block.type === 'text' && block.text) return [chunk({ content: block.text })]
				if (block.type === 'thinking' && block.thinking) return [chunk({ reasoning_content: block.thinking })]
				return []
			}
			case 'content_block_delta': {
				const delta = event.delta ?? {}
				if (delta.type === 'text_delta') return [chunk({ content: delta.text })]
				if (delta.type === 'thinking_delta') return [chunk({ reasoning_content: delta.thinking })]
				if (delta.type === 'signature_delta') return [chunk({ [THINKING_BLOCKS_FIELD]: { signature: delta.signature } })]
				if (delta.type === 'input_json_delta' && event.index === answerBlock) {
					if (!delta.partial_json) return []
					if (!fallback!.wrapped) return [chunk({ content: delta.partial_json })]
					wrappedInput += delta.partial_json
					return []
				}
				if (delta.type === 'input_json_delta') {
					const toolIndex = toolIndexes.get(event.index)
					if (toolIndex === undefined || !delta.partial_json) return []
					return [chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] })]
				}
				return []
			}
			case 'content_block_stop': {
				if (event.index !== answerBlock || !fallback!.wrapped) return []
				const input = parseGeneratedJson(wrappedInput || '{}')
				return [chunk({ content: fallbackAnswerText(input?.value, fallback!) })]
			}
			case 'message_delta': {
				// Counts in message_delta are cumulative totals: they replace, never add.
				for (const [field, value] of Object.entries(event.usage ?? {})) if (value !== null && value !== undefined) (usage as Json)[field] = value
				const stop = event.delta?.stop_reason
				if (!stop) return []
				// The fallback tool's call is the answer: the answer stops, it does not call a tool.
				return [chunk({}, answerBlock !== undefined && toolIndexes.size === 0 ? 'stop' : finishReasonFromClaude(stop))]
			}
			case 'message_stop':
				stopped = true
				return [{ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAIUsageFromClaude(usage) }]
			case 'error':
				throw new ClaudeStreamError(String(event.error?.message ?? 'the upstream stream failed'))
			default:
				// ping and event types added later carry nothing to pass on.
				return []
		}
	}

	return openAIChunkStream(async () => {
		if (stopped) return undefined
		const events = await nextEvents()
		if (!events) throw new ClaudeStreamError('the upstream stream ended before message_stop')
		return events.flatMap(handle)
	}, cancel)
}

export function openAIStreamFromClaude(reader: BodyReader, model: string, request?: Json): EventReader {
	const events = readSseEvents(reader)
	return openAIStreamFromClaudeEvents(async () => {
		const event = await events.next()
		if (!event) return undefined
		if (!event.data) return []
		const parsed = JSON.parse(event.data) as Json
		if (typeof parsed !== 'object' || parsed === null) throw new SyntaxError('a Claude stream event must be an object')
		return [parsed]
	}, (reason) => events.cancel(reason), model, request)
}
