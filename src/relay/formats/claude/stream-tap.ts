/**
 * Passes an upstream Claude event stream to a Claude client as it came, while reading it: the usage
 * (`message_start`, then the cumulative totals of `message_delta`), the generated text (for local
 * counting) and the first token's time. Pull-based like the OpenAI tap; the bill is settled before
 * the client sees `message_stop`. The upstream's own `error` event reaches the client as it is and
 * ends the stream; a malformed event, or an upstream that ends before `message_stop` without saying
 * why, ends it with Claude's `error` event. The outcome is reported once, whatever ends the stream.
 */
import type { BodyReader } from '@/lib/outbound'
import type { StreamEnd, StreamTap } from '../openai/stream-tap'
import { dataOf, readSseBlocks } from '../sse'
import { claudeErrorBody } from './errors'
import { usageFromClaude } from './usage'

type Json = Record<string, any>

const encoder = new TextEncoder()
/** A stream that failed upstream ends with an error event typed as this status is (api_error). */
const UPSTREAM_ERROR_STATUS = 502

const errorEvent = (message: string) => encoder.encode(`event: error\ndata: ${JSON.stringify(claudeErrorBody(UPSTREAM_ERROR_STATUS, message))}\n\n`)

export function tapClaudeStream(body: BodyReader, tap: StreamTap): ReadableStream<Uint8Array> {
	const reader = readSseBlocks(body)
	const usage: Json = {}
	const texts: string[] = []
	let delivered = false
	let firstContent = true
	let ended = false
	let stopped = false
	let failedUpstream = false

	const finish = async (end: StreamEnd) => {
		if (ended) return
		ended = true
		await tap.onEnd({ end, usage: usageFromClaude(usage), text: texts.join(''), delivered, sensitiveWords: [] })
	}

	/** Reads one event (throws on malformed JSON); generated text goes to `batch`. */
	const inspect = (event: string, batch: string[]) => {
		const data = dataOf(event)
		if (!data) return
		const parsed = JSON.parse(data) as Json
		if (typeof parsed !== 'object' || parsed === null) throw new SyntaxError('a Claude stream event must be an object')
		let text = ''
		switch (parsed.type) {
			case 'message_start':
				Object.assign(usage, parsed.message?.usage)
				break
			case 'content_block_start': {
				const block = parsed.content_block ?? {}
				text = block.text ?? block.thinking ?? block.name ?? ''
				break
			}
			case 'content_block_delta': {
				const delta = parsed.delta ?? {}
				text = delta.text ?? delta.thinking ?? delta.partial_json ?? ''
				break
			}
			case 'message_delta':
				// Counts in message_delta are cumulative totals: they replace, never add.
				for (const [field, value] of Object.entries(parsed.usage ?? {})) if (value !== null && value !== undefined) usage[field] = value
				break
			case 'message_stop':
				stopped = true
				break
			case 'error':
				failedUpstream = true
				break
		}
		if (typeof text === 'string' && text) {
			batch.push(text)
			if (firstContent) {
				firstContent = false
				tap.onFirstContent()
			}
		}
	}

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				for (;;) {
					const { blocks: events, done } = await reader.read()
					let output = ''
					const batch: string[] = []
					for (const event of events) {
						if (!event.trim()) continue
						inspect(event, batch)
						output += `${event}\n\n`
					}
					if (stopped || failedUpstream || done) {
						// The bill is settled before the client sees the end of the message or the upstream's error.
						if (output) delivered = true
						texts.push(...batch)
						const cut = !stopped && !failedUpstream
						await finish(stopped ? 'completed' : 'upstream_failed')
						if (output) controller.enqueue(encoder.encode(output))
						if (cut) controller.enqueue(errorEvent('the upstream stream ended before message_stop'))
						controller.close()
						if (!done) void reader.cancel().catch(() => {})
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
				controller.enqueue(errorEvent(malformed ? 'the upstream sent a malformed stream event' : 'the upstream connection was lost'))
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
