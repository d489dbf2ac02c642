/** Wenxin's SSE stream (`result` pieces, `is_end`, usage on the last event) → OpenAI chunks. */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream, readSseEvents, recordingHead } from '../../formats/sse'
import { openAIUsage } from '../shared/openai-usage'
import { checked, finishReason, toolCalls, type WenxinAnswer } from './answer'

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
