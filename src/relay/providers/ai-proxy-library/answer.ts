/** AI Proxy Library answers (`/api/library/ask`) → OpenAI's chat completion objects and chunks. */
import type { BodyReader } from '@/lib/outbound'
import { RelayError } from '../../errors'
import { openAIChunkStream } from '../../formats/chunk-stream'
import { readSseEvents } from '../../formats/sse'
import type { EventReader } from '../../formats/events'

interface LibraryDocument {
	title?: string
	url?: string
}

interface LibraryAnswer {
	success?: boolean
	answer?: string
	documents?: LibraryDocument[]
	errCode?: number
	message?: string
}

interface LibraryStreamEvent {
	content?: string
	finish?: boolean
	model?: string
	documents?: LibraryDocument[]
}

/**
 * The documents the answer was drawn from, as a Markdown list after the answer, so a chat client
 * shows where it came from. Nothing when there are none.
 */
function referencesText(documents: LibraryDocument[] | undefined): string {
	const listed = (documents ?? []).filter((document) => document.title || document.url)
	if (listed.length === 0) return ''
	return `\n\n${listed.map((document) => `- [${document.title || document.url}](${document.url ?? ''})`).join('\n')}`
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Failures come back as `success: false` with `errCode` and `message`, often under a 2xx status. */
export function libraryErrorOf(text: string): { status: number; message: string } | undefined {
	let parsed: LibraryAnswer
	try {
		parsed = JSON.parse(text) as LibraryAnswer
	} catch {
		return undefined
	}
	if (parsed.success !== false) return undefined
	return { status: 400, message: `AI Proxy Library error ${parsed.errCode ?? ''}: ${parsed.message ?? 'the library refused the question'}` }
}

export function libraryToOpenAI(text: string, model: string): Record<string, unknown> {
	const answer = JSON.parse(text) as LibraryAnswer
	return {
		id: `chatcmpl-library-${crypto.randomUUID()}`,
		object: 'chat.completion',
		created: nowSeconds(),
		model,
		choices: [{ index: 0, message: { role: 'assistant', content: `${answer.answer ?? ''}${referencesText(answer.documents)}` }, finish_reason: 'stop' }],
	}
}

/**
 * Each event carries the next piece of `content`; the one with `finish: true` also lists the
 * documents, which become a last piece of text. The library reports no token usage, so the relay
 * counts the tokens itself.
 */
export function libraryStreamToOpenAI(reader: BodyReader, model: string): EventReader {
	const events = readSseEvents(reader)
	const id = `chatcmpl-library-${crypto.randomUUID()}`
	const created = nowSeconds()
	let started = false
	let ended = false
	const piece = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
		id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }],
	})
	const text = (content: string) => {
		const delta = started ? { content } : { role: 'assistant', content }
		started = true
		return piece(delta)
	}
	return openAIChunkStream(async () => {
		if (ended) return undefined
		const event = await events.next()
		if (!event) return undefined
		if (!event.data || event.data === '[DONE]') return []
		const data = JSON.parse(event.data) as LibraryStreamEvent & LibraryAnswer
		if (data.success === false) throw new RelayError(502, `AI Proxy Library error ${data.errCode ?? ''}: ${data.message ?? ''}`, 'upstream_error', 'upstream_error')
		const chunks: unknown[] = data.content ? [text(data.content)] : []
		if (data.finish) {
			ended = true
			const references = referencesText(data.documents)
			if (references) chunks.push(text(references))
			chunks.push(piece({}, 'stop'))
		}
		return chunks
	}, (reason) => events.cancel(reason))
}
