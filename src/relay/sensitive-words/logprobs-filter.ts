/**
 * Sensitive words in `logprobs` (see ./answer-filter.ts): the tokens of an answer, each with the
 * alternatives the model weighed at its place (`top_logprobs`), as OpenAI's chat form
 * (`logprobs.content` / `logprobs.refusal`: `{ token, logprob, bytes, top_logprobs }`) and the legacy
 * completions form (`tokens`, `token_logprobs`, `top_logprobs` as `{ token: logprob }`, `text_offset`).
 *
 * What is checked:
 * - The chosen tokens, read as one text: a word split across tokens (or chunks) is found. A token's
 *   text is its `bytes` decoded as UTF-8 across tokens when it has them (a character may be split
 *   across byte tokens, whose `token` strings do not show it), else its `token`.
 * - Each alternative where it stands: the chosen text before it, the alternative, and the chosen
 *   text after it. A word that any part of the alternative belongs to is found.
 *
 * Masking (the answer is not to stop): a chosen token the word overlaps has that part removed, and
 * the first such token carries the mask; an alternative that a word overlaps becomes the mask. A
 * changed token's `bytes` become its new text's UTF-8. A token is released only once no word can
 * still reach into it or its alternatives (the automaton says how far back a word may still begin),
 * so a stream's tokens may move to a later chunk. Stopping: no token from the one the word (or the
 * alternative) touches on is released.
 */
import type { WordMatcher } from '@/lib/word-matcher'
import { isObject } from '../formats/json'
import { SENSITIVE_MASK, type AnswerPolicy } from './words'

type Json = Record<string, unknown>
type Span = [start: number, end: number]

const utf8 = new TextEncoder()
const utf8Bytes = (text: string) => Array.from(utf8.encode(text))

/** One token in the chat form: `{ token, logprob, bytes, top_logprobs: [{ token, logprob, bytes }] }`. */
type TokenEntry = Json & { token?: unknown; bytes?: unknown; top_logprobs?: unknown }

const isByteList = (value: unknown): value is number[] => Array.isArray(value) && value.every((byte) => typeof byte === 'number' && byte >= 0 && byte <= 255)

const ASCII_LIMIT = 0x80
const isAscii = (bytes: readonly number[]) => bytes.every((byte) => byte < ASCII_LIMIT)
const asciiText = (bytes: readonly number[]) => String.fromCharCode(...bytes)
/** Decodes whole byte strings (an alternative's); a sequence's own decoder keeps the state between its tokens. */
const wholeDecoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** An alternative's text: its bytes decoded (a partial character is dropped), else its token. */
function alternativeText(alternative: unknown): string {
	if (!isObject(alternative)) return ''
	const { bytes } = alternative
	if (isByteList(bytes)) return isAscii(bytes) ? asciiText(bytes) : wholeDecoder.decode(Uint8Array.from(bytes)).replace(/\uFFFD+$/, '')
	return typeof alternative.token === 'string' ? alternative.token : ''
}

/** An alternative whose surroundings are still being read: the automaton after it, and how much chosen text followed. */
interface OpenCheck {
	state: number
	after: number
}

interface HeldToken {
	entry: TokenEntry
	/** The text it added: its token, or the characters its bytes completed. */
	text: string
	/** Where its text lies in the chosen text read so far. */
	start: number
	end: number
	/** Its bytes end inside a character completed by a later token. */
	partialTail: boolean
	/** Alternatives found to be part of a word, by position in `top_logprobs` (made when the first is). */
	hits?: Set<number>
	/** Alternatives not yet settled, by position (made when the first is). */
	open?: Map<number, OpenCheck>
	/** Alternatives identical to the chosen token: they are rewritten as it is. */
	same?: Set<number>
}

const hit = (token: HeldToken, position: number) => (token.hits ??= new Set()).add(position)
const hasHits = (token: HeldToken) => token.hits !== undefined && token.hits.size > 0
const isOpen = (token: HeldToken) => token.open !== undefined && token.open.size > 0

/** The spans sorted and merged where they overlap: one mask stands for words that run into each other. */
function merged(spans: readonly Span[]): Span[] {
	const sorted = [...spans].sort((left, right) => left[0] - right[0])
	const result: Span[] = []
	for (const [start, end] of sorted) {
		const last = result.at(-1)
		if (last && start < last[1]) last[1] = Math.max(last[1], end)
		else result.push([start, end])
	}
	return result
}

