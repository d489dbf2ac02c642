/**
 * The key list of a multi-key channel as an admin pastes it (`POST /api/channel/` in `multi_key`
 * mode, `POST /api/channel/{id}/keys`) and as `ferry import new-api` reads it: one key per line,
 * or a JSON array whose elements are keys (strings) or JSON objects (Vertex AI service accounts,
 * which span lines). Zod-free and linear in the text's length.
 */
import { CHANNEL_KEY_MAX_BYTES, CHANNEL_KEYS_MAX } from './channel-constants'
import { CHANNEL_TYPE } from './channel-type'
import { type LocalizedMessage, type ServerMessage, withValues } from './messages'
import { CHANNEL_MESSAGES } from './messages/channels'

export interface ParsedKeyList {
	/** Distinct keys in the order given (JSON objects as compact JSON text). */
	keys: string[]
	/** How many repeated keys were left out. */
	duplicates: number
}

export type KeyListResult = { ok: true; list: ParsedKeyList } | { ok: false; problem: ServerMessage }

/**
 * Pieces past this many stop the reading at once: a body of millions of short lines is refused
 * without collecting them (repeats are allowed, within reason).
 */
const MAX_PIECES = CHANNEL_KEYS_MAX * 4

/** Where a key came from, for the messages: a line of the text or an element of the array (1-based). */
type Place = { line: number } | { element: number }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What Ferry's Vertex AI adaptor needs of a service-account key. */
const isServiceAccount = (value: unknown) =>
	isObject(value) && ['project_id', 'client_email', 'private_key'].every((field) => typeof value[field] === 'string' && value[field] !== '')

function parseObject(text: string): Record<string, unknown> | undefined {
	try {
		const parsed: unknown = JSON.parse(text)
		return isObject(parsed) ? parsed : undefined
	} catch {
		return undefined
	}
}

const encoder = new TextEncoder()
/** UTF-8 length above the limit; cheap for the usual ASCII key (at most 3 bytes per UTF-16 unit). */
const tooLong = (key: string) => key.length * 3 > CHANNEL_KEY_MAX_BYTES && encoder.encode(key).length > CHANNEL_KEY_MAX_BYTES

const placed = (place: Place, line: LocalizedMessage['text'], element: LocalizedMessage['text']): LocalizedMessage =>
	'line' in place ? { text: line, values: { line: place.line, max: CHANNEL_KEY_MAX_BYTES } } : { text: element, values: { element: place.element, max: CHANNEL_KEY_MAX_BYTES } }

const tooLongProblem = (place: Place) => placed(place, CHANNEL_MESSAGES.keyLineTooLong, CHANNEL_MESSAGES.keyElementTooLong)
const vertexProblem = (place: Place) => placed(place, CHANNEL_MESSAGES.vertexKeyLineInvalid, CHANNEL_MESSAGES.vertexKeyElementInvalid)
const tooMany = (count: number) => withValues(CHANNEL_MESSAGES.keysTooMany, { max: CHANNEL_KEYS_MAX, count })

/** Collects distinct keys; answers a problem to stop at. */
class Collector {
	readonly keys: string[] = []
	private readonly seen = new Set<string>()
	pieces = 0
	duplicates = 0

	add(key: string, place: Place): ServerMessage | undefined {
		this.pieces++
		if (this.pieces > MAX_PIECES) return tooMany(this.pieces)
		if (tooLong(key)) return tooLongProblem(place)
		if (this.seen.has(key)) {
			this.duplicates++
			return undefined
		}
		this.seen.add(key)
		this.keys.push(key)
		return this.keys.length > CHANNEL_KEYS_MAX ? tooMany(this.keys.length) : undefined
	}
}

function fromArray(text: string, vertex: boolean, collector: Collector): ServerMessage | undefined {
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		return CHANNEL_MESSAGES.keyArrayInvalid
	}
	if (!Array.isArray(parsed)) return CHANNEL_MESSAGES.keyArrayInvalid
	if (parsed.length > MAX_PIECES) return tooMany(parsed.length)
	for (let index = 0; index < parsed.length; index++) {
		const element: unknown = parsed[index]
		const place = { element: index + 1 }
		let key: string
		if (vertex) {
			const account = typeof element === 'string' ? parseObject(element) : element
			if (!isServiceAccount(account)) return vertexProblem(place)
			key = JSON.stringify(account)
		} else if (typeof element === 'string') {
			key = element.trim()
			if (!key) continue
		} else if (isObject(element)) {
			try {
				key = JSON.stringify(element)
			} catch {
				return withValues(CHANNEL_MESSAGES.keyElementInvalid, { element: index + 1 })
			}
		} else {
			return withValues(CHANNEL_MESSAGES.keyElementInvalid, { element: index + 1 })
		}
		const problem = collector.add(key, place)
		if (problem) return problem
	}
	return undefined
}

function fromLines(text: string, vertex: boolean, collector: Collector): ServerMessage | undefined {
	// A single service account pasted as it comes, over many lines.
	if (vertex && text.startsWith('{')) {
		const account = parseObject(text)
		if (account) return isServiceAccount(account) ? collector.add(JSON.stringify(account), { line: 1 }) : vertexProblem({ line: 1 })
	}
	let line = 0
	for (let start = 0; start <= text.length;) {
		const end = text.indexOf('\n', start)
		const stop = end < 0 ? text.length : end
		line++
		const piece = text.slice(start, stop).trim()
		start = stop + 1
		if (!piece) continue
		let key = piece
		if (vertex) {
			const account = parseObject(piece)
			if (!isServiceAccount(account)) return vertexProblem({ line })
			key = JSON.stringify(account)
		}
		const problem = collector.add(key, { line })
		if (problem) return problem
	}
	return undefined
}

/**
 * The keys of `text` for a channel of `type`: a JSON array when it starts with `[`, else one per
 * line. A Vertex AI channel's keys must be service-account JSON objects (an array of them, one per
 * line, or a single one over many lines). Repeats are dropped and counted; more than
 * CHANNEL_KEYS_MAX keys, a key over CHANNEL_KEY_MAX_BYTES or a malformed element is a problem
 * naming its line or element. No key at all is not a problem here: callers word that themselves.
 */
export function parseKeyList(text: string, type: number): KeyListResult {
	const trimmed = text.trim()
	const vertex = type === CHANNEL_TYPE.vertex
	const collector = new Collector()
	const problem = trimmed.startsWith('[') ? fromArray(trimmed, vertex, collector) : fromLines(trimmed, vertex, collector)
	return problem ? { ok: false, problem } : { ok: true, list: { keys: collector.keys, duplicates: collector.duplicates } }
}

/**
 * A masked tail of the key, safe to show: `…a1b2`. A service account shows the tail of its
 * `private_key_id` (the tail of its JSON would be punctuation); a short key shows less, a very
 * short one nothing.
 */
export function keyHint(key: string): string {
	const account = key.startsWith('{') ? parseObject(key) : undefined
	const shown = typeof account?.private_key_id === 'string' && account.private_key_id.length >= 16 ? account.private_key_id : key
	const tail = shown.length >= 16 ? 4 : shown.length >= 8 ? 2 : 0
	return `…${shown.slice(shown.length - tail)}`
}
