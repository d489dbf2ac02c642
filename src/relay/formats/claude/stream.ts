/**
 * An OpenAI chunk stream → Claude's event sequence: `message_start`, then per block
 * `content_block_start` / `content_block_delta`… / `content_block_stop` (thinking, text, tool use),
 * then `message_delta` with the stop reason and the whole usage, and `message_stop`. The prompt
 * usage is only known at the end, so `message_start` reports 0 input tokens and `message_delta`
 * the real counts (Claude's SDKs take them from there). One upstream event per pull.
 */
import type { BodyReader } from '@/lib/outbound'
import { readSseEvents } from '../sse'
import { claudeMessageId } from './answer'
import { claudeErrorBody } from './errors'
import { stopReasonFromOpenAI } from './stop-reason'
import { THINKING_BLOCKS_FIELD } from './thinking'
import { claudeUsageFromOpenAI } from './usage'

type Json = Record<string, any>
type OpenBlock = { kind: 'thinking' | 'text' } | { kind: 'tool'; toolIndex: number }

const encoder = new TextEncoder()
const event = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

/** A stream that failed upstream ends with an error event typed as this status is (api_error). */
const UPSTREAM_ERROR_STATUS = 502

export function claudeStreamFromOpenAI(reader: BodyReader, model: string): ReadableStream<Uint8Array> {
	const events = readSseEvents(reader)
	let started = false
	let finished = false
	let blockIndex = -1
	let open: OpenBlock | undefined
	let stopReason: string | null = null
	let usage: Json | undefined

	const start = (id: unknown): string[] => {
		if (started) return []
		started = true
		const message = {
			id: claudeMessageId(id), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
			usage: { input_tokens: 0, output_tokens: 0 },
		}
		return [event('message_start', { message })]
	}
	const close = (): string[] => {
		if (!open) return []
		open = undefined
		return [event('content_block_stop', { index: blockIndex })]
	}
	const openBlock = (block: OpenBlock, contentBlock: Json): string[] => {
		const output = close()
		blockIndex++
		open = block
		output.push(event('content_block_start', { index: blockIndex, content_block: contentBlock }))
		return output
	}
	const delta = (value: Json) => event('content_block_delta', { index: blockIndex, delta: value })

	const onDelta = (part: Json): string[] => {
		const output: string[] = []
		if (typeof part.reasoning_content === 'string' && part.reasoning_content) {
			if (open?.kind !== 'thinking') output.push(...openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' }))
			output.push(delta({ type: 'thinking_delta', thinking: part.reasoning_content }))
		}
		const thinking = part[THINKING_BLOCKS_FIELD]
		if (thinking && typeof thinking.signature === 'string') {
			if (open?.kind !== 'thinking') output.push(...openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' }))
			output.push(delta({ type: 'signature_delta', signature: thinking.signature }), ...close())
		} else if (thinking?.type === 'redacted_thinking') {
			output.push(...openBlock({ kind: 'thinking' }, { type: 'redacted_thinking', data: thinking.data }), ...close())
		}
		if (typeof part.content === 'string' && part.content) {
			if (open?.kind !== 'text') output.push(...openBlock({ kind: 'text' }, { type: 'text', text: '' }))
			output.push(delta({ type: 'text_delta', text: part.content }))
		}
		if (Array.isArray(part.tool_calls)) {
			for (const call of part.tool_calls) {
				const toolIndex = typeof call.index === 'number' ? call.index : 0
				if (open?.kind !== 'tool' || open.toolIndex !== toolIndex) {
					output.push(...openBlock({ kind: 'tool', toolIndex }, { type: 'tool_use', id: call.id, name: call.function?.name, input: {} }))
				}
				const text = call.function?.arguments
				if (typeof text === 'string' && text) output.push(delta({ type: 'input_json_delta', partial_json: text }))
			}
		}
		return output
	}

	const finish = (): string[] => {
		finished = true
		return [
			...start(undefined),
			...close(),
			event('message_delta', { delta: { stop_reason: stopReason ?? 'end_turn', stop_sequence: null }, usage: claudeUsageFromOpenAI(usage) }),
			event('message_stop', {}),
		]
	}

	const step = async (): Promise<string[]> => {
		const next = await events.next()
		if (!next) return finish()
		if (!next.data) return []
		if (next.data === '[DONE]') return finish()
		const chunk = JSON.parse(next.data) as Json
		if (chunk.error) {
			finished = true
			const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'the upstream stream failed'
			return [event('error', claudeErrorBody(UPSTREAM_ERROR_STATUS, message))]
		}
		const output = start(chunk.id)
		if (chunk.usage) usage = chunk.usage
		for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
			if (choice.delta) output.push(...onDelta(choice.delta))
			if (choice.finish_reason) stopReason = stopReasonFromOpenAI(choice.finish_reason)
		}
		return output
	}

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				for (;;) {
					if (finished) {
						controller.close()
						return
					}
					const output = await step()
					if (output.length > 0) {
						controller.enqueue(encoder.encode(output.join('')))
						return
					}
				}
			} catch (error) {
				finished = true
				const message = error instanceof SyntaxError ? 'the upstream sent a malformed stream event' : 'the upstream connection was lost'
				controller.enqueue(encoder.encode(event('error', claudeErrorBody(UPSTREAM_ERROR_STATUS, message))))
				void events.cancel().catch(() => {})
				controller.close()
			}
		},
		async cancel(reason) {
			finished = true
			await events.cancel(reason)
		},
	})
}
