/**
 * The Responses client format's stream encoders. Events from a channel that speaks the API go as the
 * upstream sent them. Chat chunks (bridged channels) become the API's event sequence, each event with
 * its `sequence_number`: `response.created`, `response.in_progress`, then per output item
 * `response.output_item.added`, for text `response.content_part.added`, `response.output_text.delta`…,
 * `response.output_text.done`, `response.content_part.done` (reasoning likewise with
 * `response.reasoning_text.*`, or, when the request asked for a summary, with
 * `response.reasoning_summary_part.*` and `response.reasoning_summary_text.*`), for a function call `response.function_call_arguments.delta`… and
 * `.done`, then `response.output_item.done`; and last `response.completed` (or `response.incomplete`)
 * with the whole response and its usage. A failed stream ends with the API's `error` event.
 */
import type { AnswerEvent, Json, StreamEncoder, WireFormat } from '../events'
import { isObject } from '../json'
import { THINKING_BLOCKS_FIELD, type ThinkingBlock } from '../claude/thinking'
import { encryptedFor, endOf, functionCallItem, itemId, messageItem, outputText, reasoningItem, responseObject, type ResponseIdentity, wantsSummary } from './answer'
import { responsesUsageFromChat } from './usage'

const sse = (data: Json) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`

const errorData = (message: string, code: string | null, sequenceNumber: number) => ({ type: 'error', code, message, param: null, sequence_number: sequenceNumber })

/** The API's own events, passed on; a failure is written after the upstream's last sequence number. */
function passedEvents(): StreamEncoder {
	let next = 0
	return {
		encode(event: AnswerEvent) {
			switch (event.type) {
				case 'data':
					if (typeof event.data.sequence_number === 'number') next = event.data.sequence_number + 1
					return event.raw !== undefined ? `${event.raw}\n\n` : sse(event.data)
				case 'other':
					return `${event.raw}\n\n`
				case 'done':
					return 'data: [DONE]\n\n'
				case 'failed':
					return sse(errorData(event.error.message, event.error.code ?? 'upstream_error', next))
			}
		},
		end: () => '',
	}
}

export function responsesStreamEncoder(wire: WireFormat, identity: ResponseIdentity): StreamEncoder {
	return wire === 'responses' ? passedEvents() : eventsFromChat(identity)
}

type OpenItem =
	| { kind: 'reasoning' | 'message'; id: string; index: number; text: string; blocks: ThinkingBlock[]; unsigned: string }
	| { kind: 'call'; id: string; index: number; callId: string; name: string; arguments: string }

function eventsFromChat(identity: ResponseIdentity): StreamEncoder {
	let sequence = 0
	let started = false
	let finished = false
	let finishReason: unknown
	let usage: unknown
	const output: Json[] = []
	const summary = wantsSummary(identity)
	let text: Extract<OpenItem, { kind: 'reasoning' | 'message' }> | undefined
	/** Function calls by their chat index, open until the answer ends or text follows them. */
	const calls = new Map<number, Extract<OpenItem, { kind: 'call' }>>()

	const emit = (type: string, data: Json) => sse({ type, ...data, sequence_number: sequence++ })
	const start = () => {
		if (started) return ''
		started = true
		const response = responseObject(identity, 'in_progress', [])
		return emit('response.created', { response }) + emit('response.in_progress', { response })
	}
	const at = (item: OpenItem) => ({ item_id: item.id, output_index: item.index })

	const closeText = () => {
		if (!text) return ''
		const item = text
		text = undefined
		const { text: whole } = item
		// Claude's blocks closed by their signatures; another upstream's reasoning is one unsigned block.
		const encrypted = item.kind === 'reasoning' ? encryptedFor(identity, [...item.blocks, ...(item.unsigned ? [{ type: 'thinking' as const, thinking: item.unsigned, signature: '' }] : [])]) : undefined
		if (item.kind === 'reasoning' && summary) {
			const done = reasoningItem(item.id, whole, 'completed', true, encrypted)
			output[item.index] = done
			return emit('response.reasoning_summary_text.done', { ...at(item), summary_index: 0, text: whole })
				+ emit('response.reasoning_summary_part.done', { ...at(item), summary_index: 0, part: { type: 'summary_text', text: whole } })
				+ emit('response.output_item.done', { output_index: item.index, item: done })
		}
		if (item.kind === 'reasoning') {
			const done = reasoningItem(item.id, whole, 'completed', false, encrypted)
			output[item.index] = done
			return emit('response.reasoning_text.done', { ...at(item), content_index: 0, text: whole })
				+ emit('response.content_part.done', { ...at(item), content_index: 0, part: { type: 'reasoning_text', text: whole } })
				+ emit('response.output_item.done', { output_index: item.index, item: done })
		}
		const done = messageItem(item.id, [outputText(whole)], 'completed')
		output[item.index] = done
		return emit('response.output_text.done', { ...at(item), content_index: 0, text: whole, logprobs: [] })
			+ emit('response.content_part.done', { ...at(item), content_index: 0, part: outputText(whole) })
			+ emit('response.output_item.done', { output_index: item.index, item: done })
	}
	const closeCalls = () => {
		let written = ''
		for (const call of calls.values()) {
			const done = functionCallItem(call.id, call, 'completed')
			output[call.index] = done
			written += emit('response.function_call_arguments.done', { ...at(call), arguments: call.arguments })
				+ emit('response.output_item.done', { output_index: call.index, item: done })
		}
		calls.clear()
		return written
	}

	/** Opens an item of the kind unless one is open: what is open is closed first. */
	const open = (kind: 'reasoning' | 'message') => {
		let written = ''
		if (text?.kind !== kind) {
			written += closeText() + closeCalls()
			text = { kind, id: itemId(kind === 'reasoning' ? 'rs' : 'msg'), index: output.length, text: '', blocks: [], unsigned: '' }
			output.push({})
			if (kind === 'reasoning' && summary) {
				written += emit('response.output_item.added', { output_index: text.index, item: reasoningItem(text.id, '', 'in_progress', true) })
					+ emit('response.reasoning_summary_part.added', { ...at(text), summary_index: 0, part: { type: 'summary_text', text: '' } })
			} else if (kind === 'reasoning') {
				written += emit('response.output_item.added', { output_index: text.index, item: { ...reasoningItem(text.id, '', 'in_progress'), content: [] } })
					+ emit('response.content_part.added', { ...at(text), content_index: 0, part: { type: 'reasoning_text', text: '' } })
			} else {
				written += emit('response.output_item.added', { output_index: text.index, item: messageItem(text.id, [], 'in_progress') })
					+ emit('response.content_part.added', { ...at(text), content_index: 0, part: outputText('') })
			}
		}
		return written
	}

	/** Text of one kind: continues the open item of that kind, or closes what is open and opens one. */
	const onText = (kind: 'reasoning' | 'message', delta: string) => {
		const written = open(kind)
		if (!text) return written
		text.text += delta
		if (kind === 'reasoning') text.unsigned += delta
		if (kind === 'reasoning' && summary) return written + emit('response.reasoning_summary_text.delta', { ...at(text), summary_index: 0, delta })
		return written + (kind === 'reasoning'
			? emit('response.reasoning_text.delta', { ...at(text), content_index: 0, delta })
			: emit('response.output_text.delta', { ...at(text), content_index: 0, delta, logprobs: [] }))
	}

	/** Claude's thinking block ends (`claude_thinking`: its signature, or a whole redacted block): kept for `encrypted_content`. */
	const onThinkingBlock = (block: Json) => {
		if (!identity.encryptedReasoning) return ''
		const written = open('reasoning')
		if (!text) return written
		if (typeof block.signature === 'string') {
			text.blocks.push({ type: 'thinking', thinking: text.unsigned, signature: block.signature })
			text.unsigned = ''
		} else if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
			text.blocks.push({ type: 'redacted_thinking', data: block.data })
		}
		return written
	}

	const onCall = (delta: Json) => {
		let written = ''
		const index = typeof delta.index === 'number' ? delta.index : 0
		let call = calls.get(index)
		const fn = isObject(delta.function) ? delta.function : {}
		if (!call) {
			written += closeText()
			call = { kind: 'call', id: itemId('fc'), index: output.length, callId: typeof delta.id === 'string' ? delta.id : itemId('call'), name: typeof fn.name === 'string' ? fn.name : '', arguments: '' }
			output.push({})
			calls.set(index, call)
			written += emit('response.output_item.added', { output_index: call.index, item: functionCallItem(call.id, call, 'in_progress') })
		}
		if (typeof fn.arguments === 'string' && fn.arguments) {
			call.arguments += fn.arguments
			written += emit('response.function_call_arguments.delta', { ...at(call), delta: fn.arguments })
		}
		return written
	}

	const finish = () => {
		if (finished) return ''
		finished = true
		const written = start() + closeText() + closeCalls()
		const { status, incomplete } = endOf(finishReason)
		const response = responseObject(identity, status, output, { usage: responsesUsageFromChat(usage), incomplete })
		return written + emit(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response })
	}
	const fail = (message: string, code: string | null) => {
		finished = true
		return sse(errorData(message, code, sequence++))
	}

	return {
		encode(event) {
			if (finished) return ''
			switch (event.type) {
				case 'done':
					return finish()
				case 'failed':
					return fail(event.error.message, event.error.code ?? 'upstream_error')
				case 'other':
					return ''
				case 'data': {
					const chunk = event.data
					if (chunk.error) return fail(typeof chunk.error.message === 'string' ? chunk.error.message : 'the upstream stream failed', 'upstream_error')
					let written = start()
					if (chunk.usage) usage = chunk.usage
					for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
						const delta: Json = isObject(choice.delta) ? choice.delta : {}
						if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) written += onText('reasoning', delta.reasoning_content)
						if (isObject(delta[THINKING_BLOCKS_FIELD])) written += onThinkingBlock(delta[THINKING_BLOCKS_FIELD])
						if (typeof delta.content === 'string' && delta.content) written += onText('message', delta.content)
						if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (isObject(call)) written += onCall(call)
						if (choice.finish_reason) finishReason = choice.finish_reason
					}
					return written
				}
			}
		},
		// A chat stream that ended without [DONE] still ends as a whole response.
		end: finish,
	}
}
