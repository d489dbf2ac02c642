/**
 * The typed answer stream the relay passes from an upstream to a client format: each
 * upstream event is parsed once, here or by a converter, and travels as a value; a client format
 * writes the events it gets in its own wire format at the edge. Readers are pull-based — one
 * upstream read per `read()` — so memory stays bounded and a slow client slows the upstream.
 */
import type { BodyReader } from '@/lib/outbound'
import { RelayError } from '../errors'
import { dataOf, readSseBlocks } from './sse'

export type Json = Record<string, any>

/** The wire formats an answer can be in: OpenAI's (the canonical form) or a client format's own. */
export type WireFormat = 'openai' | 'claude' | 'gemini' | 'responses'

export type AnswerEvent =
	/**
	 * One JSON event. `raw` is the event block exactly as the upstream sent it (without the blank line
	 * that ended it), kept only while `data` is unchanged: a client of the same wire format gets these
	 * bytes, anyone else an encoding of `data`.
	 */
	| { type: 'data'; data: Json; raw?: string }
	/** OpenAI's `data: [DONE]`. */
	| { type: 'done' }
	/**
	 * A block passed on unread: one that carries no data (a comment, a keep-alive), or in a stream
	 * passed through (stages/stream-meter.ts) a data event billing did not need to read. Only a
	 * client of the same wire format gets it.
	 */
	| { type: 'other'; raw: string }
	/**
	 * The stream failed: the last event, written by each client format as its own error event. Only the
	 * relay's stream meter adds it; an upstream's own error events travel as `data`.
	 */
	| { type: 'failed'; error: RelayError }

/**
 * One data event of a stream read for pass-through (`readSseAnswerEvents(body, { deferParsing: true })`),
 * not parsed: `raw` is the block as the upstream sent it, `json` its data. Only the stream meter
 * (stages/stream-meter.ts) reads these: it parses the ones billing needs and passes the others on
 * unread, as `other` events, to a client of the same wire format.
 */
export type PassedEvent = { type: 'passed'; raw: string; json: string }

/** What an upstream stream's reader answers: events, and in a stream read for pass-through, passed events. */
export type ReadEvent = AnswerEvent | PassedEvent

interface EventBatch<Event> {
	/** The events one upstream read completed (possibly none). */
	events: Event[]
	/** The stream is over: no read after this one answers anything. */
	done: boolean
}

export interface EventReader<Event = AnswerEvent> {
	/** Rejects when the upstream fails: a SyntaxError for a malformed event, a RelayError for an error the upstream reported. */
	read(): Promise<EventBatch<Event>>
	cancel(reason?: unknown): Promise<void>
}

const DONE_DATA = '[DONE]'

/** An event's data as a JSON object; throws a SyntaxError when it is not one. */
export function parseEventData(data: string): Json {
	const parsed = JSON.parse(data) as unknown
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('a stream event must be a JSON object')
	return parsed as Json
}

/** One SSE block as an event; throws a SyntaxError when its data is not a JSON object. */
function sseBlockEvent(block: string, deferParsing: boolean): ReadEvent {
	const data = dataOf(block)
	if (!data) return { type: 'other', raw: block }
	if (data === DONE_DATA) return { type: 'done' }
	if (deferParsing) return { type: 'passed', raw: block, json: data }
	return { type: 'data', data: parseEventData(data), raw: block }
}

export interface SseAnswerOptions {
	/** Data events come unparsed, as `passed` events, for the stream meter to parse only those it needs. */
	deferParsing?: boolean
}

/**
 * The events of an SSE body whose data are JSON objects (OpenAI's, Claude's and Gemini's streams),
 * each parsed once and kept with its bytes (or, deferring, not parsed). Blank blocks are skipped.
 */
export function readSseAnswerEvents(body: BodyReader): EventReader
export function readSseAnswerEvents(body: BodyReader, options: SseAnswerOptions): EventReader<ReadEvent>
export function readSseAnswerEvents(body: BodyReader, { deferParsing = false }: SseAnswerOptions = {}): EventReader<ReadEvent> {
	const blocks = readSseBlocks(body)
	return {
		async read() {
			const { blocks: read, done } = await blocks.read()
			const events: ReadEvent[] = []
			for (const block of read) if (block.trim()) events.push(sseBlockEvent(block, deferParsing))
			return { events, done }
		},
		cancel: (reason) => blocks.cancel(reason),
	}
}

/** What a stream that broke off is reported as: a malformed event, an error the upstream reported, or a lost connection. */
export function streamFailure(error: unknown): RelayError {
	if (error instanceof SyntaxError) return new RelayError(502, 'the upstream sent a malformed stream event', 'upstream_error', 'upstream_malformed')
	if (error instanceof RelayError) return error
	return new RelayError(502, 'the upstream connection was lost', 'upstream_error', 'upstream_reset')
}

/** How a client format writes events: each event as text, and what closes the stream. */
export interface StreamEncoder {
	encode(event: AnswerEvent): string
	/** The text after the last event (called once, after a `failed` event too). */
	end(): string
}

const encoder = new TextEncoder()

/**
 * A client's byte stream from events: one read of `events` per pull, each batch written in one
 * chunk. A read that rejects ends the stream as a `failed` event would, never with a broken body.
 */
export function encodedStream(events: EventReader, format: StreamEncoder): ReadableStream<Uint8Array> {
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			for (;;) {
				let text = ''
				let done: boolean
				try {
					const batch = await events.read()
					for (const event of batch.events) text += format.encode(event)
					done = batch.done
				} catch (error) {
					void events.cancel(error).catch(() => {})
					text += format.encode({ type: 'failed', error: streamFailure(error) })
					done = true
				}
				if (done) text += format.end()
				if (text) controller.enqueue(encoder.encode(text))
				if (done) {
					controller.close()
					return
				}
				if (text) return
			}
		},
		cancel: (reason) => events.cancel(reason),
	})
}
