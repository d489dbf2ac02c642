/**
 * How converters answer a stream: OpenAI chunks as typed events (events.ts), built from an
 * upstream's own stream one upstream read per pull. The chunks travel as values: the client format
 * that gets them encodes them once, whatever it is.
 */
import type { BodyReader } from '@/lib/outbound'
import type { EventReader, Json } from './events'
import { readSseEvents, type SseEvent, type SseReadOptions } from './sse'

/**
 * OpenAI chunks from a pull function: each call answers the chunks of one step (possibly none), or
 * undefined when the stream is over, after which a `done` event (OpenAI's `[DONE]`) closes it. A
 * throw from `pull` rejects the read (the relay then ends the client's stream with an error event):
 * throw a SyntaxError for a malformed upstream event, a RelayError for an error the upstream reported.
 */
export function openAIChunkStream(pull: () => Promise<unknown[] | undefined>, cancel: (reason?: unknown) => Promise<void>): EventReader {
	let finished = false
	return {
		async read() {
			for (;;) {
				if (finished) return { events: [], done: true }
				const chunks = await pull()
				if (chunks === undefined) {
					finished = true
					return { events: [{ type: 'done' }], done: true }
				}
				if (chunks.length === 0) continue
				return { events: chunks.map((chunk) => ({ type: 'data' as const, data: chunk as Json })), done: false }
			}
		},
		async cancel(reason) {
			finished = true
			await cancel(reason)
		},
	}
}

/** How an upstream's own events become OpenAI chunks, for eventChunkStream. */
export interface EventConversion {
	/** The chunks for one event (possibly none), or `'end'` when the event ends the stream. */
	chunks(event: SseEvent): unknown[] | 'end'
	/** The chunks after the last event (the usage, say). */
	end(): unknown[]
	/** The body ended without a single event: it was the upstream's plain answer (a refusal); throw what it says. */
	noEvents(answer: string): never
}

/**
 * OpenAI chunks from an upstream's event stream, for upstreams (Baidu, Tencent, Zhipu v3) that answer
 * a refused call with plain JSON where the events would be.
 */
export function eventChunkStream(source: BodyReader, conversion: EventConversion, options: SseReadOptions = {}): EventReader {
	const recorded = recordingHead(source)
	const events = readSseEvents(recorded.reader, options)
	let sawEvent = false
	let finished = false
	return openAIChunkStream(async () => {
		if (finished) return undefined
		const event = await events.next()
		if (!event) {
			finished = true
			if (!sawEvent) conversion.noEvents(recorded.head())
			return conversion.end()
		}
		sawEvent = true
		const chunks = conversion.chunks(event)
		if (chunks !== 'end') return chunks
		finished = true
		return conversion.end()
	}, (reason) => events.cancel(reason))
}

/** Enough of a body to read a JSON error answered instead of a stream. */
const HEAD_LIMIT = 64 * 1024

/**
 * Keeps the first bytes of a body while it is read as a stream: some upstreams (Baidu, Tencent)
 * answer a refused stream with plain JSON, which the converter then reads from `head()`.
 */
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
