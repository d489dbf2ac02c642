/**
 * Passes an upstream OpenAI-format SSE stream to the client while reading it: the usage chunk
 * (hidden when the client did not ask for it), the generated text (for local counting), the first
 * token's time. Pull-based, so a slow client slows the upstream read instead of filling memory.
 * A malformed event or a broken upstream ends the client's stream with an error event; the
 * outcome is always reported once, whatever ends the stream. With an answer filter (sensitive words),
 * the texts sent are the filter's while the texts counted are the upstream's, and a word that stops
 * the answer ends the stream there: a finish reason `content_filter`, the billed usage when the
 * client asked for it, and `[DONE]`.
 */
import type { Usage } from '@/billing/price'
import type { BodyReader } from '@/lib/outbound'
import { RelayError } from '../../errors'
import type { StreamAnswerFilter } from '../../pipeline/answer-filter'
import { dataOf, readSseBlocks } from '../sse'
import { choiceText, usageFrom } from './usage'

export type StreamEnd = 'completed' | 'client_closed' | 'upstream_failed' | 'malformed' | 'sensitive_words'

export interface StreamTap {
	/** Whether the client asked for `stream_options.include_usage`. */
	includeUsage: boolean
	onFirstContent(): void
	/**
	 * Called once when the stream ends, however it ends; the client sees the end of the stream only
	 * after it finished (so the bill is settled before the call is done). Answers the usage billed,
	 * which a stream stopped at a sensitive word reports to the client.
	 */
	onEnd(result: StreamResult): Promise<Usage | void> | Usage | void
	/** Checks the generated text for sensitive words, when answers are checked. */
	answerFilter?: StreamAnswerFilter
}

interface StreamResult {
	end: StreamEnd
	usage: Usage | undefined
	/** All the text the upstream generated, whatever the client was sent of it. */
	text: string
	delivered: boolean
	/** The sensitive words found in the answer (masked, or where it stopped). */
	sensitiveWords: string[]
}

const encoder = new TextEncoder()
const DONE_EVENT = 'data: [DONE]\n\n'
const dataEvent = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`

function errorEvent(message: string, code: string) {
	return encoder.encode(`data: ${JSON.stringify({ error: { message, type: 'upstream_error', param: null, code } })}\n\n`)
}

export function tapOpenAIStream(body: BodyReader, tap: StreamTap): ReadableStream<Uint8Array> {
	const reader = readSseBlocks(body)
	let usage: Usage | undefined
	const texts: string[] = []
	let delivered = false
	let firstContent = true
	let ended = false
	let sawDone = false
	const filter = tap.answerFilter
	let stoppedAtWord = false
	/** The identifying fields of the last chunk, for the chunks the gateway adds. */
	let base: Record<string, unknown> = {}

	const finish = async (end: StreamEnd) => {
		if (ended) return undefined
		ended = true
		return await tap.onEnd({ end, usage, text: texts.join(''), delivered, sensitiveWords: filter?.words() ?? [] }) ?? undefined
	}

	/** Ends the client's stream after `output`, at a sensitive word: billed first, then usage and `[DONE]`. */
	const stopAtWord = async (controller: ReadableStreamDefaultController<Uint8Array>, output: string) => {
		delivered = true
		const billed = await finish('sensitive_words')
		if (tap.includeUsage && billed) {
			const { promptTokens, completionTokens } = billed
			output += dataEvent({ ...base, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } })
		}
		controller.enqueue(encoder.encode(output + DONE_EVENT))
		controller.close()
		void reader.cancel().catch(() => {})
	}

	/**
	 * The text to send for one upstream event, or undefined to drop it; throws on malformed JSON.
	 * Generated text goes to `batch` and counts only once the batch reached the client.
	 */
	const inspect = (event: string, batch: string[]): string | undefined => {
		const data = dataOf(event)
		if (!data) return event
		if (data === '[DONE]') {
			sawDone = true
			const held = filter?.finish()
			return held ? `${dataEvent(held)}${event}` : event
		}
		const chunk = JSON.parse(data) as { id?: unknown; object?: unknown; created?: unknown; model?: unknown; choices?: unknown[]; usage?: unknown }
		base = { id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model }
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
			if (filter) {
				const { changed, stopped } = filter.filter(chunk as Record<string, unknown>)
				stoppedAtWord = stopped
				if (changed) return `data: ${JSON.stringify(chunk)}`
			}
		}
		return event
	}

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				for (;;) {
					const { blocks, done } = await reader.read()
					let output = ''
					const batch: string[] = []
					for (const event of blocks) {
						if (!event.trim()) continue
						const kept = inspect(event, batch)
						if (kept !== undefined) output += `${kept}\n\n`
						if (stoppedAtWord) break
					}
					if (stoppedAtWord) {
						texts.push(...batch)
						return await stopAtWord(controller, output)
					}
					if (done) {
						texts.push(...batch)
						// An upstream that ended without a finish reason or [DONE]: the text still held goes last.
						const held = filter?.finish()
						if (held) output += dataEvent(held)
						if (output) controller.enqueue(encoder.encode(output))
						await finish('completed')
						controller.close()
						return
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