/** One sequence of tokens (a choice's `logprobs.content`, say), in the chat form. */
export class TokenSequenceFilter {
	private state = 0
	private total = 0
	private held: HeldToken[] = []
	/** The held tokens some of whose alternatives are still being read on (a few: a word's length at most). */
	private checking: HeldToken[] = []
	private spans: Span[] = []
	private decoder = new TextDecoder('utf-8', { ignoreBOM: true })
	/** The decoder holds the first bytes of a character the next token completes. */
	private partial = false
	stopped = false

	constructor(private readonly policy: AnswerPolicy, private readonly found: Set<string>) {}

	private get matcher(): WordMatcher {
		return this.policy.matcher
	}

	/** The tokens to send now of those given (possibly fewer, possibly held ones before them); none once stopped. */
	push(entries: readonly unknown[]): TokenEntry[] {
		if (this.stopped) return []
		for (const entry of entries) if (isObject(entry)) this.read(entry)
		return this.release(false)
	}

	/** Every token still held, at the end of the sequence; the automaton starts afresh after it. */
	flush(): TokenEntry[] {
		if (this.stopped) return []
		for (const token of this.checking) token.open = undefined
		this.checking = []
		const released = this.release(true)
		this.state = 0
		this.total = 0
		this.spans = []
		this.decoder = new TextDecoder('utf-8', { ignoreBOM: true })
		this.partial = false
		return released
	}

	get holding() {
		return this.held.length > 0
	}

	private read(entry: TokenEntry) {
		const { matcher } = this
		const bytes = isByteList(entry.bytes) ? entry.bytes : undefined
		const text = !bytes ? (typeof entry.token === 'string' ? entry.token : '')
			: !this.partial && isAscii(bytes) ? asciiText(bytes)
			: this.decoder.decode(Uint8Array.from(bytes), { stream: true })
		const start = this.total
		const before = this.state
		this.state = matcher.scan(text, this.state, (end, word) => {
			this.spans.push([start + end - matcher.lengthOf(word), start + end])
			this.found.add(matcher.words[word]!)
		})
		this.total += text.length
		// Alternatives of earlier tokens read on into this text.
		for (const token of this.checking) {
			for (const [position, check] of token.open ?? []) {
				let found = false
				check.state = matcher.scan(text, check.state, (end, word) => {
					if (check.after + end - matcher.lengthOf(word) < 0) {
						found = true
						this.found.add(matcher.words[word]!)
					}
				})
				check.after += text.length
				if (found) hit(token, position)
				if (found || matcher.pending(check.state) <= check.after) token.open!.delete(position)
			}
		}
		if (this.checking.some((token) => !isOpen(token))) this.checking = this.checking.filter(isOpen)
		this.partial = bytes !== undefined && (this.partial && text === '' ? true : this.decoderHoldsBytes(bytes))
		const held: HeldToken = { entry, text, start, end: this.total, partialTail: this.partial }
		const alternatives = Array.isArray(entry.top_logprobs) ? entry.top_logprobs : []
		alternatives.forEach((alternative, position) => {
			const alternativeValue = alternativeText(alternative)
			if (alternativeValue === text && (!isObject(alternative) || alternative.token === entry.token)) {
				(held.same ??= new Set()).add(position)
				return
			}
			let found = false
			const state = matcher.scan(alternativeValue, before, (_end, word) => {
				found = true
				this.found.add(matcher.words[word]!)
			})
			if (found) hit(held, position)
			else if (alternativeValue && matcher.pending(state) > 0) (held.open ??= new Map()).set(position, { state, after: 0 })
		})
		this.held.push(held)
		if (isOpen(held)) this.checking.push(held)
	}

	/** Whether the decoder kept the last bytes of this token for a character still to complete. */
	private decoderHoldsBytes(bytes: number[]): boolean {
		// A UTF-8 sequence's lead byte says its length; look back over at most three bytes.
		for (let back = 1; back <= Math.min(3, bytes.length); back++) {
			const byte = bytes[bytes.length - back]!
			if ((byte & 0xc0) === 0x80) continue
			const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
			return length > back
		}
		return false
	}

