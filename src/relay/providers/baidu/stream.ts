/** Wenxin's SSE stream (`result` pieces, `is_end`, usage on the last event) → OpenAI chunks. */
import type { BodyReader } from '@/lib/outbound'
import { eventChunkStream } from '../../formats/chunk-stream'
import { openAIUsage } from '../shared/openai-usage'
import { checked, finishReason, toolCalls, type WenxinAnswer } from './answer'
import type { EventReader } from '../../formats/events'

export function wenxinStreamToOpenAI(source: BodyReader, model: string): EventReader {
	let usage: WenxinAnswer['usage']
	let id = ''
	let created = 0
	return eventChunkStream(source, {
		chunks(event) {
			const data = checked(JSON.parse(event.data) as WenxinAnswer)
			usage = data.usage ?? usage
			id = data.id ?? id
			created = data.created ?? created
			return [{
				id,
				object: 'chat.completion.chunk',
				created,
				model,
				choices: [{ index: 0, delta: { role: 'assistant', content: data.result ?? '', ...toolCalls(data, true) }, finish_reason: data.is_end ? finishReason(data) : null }],
			}]
		},
		end: () => (usage ? [{ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAIUsage(usage) }] : []),
		noEvents(answer) {
			checked(JSON.parse(answer) as WenxinAnswer)
			throw new SyntaxError('the upstream answered no stream events')
		},
	})
}
