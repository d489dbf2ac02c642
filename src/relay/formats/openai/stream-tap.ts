/**
 * Passes an upstream OpenAI-format SSE stream to the client while reading it: the usage chunk
 * (hidden when the client did not ask for it), the generated text (for local counting), the first
 * token's time. Pull-based, so a slow client slows the upstream read instead of filling memory.
 * A malformed event or a broken upstream ends the client's stream with an error event; the
 * outcome is always reported once, whatever ends the stream.
 */
import type { Usage } from '@/billing/price'
import type { BodyReader } from '@/lib/outbound'
import { RelayError } from '../../errors'
import { choiceText, usageFrom } from './usage'

export type StreamEnd = 'completed' | 'client_closed' | 'upstream_failed' | 'malformed'

export interface StreamTap {
	/** Whether the client asked for `stream_options.include_usage`. */
	includeUsage: boolean
	onFirstContent(): void
	/**
	 * Called once when the stream ends, however it ends; the client sees the end of the stream only
	 * after it finished (so the bill is settled before the call is done).
	 */
	onEnd(result: { end: StreamEnd; usage: Usage | undefined; text: string; delivered: boolean }): Promise<void> | void
}

const encoder = new TextEncoder()
const EVENT_SEPARATOR = /\r?\n\r?\n/

function errorEvent(message: string, code: string) {
	return encoder.encode(`data: ${JSON.stringify({ error: { message, type: 'upstream_error', param: null, code } })}\n\n`)
}

export function tapOpenAIStream(reader: BodyReader, tap: StreamTap): ReadableStream<Uint8Array> {
	const decoder = new TextDecoder()
	let pending = ''
	let usage: Usage | undefined
	const texts: string[] = []
	let delivered = false
	let firstContent = true
	let ended = false
	let sawDone = false

	const finish = async (end: StreamEnd) => {
		if (ended) return
		ended = true
		await tap.onEnd({ end, usage, text: texts.join(''), delivered })
	}

	/**
	 * The text to send for one upstream event, or undefined to drop it; throws on malformed JSON.
	 * Generated text goes to `batch` and counts only once the batch reached the client.
	 */
	const inspect = (event: string, batch: string[]): string | undefined => {
		let data = ''
		for (const line of event.split(/\r?\n/)) if (line.startsWith('data:')) data += line.slice(line[5] === ' ' ? 6 : 5)
		if (data === '[DONE]') sawDone = true
		if (!data || data === '[DONE]') return event
		const chunk = JSON.parse(data) as { choices?: unknown[]; usage?: unknown }
		const chunkUsage = chunk.usage ? usageFrom(chunk.usage) : undefined
		if (chunkUsage) usage = chunkUsage
		if (Array.isArray(chunk.choices)) {
			if (chunk.choices.length === 0 && chunkUsage && !tap.includeUsage) return undefined
			for (const choice of chunk.choices) {
				const text = choiceText(choice as Parameters<typeof choiceText>[0])
				if (text) {
					batch.push(text)
					if (firstContent) {
						firstContent = false
						tap.onFirstContent()
					}
				}
			}
		}
		return event
	}

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				for (;;) {
					const { done, value } = await reader.read()
					if (done) {
						const batch: string[] = []
						const last = pending.trim() ? inspect(pending, batch) : undefined
						if (last !== undefined) {
							controller.enqueue(encoder.encode(`${last}\n\n`))
							texts.push(...batch)
						}
						await finish('completed')
						controller.close()
						return
					}
					pending += decoder.decode(value, { stream: true })
					const events = pending.split(EVENT_SEPARATOR)
					pending = events.pop() ?? ''
					let output = ''
					const batch: string[] = []
					for (const event of events) {
						if (!event.trim()) continue
						const kept = inspect(event, batch)
						if (kept !== undefined) output += `${kept}\n\n`
					}
					if (sawDone) {
						// Clients stop reading at [DONE]: the bill is settled before they see it.
						if (output) delivered = true
						texts.push(...batch)
						await finish('completed')
						if (output) controller.enqueue(encoder.encode(output))
						controller.close()
						void reader.cancel().catch(() => {})
						return
					}
					if (output) {
						controller.enqueue(encoder.encode(output))
						texts.push(...batch)
						delivered = true
						return
					}
				}
			} catch (error) {
				const malformed = error instanceof SyntaxError
				controller.enqueue(malformed
					? errorEvent('the upstream sent a malformed stream event', 'upstream_malformed')
					: error instanceof RelayError
						? errorEvent(error.message, error.code ?? 'upstream_error')
						: errorEvent('the upstream connection was lost', 'upstream_reset'))
				void reader.cancel().catch(() => {})
				await finish(malformed ? 'malformed' : 'upstream_failed')
				controller.close()
			}
		},
		async cancel() {
			void reader.cancel().catch(() => {})
			await finish('client_closed')
		},
	})
}