	private release(all: boolean): TokenEntry[] {
		const { policy, matcher } = this
		if (policy.stop) {
			const firstHit = this.held.find(hasHits)
			const firstSpan = this.spans.reduce((first, [start]) => Math.min(first, start), Number.POSITIVE_INFINITY)
			const stopAt = Math.min(firstSpan, firstHit ? firstHit.start : Number.POSITIVE_INFINITY)
			if (stopAt !== Number.POSITIVE_INFINITY) {
				this.stopped = true
				const released = this.held.filter((token) => token.end + (token.partialTail ? 1 : 0) <= stopAt && !hasHits(token)).map((token) => token.entry)
				this.held = []
				return released
			}
		}
		let boundary = all ? Number.POSITIVE_INFINITY : this.total - matcher.pending(this.state)
		for (let moved = !all; moved;) {
			moved = false
			for (const [start, end] of this.spans) {
				if (start < boundary && end > boundary) {
					boundary = start
					moved = true
				}
			}
		}
		let count = 0
		while (count < this.held.length) {
			const token = this.held[count]!
			if (token.end + (token.partialTail ? 1 : 0) > boundary || isOpen(token)) break
			count++
		}
		if (count === 0) return []
		const words = merged(this.spans)
		let next = 0
		const released = this.held.slice(0, count).map((token) => {
			while (next < words.length && words[next]![1] <= token.start) next++
			return this.rewritten(token, words, next)
		})
		this.held = this.held.slice(count)
		const kept = this.held[0]?.start ?? this.total
		this.spans = this.spans.filter(([, end]) => end > kept)
		return released
	}

	/** The token as the client gets it: words masked in it and in its alternatives. `words` are sorted and disjoint, the first from `from` on may overlap it. */
	private rewritten(token: HeldToken, words: readonly Span[], from: number): TokenEntry {
		const touches = token.end + (token.partialTail ? 1 : 0)
		const overlapping: Span[] = []
		for (let index = from; index < words.length && words[index]![0] < touches; index++) overlapping.push(words[index]!)
		if (overlapping.length === 0 && !hasHits(token)) return token.entry
		const entry: TokenEntry = { ...token.entry }
		let chosen: { token: string; bytes: unknown } | undefined
		if (overlapping.length > 0) {
			const { text } = token
			let result = ''
			let at = token.start
			for (const [start, end] of overlapping) {
				if (start > at) result += text.slice(at - token.start, start - token.start)
				if (start >= token.start && start < token.end) result += SENSITIVE_MASK
				at = Math.max(at, end)
			}
			if (at < token.end) result += text.slice(at - token.start)
			chosen = { token: result, bytes: isByteList(token.entry.bytes) ? utf8Bytes(result) : token.entry.bytes }
			entry.token = chosen.token
			entry.bytes = chosen.bytes
		}
		if (Array.isArray(token.entry.top_logprobs)) {
			entry.top_logprobs = token.entry.top_logprobs.map((alternative, position) => {
				if (!isObject(alternative)) return alternative
				if (token.same?.has(position)) return chosen ? { ...alternative, ...chosen } : alternative
				if (!token.hits?.has(position)) return alternative
				return { ...alternative, token: SENSITIVE_MASK, bytes: isByteList(alternative.bytes) ? utf8Bytes(SENSITIVE_MASK) : alternative.bytes }
			})
		}
		return entry
	}
}

/**
 * The legacy completions form (`{ tokens, token_logprobs, top_logprobs, text_offset }`, parallel
 * lists) as chat-form entries, and back.
 */
export const legacyTokens = {
	read(logprobs: Json): TokenEntry[] {
		const tokens = Array.isArray(logprobs.tokens) ? logprobs.tokens : []
		const logprobList = Array.isArray(logprobs.token_logprobs) ? logprobs.token_logprobs : []
		const topList = Array.isArray(logprobs.top_logprobs) ? logprobs.top_logprobs : []
		const offsets = Array.isArray(logprobs.text_offset) ? logprobs.text_offset : []
		return tokens.map((token, index) => {
			const top = topList[index]
			return {
				token,
				logprob: logprobList[index] ?? null,
				top_logprobs: isObject(top) ? Object.entries(top).map(([alternative, logprob]) => ({ token: alternative, logprob })) : null,
				text_offset: offsets[index] ?? null,
			}
		})
	},
	write(entries: TokenEntry[]): Json {
		return {
			tokens: entries.map((entry) => entry.token),
			token_logprobs: entries.map((entry) => entry.logprob),
			top_logprobs: entries.map((entry) => Array.isArray(entry.top_logprobs)
				? Object.fromEntries(entry.top_logprobs.filter(isObject).map((alternative) => [String(alternative.token), alternative.logprob]))
				: null),
			text_offset: entries.map((entry) => entry.text_offset),
		}
	},
}
