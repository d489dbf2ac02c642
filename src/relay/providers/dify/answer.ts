/** Dify answers and stream events → OpenAI's chat completion objects and chunks. */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream } from '../../formats/chunk-stream'
import { readSseEvents } from '../../formats/sse'
import { openAIUsage, type TokenCounts } from '../shared/openai-usage'
import type { EventReader } from '../../formats/events'

interface DifyEvent {
	event?: string
	message_id?: string
	id?: string
	answer?: string
	created_at?: number
	metadata?: { usage?: TokenCounts }
	code?: string
	message?: string
}

export function difyToOpenAI(text: string, model: string): Record<string, unknown> {
	const answer = JSON.parse(text) as DifyEvent
	return {
		id: `chatcmpl-${answer.message_id ?? answer.id ?? ''}`,
		object: 'chat.completion',
		created: answer.created_at ?? Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message: { role: 'assistant', content: answer.answer ?? '' }, finish_reason: 'stop' }],
		usage: openAIUsage(answer.metadata?.usage),
	}
}

/** Text arrives in `message` (chat apps) or `agent_message` (agents); `message_end` carries the usage. */
export function difyStreamToOpenAI(reader: BodyReader, model: string): EventReader {
	const events = readSseEvents(reader)
	let id = ''
	let created = 0
	let started = false
	let ended = false
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return openAIChunkStream(async () => {
		if (ended) return undefined
		const event = await events.next()
		if (!event) return undefined
		if (!event.data) return []
		const data = JSON.parse(event.data) as DifyEvent
		id ||= `chatcmpl-${data.message_id ?? data.id ?? ''}`
		created ||= data.created_at ?? Math.floor(Date.now() / 1000)
		switch (data.event) {
			case 'message':
			case 'agent_message': {
				if (!data.answer) return []
				const delta = started ? { content: data.answer } : { role: 'assistant', content: data.answer }
				started = true
				return [chunk([{ index: 0, delta, finish_reason: null }])]
			}
			case 'message_end':
				ended = true
				return [chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]), chunk([], { usage: openAIUsage(data.metadata?.usage) })]
			case 'error':
				throw new Error(`dify stream error ${data.code ?? ''}: ${data.message ?? ''}`)
			default:
				// ping, agent_thought, message_file, message_replace, workflow and node events carry no answer text.
				return []
		}
	}, (reason) => events.cancel(reason))
}
