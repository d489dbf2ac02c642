/**
 * Zhipu v3 `sse-invoke` → OpenAI chunks. Its events are `add` (a piece of text), `finish` (with a
 * non-standard `meta:` field holding usage), `error` and `interrupted`. `data:` lines carry raw text,
 * so no space after the colon is dropped, and several `data:` lines are joined by newlines.
 */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream, readSseEvents, recordingHead } from '../../formats/sse'
import { openAIUsage, type TokenCounts } from '../shared/openai-usage'
import { zhipuFailure } from './answer'

const MILLISECONDS_PER_SECOND = 1000

export function zhipuStreamToOpenAI(source: BodyReader, model: string): BodyReader {
	const recorded = recordingHead(source)
	const events = readSseEvents(recorded.reader, { rawData: true })
	const created = Math.floor(Date.now() / MILLISECONDS_PER_SECOND)
	let id = ''
	let sawEvent = false
	let finished = false
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return openAIChunkStream(async () => {
		if (finished) return undefined
		const event = await events.next()
		if (!event) {
			finished = true
			if (!sawEvent) {
				// A refused call is answered as plain JSON, not as events (anything else is malformed).
				const answer = JSON.parse(recorded.head()) as { code?: number; msg?: string }
				throw zhipuFailure(answer.code, answer.msg)
			}
			return []
		}
		sawEvent = true
		id = event.fields.id?.trim() || id
		if (event.event === 'add') return [chunk([{ index: 0, delta: { role: 'assistant', content: event.data }, finish_reason: null }])]
		if (event.event === 'finish') {
			finished = true
			const meta = event.fields.meta ? JSON.parse(event.fields.meta) as { usage?: TokenCounts; task_id?: string } : {}
			id = meta.task_id ?? id
			return [
				chunk([{ index: 0, delta: { content: event.data }, finish_reason: 'stop' }]),
				...(meta.usage ? [chunk([], { usage: openAIUsage(meta.usage) })] : []),
			]
		}
		if (event.event === 'error' || event.event === 'interrupted') throw zhipuFailure(event.event, event.data)
		return []
	}, (reason) => events.cancel(reason))
}
