/**
 * The Claude client format's stream encoder. Events in Claude's own format (a channel that speaks it)
 * go as the upstream sent them. OpenAI chunks become Claude's event sequence: `message_start`, then
 * per block `content_block_start` / `content_block_delta`… / `content_block_stop` (thinking, text,
 * tool use), then `message_delta` with the stop reason and the whole usage, and `message_stop`. The
 * upstream's prompt usage is only known at the end, so `message_start` reports the prompt as Ferry
 * counted it (0 when it was not counted) and `message_delta` the upstream's counts (Claude's SDKs
 * take them from there). A failed stream ends with Claude's `error` event.
 */
import type { AnswerEvent, Json, StreamEncoder, WireFormat } from '../events'
import { claudeMessageId } from './answer'
import { claudeErrorBody } from './errors'
import { stopReasonFromOpenAI } from './stop-reason'
import { THINKING_BLOCKS_FIELD } from './thinking'
import { claudeUsageFromOpenAI } from './usage'

type OpenBlock = { kind: 'thinking' | 'text' } | { kind: 'tool'; toolIndex: number }

const event = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

/** A stream that failed upstream ends with an error event typed as this status is (api_error). */
const UPSTREAM_ERROR_STATUS = 502

const errorEvent = (message: string) => event('error', claudeErrorBody(UPSTREAM_ERROR_STATUS, message))

/** Claude's own events, passed on: the upstream's bytes, or (decoded from another framing, Bedrock's) written once. */
const claudeEvents: StreamEncoder = {
	encode(answerEvent: AnswerEvent) {
		switch (answerEvent.type) {
			case 'data':
				return answerEvent.raw !== undefined ? `${answerEvent.raw}\n\n` : `event: ${answerEvent.data.type}\ndata: ${JSON.stringify(answerEvent.data)}\n\n`
			case 'other':
				return `${answerEvent.raw}\n\n`
			case 'failed':
				return errorEvent(answerEvent.error.message)
			case 'done':
				return ''
		}
	},
	end: () => '',
}

/** `inputTokens` answers the prompt's size as Ferry counted it, once it is known (0 until then). */
export function claudeStreamEncoder(wire: WireFormat, model: string, inputTokens: () => number = () => 0): StreamEncoder {
	return wire === 'claude' ? claudeEvents : claudeEventsFromOpenAI(model, inputTokens)
}

function claudeEventsFromOpenAI(model: string, inputTokens: () => number): StreamEncoder {
	let started = false
	let finished = false
	let blockIndex = -1
	let open: OpenBlock | undefined
	let stopReason: string | null = null
	let usage: Json | undefined

	const start = (id: unknown): string => {
		if (started) return ''
		started = true
		const message = {
			id: claudeMessageId(id), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
			usage: { input_tokens: inputTokens(), output_tokens: 0 },
		}
		return event('message_start', { message })
	}
	const close = (): string => {
		if (!open) return ''
		open = undefined
		return event('content_block_stop', { index: blockIndex })
	}
	const openBlock = (block: OpenBlock, contentBlock: Json): string => {
		const output = close()
		blockIndex++
		open = block
		return output + event('content_block_start', { index: blockIndex, content_block: contentBlock })
	}
	const delta = (value: Json) => event('content_block_delta', { index: blockIndex, delta: value })

	const onDelta = (part: Json): string => {
		let output = ''
		if (typeof part.reasoning_content === 'string' && part.reasoning_content) {
			if (open?.kind !== 'thinking') output += openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' })
			output += delta({ type: 'thinking_delta', thinking: part.reasoning_content })
		}
		const thinking = part[THINKING_BLOCKS_FIELD]
		if (thinking && typeof thinking.signature === 'string') {
			if (open?.kind !== 'thinking') output += openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' })
			output += delta({ type: 'signature_delta', signature: thinking.signature }) + close()
		} else if (thinking?.type === 'redacted_thinking') {
			output += openBlock({ kind: 'thinking' }, { type: 'redacted_thinking', data: thinking.data }) + close()
		}
		if (typeof part.content === 'string' && part.content) {
			if (open?.kind !== 'text') output += openBlock({ kind: 'text' }, { type: 'text', text: '' })
			output += delta({ type: 'text_delta', text: part.content })
		}
		if (Array.isArray(part.tool_calls)) {
			for (const call of part.tool_calls) {
				const toolIndex = typeof call.index === 'number' ? call.index : 0
				if (open?.kind !== 'tool' || open.toolIndex !== toolIndex) {
					output += openBlock({ kind: 'tool', toolIndex }, { type: 'tool_use', id: call.id, name: call.function?.name, input: {} })
				}
				const text = call.function?.arguments
				if (typeof text === 'string' && text) output += delta({ type: 'input_json_delta', partial_json: text })
			}
		}
		return output
	}

	const finish = (): string => {
		if (finished) return ''
		finished = true
		return start(undefined) + close()
			+ event('message_delta', { delta: { stop_reason: stopReason ?? 'end_turn', stop_sequence: null }, usage: claudeUsageFromOpenAI(usage) })
			+ event('message_stop', {})
	}

	return {
		encode(answerEvent) {
			if (finished) return ''
			switch (answerEvent.type) {
				case 'done':
					return finish()
				case 'failed':
					finished = true
					return errorEvent(answerEvent.error.message)
				case 'other':
					return ''
				case 'data': {
					const chunk = answerEvent.data
					if (chunk.error) {
						finished = true
						return errorEvent(typeof chunk.error.message === 'string' ? chunk.error.message : 'the upstream stream failed')
					}
					let output = start(chunk.id)
					if (chunk.usage) usage = chunk.usage
					for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
						if (choice.delta) output += onDelta(choice.delta)
						if (choice.finish_reason) stopReason = stopReasonFromOpenAI(choice.finish_reason)
					}
					return output
				}
			}
		},
		// An OpenAI stream that ended without [DONE] still ends as a whole Claude message.
		end: finish,
	}
}
