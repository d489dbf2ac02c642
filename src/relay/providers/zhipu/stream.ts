/**
 * Zhipu v3 `sse-invoke` → OpenAI chunks. Its events are `add` (a piece of text), `finish` (with a
 * non-standard `meta:` field holding usage), `error` and `interrupted`. `data:` lines carry raw text,
 * so no space after the colon is dropped, and several `data:` lines are joined by newlines.
 */
import type { BodyReader } from '@/lib/outbound'
import { eventChunkStream } from '../../formats/chunk-stream'
import { openAIUsage, type TokenCounts } from '../shared/openai-usage'
import { zhipuFailure } from './answer'
import type { EventReader } from '../../formats/events'

const MILLISECONDS_PER_SECOND = 1000

export function zhipuStreamToOpenAI(source: BodyReader, model: string): EventReader {
	const created = Math.floor(Date.now() / MILLISECONDS_PER_SECOND)
	let id = ''
	/** The `finish` event's chunks: its last text, then the usage. */
	let last: unknown[] = []
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return eventChunkStream(source, {
		chunks(event) {
			id = event.fields.id?.trim() || id
			if (event.event === 'add') return [chunk([{ index: 0, delta: { role: 'assistant', content: event.data }, finish_reason: null }])]
			if (event.event === 'finish') {
				const meta = event.fields.meta ? JSON.parse(event.fields.meta) as { usage?: TokenCounts; task_id?: string } : {}
				id = meta.task_id ?? id
				last = [
					chunk([{ index: 0, delta: { content: event.data }, finish_reason: 'stop' }]),
					...(meta.usage ? [chunk([], { usage: openAIUsage(meta.usage) })] : []),
				]
				return 'end'
			}
			if (event.event === 'error' || event.event === 'interrupted') throw zhipuFailure(event.event, event.data)
			return []
		},
		end: () => last,
		// A refused call is answered as plain JSON, not as events (anything else is malformed).
		noEvents(answer) {
			const { code, msg } = JSON.parse(answer) as { code?: number; msg?: string }
			throw zhipuFailure(code, msg)
		},
	}, { rawData: true })
}
