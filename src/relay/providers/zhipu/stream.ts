/**
 * Zhipu v3 `sse-invoke` → OpenAI chunks. Its events are `add` (a piece of text), `finish` (with a
 * non-standard `meta:` line holding usage), `error` and `interrupted`. `data:` lines carry raw text,
 * so no space after the colon is stripped, and several `data:` lines are joined by newlines.
 */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream } from '../../formats/sse'
import { openAIUsage, type TokenCounts } from '../shared/openai-usage'
import { zhipuFailure } from './answer'

const EVENT_SEPARATOR = /\r?\n\r?\n/
const MILLISECONDS_PER_SECOND = 1000

interface ZhipuEvent {
	event: string
	id: string
	data: string
	meta: string
}

function parseEvent(block: string): ZhipuEvent | undefined {
	const event: ZhipuEvent = { event: '', id: '', data: '', meta: '' }
	const data: string[] = []
	for (const line of block.split(/\r?\n/)) {
		const colon = line.indexOf(':')
		if (colon <= 0) continue
		const field = line.slice(0, colon)
		const value = line.slice(colon + 1)
		if (field === 'data') data.push(value)
		else if (field === 'event' || field === 'id' || field === 'meta') event[field] = value.trim()
	}
	event.data = data.join('\n')
	return event.event || data.length ? event : undefined
}

function zhipuEvents(reader: BodyReader) {
	const decoder = new TextDecoder()
	let pending = ''
	let ended = false
	const ready: ZhipuEvent[] = []
	return {
		/** The next event; at the end, `rest` is what the body held besides events (an error answer). */
		async next(): Promise<ZhipuEvent | { rest: string } | undefined> {
			for (;;) {
				const queued = ready.shift()
				if (queued) return queued
				if (ended) return undefined
				const chunk = await reader.read()
				if (chunk.done) {
					ended = true
					const rest = pending + decoder.decode()
					const last = parseEvent(rest)
					if (last) ready.push(last)
					else if (rest.trim()) return { rest }
					continue
				}
				pending += decoder.decode(chunk.value, { stream: true })
				const blocks = pending.split(EVENT_SEPARATOR)
				pending = blocks.pop() ?? ''
				for (const block of blocks) {
					const event = parseEvent(block)
					if (event) ready.push(event)
				}
			}
		},
	}
}

export function zhipuStreamToOpenAI(source: BodyReader, model: string): BodyReader {
	const events = zhipuEvents(source)
	const created = Math.floor(Date.now() / MILLISECONDS_PER_SECOND)
	let id = ''
	let sawEvent = false
	let finished = false
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return openAIChunkStream(async () => {
		if (finished) return undefined
		const event = await events.next()
		if (!event || 'rest' in event) {
			finished = true
			// A refused call is answered as plain JSON, not as events.
			if (event && !sawEvent) {
				const answer = JSON.parse(event.rest) as { code?: number; msg?: string }
				throw zhipuFailure(answer.code, answer.msg)
			}
			if (!sawEvent) throw new SyntaxError('the upstream answered no stream events')
			return []
		}
		sawEvent = true
		id = event.id || id
		if (event.event === 'add') return [chunk([{ index: 0, delta: { role: 'assistant', content: event.data }, finish_reason: null }])]
		if (event.event === 'finish') {
			finished = true
			const meta = event.meta ? JSON.parse(event.meta) as { usage?: TokenCounts; task_id?: string } : {}
			id = meta.task_id ?? id
			return [
				chunk([{ index: 0, delta: { content: event.data }, finish_reason: 'stop' }]),
				...(meta.usage ? [chunk([], { usage: openAIUsage(meta.usage) })] : []),
			]
		}
		if (event.event === 'error' || event.event === 'interrupted') throw zhipuFailure(event.event, event.data)
		return []
	}, (reason) => source.cancel(reason))
}
