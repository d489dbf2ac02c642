/** Wenxin's SSE stream (`result` pieces, `is_end`, usage on the last event) → OpenAI chunks. */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream, readSseEvents } from '../../formats/sse'
import { checked, finishReason, openAIUsage, toolCalls, type WenxinAnswer } from './answer'

/** Enough of the body to read a JSON error answered instead of a stream. */
const HEAD_LIMIT = 64 * 1024

/** Keeps the first bytes of a body: Baidu answers a refused stream with plain JSON, not events. */
function recordingHead(reader: BodyReader) {
	const decoder = new TextDecoder()
	let head = ''
	return {
		head: () => head,
		reader: {
			async read() {
				const chunk = await reader.read()
				if (!chunk.done && head.length < HEAD_LIMIT) head += decoder.decode(chunk.value, { stream: true })
				return chunk
			},
			cancel: (reason?: unknown) => reader.cancel(reason),
		} satisfies BodyReader,
	}
}

export function wenxinStreamToOpenAI(source: BodyReader, model: string): BodyReader {
	const recorded = recordingHead(source)
	const events = readSseEvents(recorded.reader)
	let usage: WenxinAnswer['usage']
	let id = ''
	let created = 0
	let sawEvent = false
	let finished = false
	return openAIChunkStream(async () => {
		if (finished) return undefined
		const event = await events.next()
		if (!event) {
			finished = true
			if (!sawEvent) {
				checked(JSON.parse(recorded.head()) as WenxinAnswer)
				throw new SyntaxError('the upstream answered no stream events')
			}
			return usage ? [{ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAIUsage(usage) }] : []
		}
		sawEvent = true
		const data = checked(JSON.parse(event.data) as WenxinAnswer)
		usage = data.usage ?? usage
		id = data.id ?? id
		created = data.created ?? created
		const chunk = {
			id,
			object: 'chat.completion.chunk',
			created,
			model,
			choices: [{ index: 0, delta: { role: 'assistant', content: data.result ?? '', ...toolCalls(data, true) }, finish_reason: data.is_end ? finishReason(data) : null }],
		}
		return [chunk]
	}, (reason) => events.cancel(reason))
}
