/**
 * The playground's call (docs/specification/playground-and-chat.md#the-playground): `POST /pg/chat/completions` with the session cookie and the
 * New-Api-User header, its Server-Sent Events read with fetch and a reader. The reply text is each
 * event's `choices[0].delta.content`; the stream ends at `[DONE]`. The request as sent and the
 * events as they came are kept for the raw view, and the answer's request id names the call's log entry.
 */
import { pageLanguage } from '@ui/lib/browser-api'
import { readStoredUser } from '@ui/lib/storage'

const PLAYGROUND_PATH = '/pg/chat/completions'
const DONE = '[DONE]'

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string }

type PlaygroundRequest = {
	messages: ChatMessage[]
	model: string
	group: string
	temperature: number
	/** 0: not sent, the model's own limit applies. */
	maxTokens: number
}

/** A failed call, with the message to show: the server's when it gave one. */
export class PlaygroundError extends Error {}

/** The raw view keeps this much of an answer's events; a longer answer is cut, and says so. */
const RAW_ANSWER_MAX_CHARS = 200_000

/** What one call left behind: its request id (empty when the server gave none) and the raw exchange. */
export type ExchangeRecord = { requestId: string; request: string; answer: string }

export function requestBody(request: PlaygroundRequest) {
	return {
		messages: request.messages,
		model: request.model,
		...(request.group ? { group: request.group } : {}),
		stream: true,
		temperature: request.temperature,
		...(request.maxTokens > 0 ? { max_tokens: request.maxTokens } : {}),
	}
}

/** What one `data:` payload adds to the reply: text, the end, or an error the stream carried. */
function readEvent(data: string): { text: string } | { done: true } | { error: string } {
	if (data === DONE) return { done: true }
	let event: { choices?: { delta?: { content?: unknown } }[]; error?: { message?: unknown } }
	try {
		event = JSON.parse(data)
	} catch {
		return { text: '' }
	}
	if (event.error) return { error: typeof event.error.message === 'string' ? event.error.message : String(event.error) }
	const content = event.choices?.[0]?.delta?.content
	return { text: typeof content === 'string' ? content : '' }
}

function failureMessage(response: Response, text: string) {
	let payload: { error?: { message?: unknown }; message?: unknown } | undefined
	try {
		payload = JSON.parse(text)
	} catch {
		payload = undefined
	}
	const message = payload?.error?.message ?? payload?.message
	return typeof message === 'string' && message ? message : `${response.status} ${response.statusText}`.trim()
}

/**
 * Streams one reply, calling `onText` with each piece as it arrives, and `record` with the exchange
 * (as it stands when the call ends, however it ends). Resolves when the stream ends; rejects with a
 * PlaygroundError (or the AbortError when `signal` stops it).
 */
export async function streamChat(request: PlaygroundRequest, onText: (text: string) => void, signal: AbortSignal, record: (exchange: ExchangeRecord) => void = () => {}): Promise<void> {
	const user = readStoredUser()
	const sent = JSON.stringify(requestBody(request))
	const exchange: ExchangeRecord = { requestId: '', request: sent, answer: '' }
	const keep = (text: string) => {
		if (exchange.answer.length < RAW_ANSWER_MAX_CHARS) exchange.answer += text.slice(0, RAW_ANSWER_MAX_CHARS - exchange.answer.length)
	}
	try {
		const response = await fetch(PLAYGROUND_PATH, {
			method: 'POST',
			// The server words its refusals in the language the page shows, as browserApi asks for its answers.
			headers: { 'content-type': 'application/json', 'accept-language': pageLanguage(), ...(user ? { 'New-Api-User': String(user.id) } : {}) },
			body: sent,
			credentials: 'same-origin',
			signal,
		})
		exchange.requestId = response.headers.get('x-ferry-request-id') ?? ''
		if (!response.ok || !response.body) {
			const text = await response.text().catch(() => '')
			keep(`HTTP ${response.status}\n${text}`)
			throw new PlaygroundError(failureMessage(response, text))
		}
		const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
		let buffer = ''
		for (;;) {
			const { value, done } = await reader.read()
			if (done) break
			keep(value)
			buffer += value
			const lines = buffer.split('\n')
			buffer = lines.pop() ?? ''
			for (const line of lines) {
				if (!line.startsWith('data:')) continue
				const event = readEvent(line.slice(5).trim())
				if ('done' in event) {
					await reader.cancel().catch(() => {})
					return
				}
				if ('error' in event) throw new PlaygroundError(event.error)
				if (event.text) onText(event.text)
			}
		}
	} finally {
		record(exchange)
	}
}
