/**
 * The first-content timeout of a streamed answer: an upstream that answers 200 and then sends no
 * content — only keep-alive comments, a role-only chunk, empty deltas — would otherwise hold the
 * call until the idle timeout, with no way to move on once the client has seen the head. The send
 * stage (send.ts) therefore reads such a stream ahead of the client until its first content-bearing
 * event: one with generated text (a text, reasoning or tool-call delta, as the wire format's
 * inspector reads it), the end of the stream, an error event or one that cannot be read. The events
 * read so far are kept and handed on in order, so the client gets the same stream, only later; if
 * none came within the limit the stream is cancelled and the attempt fails like a first-byte timeout.
 *
 * While waiting, nothing is sent to the client, so a timeout can always move on. The events kept are
 * bounded (`MAX_KEPT_EVENTS`, `MAX_KEPT_CHARACTERS`): an upstream that sends more before any content
 * is handed on as it is, and its stream is then only subject to the idle timeout.
 */
import { parseEventData, type EventReader, type ReadEvent } from '../formats/events'
import type { StreamInspector } from '../formats/wire'

const MAX_KEPT_EVENTS = 1_000
const MAX_KEPT_CHARACTERS = 1024 * 1024

/** How long a channel's streamed answers may go without content: its setting, else the server's (0: no limit). */
export function firstContentLimitMs(setting: { first_token_timeout_seconds?: number }, serverMs: number): number {
	const seconds = setting.first_token_timeout_seconds
	return seconds === undefined ? serverMs : seconds * 1000
}

type Batch = Awaited<ReturnType<EventReader<ReadEvent>['read']>>

/** Whether an event decides that the stream is under way: it carries content, ends the stream, or cannot be read as empty. */
function bearsContent(event: ReadEvent, inspector: StreamInspector): boolean {
	if (event.type === 'other') return false
	if (event.type !== 'data' && event.type !== 'passed') return true
	try {
		const reading = inspector.inspect(event.type === 'data' ? event.data : parseEventData(event.json))
		return reading.text !== '' || reading.end !== undefined
	} catch {
		// Malformed: the stream meter reports it to the client as before.
		return true
	}
}

const eventSize = (event: ReadEvent) => event.type === 'other' || event.type === 'passed' ? event.raw.length : event.type === 'data' ? event.raw?.length ?? 0 : 0

/**
 * Reads `source` until its first content-bearing event, for at most `limitMs`. Answers a reader that
 * replays what was read and then continues with `source` — or undefined when no content came in
 * time, after cancelling `source`. A read that fails is replayed as that failure. `inspector` is a
 * fresh one of the answer's wire format, used for this look only.
 */
export async function awaitFirstContent(source: EventReader<ReadEvent>, inspector: StreamInspector, limitMs: number): Promise<EventReader<ReadEvent> | undefined> {
	const kept: Batch[] = []
	let failure: { error: unknown } | undefined
	let keptEvents = 0
	let keptCharacters = 0
	let timer: ReturnType<typeof setTimeout> | undefined
	const expired = new Promise<'expired'>((resolve) => {
		timer = setTimeout(() => resolve('expired'), limitMs)
	})
	try {
		for (;;) {
			const reading = source.read()
			const outcome = await Promise.race([reading, expired]).catch((error: unknown) => ({ error }))
			if (outcome === 'expired') {
				// The read in progress ends with the cancel; what it answers is no one's.
				reading.catch(() => {})
				await source.cancel().catch(() => {})
				return undefined
			}
			if ('error' in outcome) {
				failure = outcome
				break
			}
			kept.push(outcome)
			if (outcome.done || outcome.events.some((event) => bearsContent(event, inspector))) break
			keptEvents += outcome.events.length
			for (const event of outcome.events) keptCharacters += eventSize(event)
			if (keptEvents > MAX_KEPT_EVENTS || keptCharacters > MAX_KEPT_CHARACTERS) break
		}
	} finally {
		clearTimeout(timer)
	}
	return {
		async read() {
			const batch = kept.shift()
			if (batch) return batch
			if (failure) {
				const { error } = failure
				failure = undefined
				throw error
			}
			return await source.read()
		},
		cancel: (reason) => source.cancel(reason),
	}
}
