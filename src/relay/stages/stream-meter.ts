/**
 * Passes an answer stream's events to the client format while reading them (any wire format, see
 * formats/wire.ts): the usage, the generated text (for local counting), the first token's time; and,
 * on OpenAI-format events, the sensitive-word filter. Pull-based: one upstream read per read, so a
 * slow client slows the upstream instead of filling memory.
 *
 * The outcome is reported once, whatever ends the stream, and before the client sees the end: the
 * bill is settled before `[DONE]`, `message_stop`, the last Gemini event or an error event reaches it.
 * A malformed event, a broken upstream, or an upstream that ends a Claude stream before
 * `message_stop` ends the events with a `failed` event, which each client format writes as its own
 * error event. An upstream's own error event passes on as it came and ends the stream as failed.
 * A word that stops the answer ends it there: a finish reason `content_filter`, the billed usage when
 * the client asked for it, and `[DONE]`.
 *
 * Pass-through: when the client speaks the
 * upstream's wire format and no filter reads the answer, the upstream's data events may come unparsed
 * (`passed`, formats/events.ts). The meter then parses only what billing needs — events that may
 * carry usage (the wire's `needsReading`), and events up to the first generated text (its time) —
 * and passes the others on as the upstream's bytes (`other` events), after checking that each is
 * framed as a JSON object (a truncated event still ends the stream as malformed). Their data is kept
 * (at most UNREAD_LIMIT characters, beyond that it is read as it comes) and read only when the
 * generated text must be counted locally: no usage was reported, or the stream did not complete.
 * An unread event framed as an object but not valid JSON reaches the client as the upstream sent it
 * and counts for no text.
 */
import type { Usage } from '@/billing/price'
import { RelayError } from '../errors'
import { parseEventData, streamFailure, type AnswerEvent, type EventReader, type Json, type PassedEvent, type ReadEvent } from '../formats/events'
import type { StreamInspector } from '../formats/wire'
import type { StreamAnswerFilter } from '../sensitive-words/answer-filter'

export type StreamEnd = 'completed' | 'client_closed' | 'upstream_failed' | 'malformed' | 'sensitive_words'

export interface StreamResult {
	end: StreamEnd
	usage: Usage | undefined
	/** All the text the upstream generated, whatever the client was sent of it. */
	text: string
	/** Some event reached the client. */
	delivered: boolean
	/** The sensitive words found in the answer (masked, or where it stopped). */
	sensitiveWords: string[]
}

interface MeterHooks {
	/** Whether the client asked for OpenAI's `stream_options.include_usage` (the usage-only chunk is dropped otherwise). */
	includeUsage: boolean
	/** Checks OpenAI-format events for sensitive words, when answers are checked. */
	answerFilter?: StreamAnswerFilter
	onFirstContent(): void
	/** Called once when the stream ends, however it ends; answers the usage billed. */
	onEnd(result: StreamResult): Promise<Usage | void>
}

/** A Claude stream that ended before `message_stop`. */
const cutStream = (message: string) => new RelayError(502, message, 'upstream_error', 'upstream_cut')

/** The fields that identify an OpenAI chunk, for the usage chunk a stream stopped at a word ends with. */
const chunkBase = (chunk: Json) => ({ id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model })

/** How much unread event data a passed-through stream keeps for a local count before it reads it as it comes. */
const UNREAD_LIMIT = 64 * 1024

/** Data passed on unread must at least look like one JSON object: a cut-off event does not. */
function checkFraming(json: string) {
	const text = json.trim()
	if (!text.startsWith('{') || !text.endsWith('}')) throw new SyntaxError('a stream event must be a JSON object')
}

