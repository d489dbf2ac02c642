/**
 * Google PaLM 2 (type 11): the legacy `v1beta2` chat API (`generateMessage`), key as `?key=`.
 * Non-streaming chat only; the API reports no usage, so the gateway counts tokens itself.
 */
import { randomString } from '@/lib/crypto'
import { identityOf, type ProviderAdaptor } from '../types'
import { palmType } from './capabilities'
import { NO_EXTRAS, type RequestExtras, topKOf } from '../../formats/canonical'

const ID_LENGTH = 24
/** PaLM names the speakers of a conversation; these are the names its own examples use. */
const USER_AUTHOR = '0'
const MODEL_AUTHOR = '1'

interface PalmAnswer {
	candidates?: { author?: string; content?: string }[]
	filters?: { reason?: string; message?: string }[]
}

/** Separate text parts (a file, then a question) are separate blocks: one per line, never run together. */
const BLOCKS = '\n'
/** An assistant message's text parts are pieces of one answer: joined as they are, as the answer reads. */
const ANSWER_PIECES = ''

/** PaLM's messages are text only: a content's text parts joined by `separator`. */
const textOf = (content: unknown, separator = BLOCKS) => typeof content === 'string' ? content
	: Array.isArray(content) ? content.filter((part) => part && typeof part === 'object' && typeof part.text === 'string' && part.text).map((part) => part.text as string).join(separator) : ''

function palmRequest(body: Record<string, unknown>, extras: RequestExtras) {
	const messages = (Array.isArray(body.messages) ? body.messages : []) as { role: string; content?: unknown }[]
	const context = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => textOf(message.content)).join('\n')
	const conversation = messages
		.filter((message) => message.role === 'user' || message.role === 'assistant')
		.map((message) => ({ author: message.role === 'assistant' ? MODEL_AUTHOR : USER_AUTHOR, content: textOf(message.content, message.role === 'assistant' ? ANSWER_PIECES : BLOCKS) }))
	const number = (value: unknown) => (typeof value === 'number' ? value : undefined)
	return {
		prompt: { ...(context ? { context } : {}), messages: conversation },
		temperature: number(body.temperature),
		topP: number(body.top_p),
		topK: topKOf(body, extras),
		candidateCount: number(body.n),
	}
}

export const palm: ProviderAdaptor = {
	...identityOf(palmType),
	converted: {
		chat: {
			buildRequest(channel, body, _context, extras) {
				const model = String(body.model).replace(/^models\//, '')
				return {
					url: `${channel.baseUrl}/v1beta2/models/${encodeURIComponent(model)}:generateMessage?key=${encodeURIComponent(channel.key)}`,
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(palmRequest(body, extras ?? NO_EXTRAS)),
				}
			},
			toOpenAI(text, model) {
				const answer = JSON.parse(text) as PalmAnswer
				const candidates = answer.candidates ?? []
				// A filtered answer has no candidates, only the reason it was blocked.
				const choices = candidates.length > 0
					? candidates.map((candidate, index) => ({ index, message: { role: 'assistant', content: candidate.content ?? '' }, finish_reason: 'stop' }))
					: [{ index: 0, message: { role: 'assistant', content: answer.filters?.[0]?.message ?? '' }, finish_reason: 'content_filter' }]
				return { id: `chatcmpl-${randomString(ID_LENGTH)}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices }
			},
		},
	},
}