export function meterStream(source: EventReader<ReadEvent>, inspector: StreamInspector, hooks: MeterHooks): EventReader {
	const texts: string[] = []
	/** Data of events passed on unread, by the index in `texts` their text belongs at. */
	let unread = new Map<number, string>()
	let unreadLength = 0
	const filter = hooks.answerFilter
	let delivered = false
	let firstContent = true
	let ended = false
	let closed = false
	let base: Json = {}

	/** Reads the text of the events passed on unread into its place in `texts`. */
	const readUnread = () => {
		for (const [index, json] of unread) {
			// An event of a batch that failed before it was delivered counts for nothing, as a parsed one would.
			if (index >= texts.length) continue
			let data: Json
			try {
				data = parseEventData(json)
			} catch {
				continue
			}
			texts[index] = inspector.inspect(data).text
		}
		unread = new Map()
		unreadLength = 0
	}

	/** Passes an event on unread (kept for a local count), or answers it parsed when billing needs to read it. */
	const passOn = (event: PassedEvent, batchTexts: string[]): AnswerEvent => {
		if (firstContent || !inspector.needsReading || inspector.needsReading(event.json)) return { type: 'data', data: parseEventData(event.json), raw: event.raw }
		checkFraming(event.json)
		unread.set(texts.length + batchTexts.length, event.json)
		batchTexts.push('')
		unreadLength += event.json.length
		return { type: 'other', raw: event.raw }
	}

	const finish = async (end: StreamEnd) => {
		if (ended) return undefined
		ended = true
		const usage = inspector.usage()
		if (unread.size > 0 && (end !== 'completed' || !usage)) readUnread()
		return await hooks.onEnd({ end, usage, text: texts.join(''), delivered, sensitiveWords: filter?.words() ?? [] }) ?? undefined
	}

	/** The text still held by the filter, as a last chunk before the end. */
	const heldText = (events: AnswerEvent[]) => {
		const held = filter?.finish()
		if (held) events.push({ type: 'data', data: held })
	}

	/** The events after the one that stopped at a sensitive word: the billed usage when asked for, and `[DONE]`. */
	const afterWord = (billed: Usage | undefined): AnswerEvent[] => {
		const events: AnswerEvent[] = []
		if (hooks.includeUsage && billed) {
			const { promptTokens, completionTokens } = billed
			events.push({ type: 'data', data: { ...base, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } } })
		}
		events.push({ type: 'done' })
		return events
	}

	const close = (done: boolean) => {
		closed = true
		if (!done) void source.cancel().catch(() => {})
	}

	return {
		async read() {
			if (closed) return { events: [], done: true }
			try {
				for (;;) {
					const batch = await source.read()
					const output: AnswerEvent[] = []
					const batchTexts: string[] = []
					let end: 'completed' | 'failed' | 'sensitive_words' | 'cut' | undefined
					for (const read of batch.events) {
						const event = read.type === 'passed' ? passOn(read, batchTexts) : read
						if (event.type === 'done') {
							heldText(output)
							output.push(event)
							end = 'completed'
							break
						}
						if (event.type !== 'data') {
							output.push(event)
							continue
						}
						const reading = inspector.inspect(event.data)
						if (reading.text) {
							batchTexts.push(reading.text)
							if (firstContent) {
								firstContent = false
								hooks.onFirstContent()
							}
						}
						if (reading.usageOnly && !hooks.includeUsage) continue
						let kept: AnswerEvent = event
						if (filter) {
							base = chunkBase(event.data)
							const { changed, stopped } = filter.filter(event.data)
							if (changed) kept = { type: 'data', data: event.data }
							if (stopped) {
								output.push(kept)
								end = 'sensitive_words'
								break
							}
						}
						output.push(kept)
						if (reading.end) {
							end = reading.end
							break
						}
					}
					if (end === undefined && batch.done) {
						// An upstream that ended without its end event: OpenAI's and Gemini's streams may, Claude's may not.
						heldText(output)
						end = inspector.cutMessage ? 'cut' : 'completed'
					}
					if (end !== undefined) {
						if (output.length > 0) delivered = true
						texts.push(...batchTexts)
						close(batch.done)
						const billed = await finish(end === 'completed' ? 'completed' : end === 'sensitive_words' ? 'sensitive_words' : 'upstream_failed')
						if (end === 'sensitive_words') output.push(...afterWord(billed))
						if (end === 'cut') output.push({ type: 'failed', error: cutStream(inspector.cutMessage!) })
						return { events: output, done: true }
					}
					if (output.length > 0) {
						texts.push(...batchTexts)
						delivered = true
						if (unreadLength > UNREAD_LIMIT) readUnread()
						return { events: output, done: false }
					}
				}
			} catch (error) {
				close(false)
				await finish(error instanceof SyntaxError ? 'malformed' : 'upstream_failed')
				return { events: [{ type: 'failed', error: streamFailure(error) }], done: true }
			}
		},
		async cancel() {
			if (!closed) close(false)
			await finish('client_closed')
		},
	}
}
