/**
 * Checking answers for sensitive words (see ./words.ts), on OpenAI-format answers — every
 * client format's answer is made from one when answers are checked, so this covers all of them. Every
 * text the client receives is checked: each choice's `content` (a string, or its parts' text),
 * `reasoning_content` and `reasoning`, `refusal`, the audio transcript, each tool call's (and the
 * legacy `function_call`'s) arguments, a completion's `text`, the thinking text of Claude's thinking
 * blocks (`claude_thinking`, which Claude-format clients receive; a masked block no longer matches
 * its signature), and `logprobs` — the chosen tokens (their `bytes` too) and their alternatives, in
 * the chat and the legacy completions form (./logprobs-filter.ts). Tool names are the client's own
 * and are not checked. Arguments are checked as the JSON text they are (a word written with `\u`
 * escapes is not seen).
 *
 * A whole answer is checked at once; a stream a text at a time, each text across chunk boundaries
 * (texts are not joined to one another). A stream holds back the end of each text that could still
 * begin a word (the automaton knows how much), so no part of a listed word ever reaches the client:
 * the stream stops before it, or the whole word is masked.
 */
import type { WordMatcher } from '@/lib/word-matcher'
import { isObject } from '../formats/json'
import { THINKING_BLOCKS_FIELD } from '../formats/claude/thinking'
import { legacyTokens, TokenSequenceFilter } from './logprobs-filter'
import { SENSITIVE_MASK, type AnswerPolicy } from './words'

type Json = Record<string, unknown>
type Span = [start: number, end: number]

/** Replaces each span (merged where they overlap) with the mask. */
function masked(text: string, spans: Span[]): string {
	if (spans.length === 0) return text
	const sorted = [...spans].sort((left, right) => left[0] - right[0])
	let result = ''
	let sent = 0
	let index = 0
	while (index < sorted.length) {
		const [start, first] = sorted[index++]!
		let end = first
		while (index < sorted.length && sorted[index]![0] < end) end = Math.max(end, sorted[index++]![1])
		result += text.slice(sent, start) + SENSITIVE_MASK
		sent = end
	}
	return result + text.slice(sent)
}

/** The spans of every listed word in a text, recording which words were found. */
function spansIn(matcher: WordMatcher, text: string, found: Set<string>): Span[] {
	const spans: Span[] = []
	matcher.scan(text, 0, (end, word) => {
		spans.push([end - matcher.lengthOf(word), end])
		found.add(matcher.words[word]!)
	})
	return spans
}

/** The message fields that carry generated text directly. */
const MESSAGE_TEXT_FIELDS = ['reasoning_content', 'reasoning', 'content', 'refusal'] as const

/** The string fields of a whole answer that carry generated text, with their holders. */
function* answerFields(answer: Json): Generator<[holder: Json, field: string]> {
	for (const choice of Array.isArray(answer.choices) ? answer.choices : []) {
		if (!isObject(choice)) continue
		if (typeof choice.text === 'string') yield [choice, 'text']
		const message = choice.message
		if (!isObject(message)) continue
		for (const field of MESSAGE_TEXT_FIELDS) if (typeof message[field] === 'string') yield [message, field]
		if (Array.isArray(message.content)) {
			for (const part of message.content) {
				if (!isObject(part)) continue
				for (const field of ['text', 'refusal']) if (typeof part[field] === 'string') yield [part, field]
			}
		}
		if (isObject(message.audio) && typeof message.audio.transcript === 'string') yield [message.audio, 'transcript']
		if (isObject(message.function_call) && typeof message.function_call.arguments === 'string') yield [message.function_call, 'arguments']
		for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
			if (isObject(call) && isObject(call.function) && typeof call.function.arguments === 'string') yield [call.function, 'arguments']
		}
		for (const block of Array.isArray(message[THINKING_BLOCKS_FIELD]) ? message[THINKING_BLOCKS_FIELD] as unknown[] : []) {
			if (isObject(block) && typeof block.thinking === 'string') yield [block, 'thinking']
		}
	}
}

/** A choice's token sequences: where they are read from, and how the checked tokens are written back. */
interface Sequence {
	key: string
	read(choice: Json): unknown[] | undefined
	write(choice: Json, entries: Json[]): void
}

const chatLogprobs = (field: 'content' | 'refusal'): Sequence => ({
	key: `logprobs.${field}`,
	read: (choice) => (isObject(choice.logprobs) && Array.isArray(choice.logprobs[field]) ? choice.logprobs[field] as unknown[] : undefined),
	write(choice, entries) {
		choice.logprobs = { ...(isObject(choice.logprobs) ? choice.logprobs : { content: null, refusal: null }), [field]: entries }
	},
})

const LEGACY_LOGPROBS: Sequence = {
	key: 'logprobs.tokens',
	read: (choice) => (isObject(choice.logprobs) && Array.isArray(choice.logprobs.tokens) ? legacyTokens.read(choice.logprobs) : undefined),
	write(choice, entries) {
		choice.logprobs = legacyTokens.write(entries)
	},
}

const SEQUENCES: readonly Sequence[] = [chatLogprobs('content'), chatLogprobs('refusal'), LEGACY_LOGPROBS]

/** Checks the token sequences of a whole answer's choices; with `rewrite`, masks them in place. */
function checkWholeLogprobs(policy: AnswerPolicy, answer: Json, found: Set<string>, rewrite: boolean) {
	// Masking finds every word; whether to keep the result is the caller's.
	const masking: AnswerPolicy = { matcher: policy.matcher, stop: false }
	for (const choice of Array.isArray(answer.choices) ? answer.choices : []) {
		if (!isObject(choice)) continue
		for (const sequence of SEQUENCES) {
			const entries = sequence.read(choice)
			if (!entries) continue
			const filter = new TokenSequenceFilter(masking, found)
			const checked = [...filter.push(entries), ...filter.flush()]
			if (rewrite && checked.some((entry, index) => entry !== entries[index])) sequence.write(choice, checked)
		}
	}
}

/**
 * Checks a whole OpenAI-format answer and answers the words found. Without `stop`, each word is
 * masked in place (the caller sends the changed answer); with it, the caller refuses the answer.
 */
export function checkWholeAnswer(policy: AnswerPolicy, answer: Json): string[] {
	const found = new Set<string>()
	for (const [holder, field] of answerFields(answer)) {
		const text = holder[field] as string
		const spans = spansIn(policy.matcher, text, found)
		if (spans.length > 0 && !policy.stop) holder[field] = masked(text, spans)
	}
	checkWholeLogprobs(policy, answer, found, !policy.stop)
	return [...found]
}

/** One stream of text (a choice's `content`, say): what to send now of each piece. */
export class TextFilter {
	private state = 0
	private held = ''
	/** Words found in the held text, as spans of it, masked when it is sent. */
	private heldSpans: Span[] = []
	stopped = false

	constructor(private readonly policy: AnswerPolicy, private readonly found: Set<string>) {}

	/** What to send of `piece` now (possibly less, possibly held text before it); '' once stopped. */
	push(piece: string): string {
		if (this.stopped) return ''
		const { matcher } = this.policy
		const text = this.held + piece
		const spans = [...this.heldSpans]
		let firstStart = text.length
		this.state = matcher.scan(text, this.state, (end, word) => {
			const start = end - matcher.lengthOf(word)
			spans.push([start, end])
			firstStart = Math.min(firstStart, start)
			this.found.add(matcher.words[word]!)
		}, this.held.length)
		if (this.policy.stop && spans.length > 0) {
			this.stopped = true
			this.held = ''
			return text.slice(0, firstStart)
		}
		// Hold back what may begin a word, and any word found that reaches into it (masked whole later).
		let boundary = text.length - matcher.pending(this.state)
		for (let moved = true; moved;) {
			moved = false
			for (const [start, end] of spans) {
				if (start < boundary && end > boundary) {
					boundary = start
					moved = true
				}
			}
		}
		this.held = text.slice(boundary)
		this.heldSpans = spans.filter(([start]) => start >= boundary).map(([start, end]) => [start - boundary, end - boundary])
		return masked(text.slice(0, boundary), spans.filter(([, end]) => end <= boundary))
	}

	/** The held text, masked, at the end of the stream; the automaton starts afresh after it. */
	flush(): string {
		const rest = masked(this.held, this.heldSpans)
		this.held = ''
		this.heldSpans = []
		this.state = 0
		return rest
	}

	get holding() {
		return this.held.length > 0
	}
}

/** A place in a chunk's choice where streamed text arrives: read it, or write it (making the place when it is missing). */
interface Slot {
	key: string
	read(choice: Json): unknown
	write(choice: Json, text: string): void
}

const deltaOf = (choice: Json): Json => {
	if (!isObject(choice.delta)) choice.delta = {}
	return choice.delta as Json
}

/** A text field of the delta, or of an object on the delta (`audio.transcript`, `function_call.arguments`). */
function deltaSlot(field: string, inside?: string): Slot {
	return {
		key: inside ? `delta.${inside}.${field}` : `delta.${field}`,
		read(choice) {
			if (!isObject(choice.delta)) return undefined
			const holder = inside ? choice.delta[inside] : choice.delta
			return isObject(holder) ? holder[field] : undefined
		},
		write(choice, text) {
			const delta = deltaOf(choice)
			if (!inside) {
				delta[field] = text
				return
			}
			delta[inside] = { ...(isObject(delta[inside]) ? delta[inside] : {}), [field]: text }
		},
	}
}

/** The arguments of the tool call with this `index` (a chat chunk's `delta.tool_calls`). */
function toolCallSlot(index: number): Slot {
	const callIn = (choice: Json): Json | undefined => {
		const calls = isObject(choice.delta) && Array.isArray(choice.delta.tool_calls) ? choice.delta.tool_calls : []
		return calls.find((call, position): call is Json => isObject(call) && (typeof call.index === 'number' ? call.index : position) === index)
	}
	return {
		key: `delta.tool_calls.${index}`,
		read: (choice) => {
			const call = callIn(choice)
			return call && isObject(call.function) ? call.function.arguments : undefined
		},
		write(choice, text) {
			let call = callIn(choice)
			if (!call) {
				const delta = deltaOf(choice)
				if (!Array.isArray(delta.tool_calls)) delta.tool_calls = []
				call = { index }
				;(delta.tool_calls as Json[]).push(call)
			}
			call.function = { ...(isObject(call.function) ? call.function : {}), arguments: text }
		},
	}
}

const TEXT_SLOT: Slot = {
	key: 'text',
	read: (choice) => choice.text,
	write(choice, text) {
		choice.text = text
	},
}

/** The delta's direct text fields, in the order a model produces them. */
const DELTA_SLOTS = ['reasoning_content', 'reasoning', 'content', 'refusal'].map((field) => deltaSlot(field))
const AUDIO_SLOT = deltaSlot('transcript', 'audio')
const FUNCTION_CALL_SLOT = deltaSlot('arguments', 'function_call')

/** The slots a chunk's choice carries text in, in the order they are checked. */
function slotsIn(choice: Json): Slot[] {
	const slots: Slot[] = []
	if (isObject(choice.delta)) {
		slots.push(...DELTA_SLOTS, AUDIO_SLOT, FUNCTION_CALL_SLOT)
		const calls = Array.isArray(choice.delta.tool_calls) ? choice.delta.tool_calls : []
		calls.forEach((call, position) => {
			if (isObject(call)) slots.push(toolCallSlot(typeof call.index === 'number' ? call.index : position))
		})
	}
	if (typeof choice.text === 'string') slots.push(TEXT_SLOT)
	return slots
}

export interface StreamAnswerFilter {
	/** Rewrites one parsed chunk in place; `stopped` means the stream must end after it. */
	filter(chunk: Json): { changed: boolean; stopped: boolean }
	/** A last chunk with the text still held (when the upstream ended without a finish reason), if any. */
	finish(): Json | undefined
	/** The distinct words found so far. */
	words(): string[]
}

/** What a choice of the stream has going: a filter per text slot and per token sequence, by key. */
interface ChoiceFilters {
	texts: Map<string, { slot: Slot; filter: TextFilter }>
	sequences: Map<string, { sequence: Sequence; filter: TokenSequenceFilter }>
}

const sameEntries = (left: readonly unknown[], right: readonly unknown[]) => left.length === right.length && left.every((entry, index) => entry === right[index])

export function streamAnswerFilter(policy: AnswerPolicy): StreamAnswerFilter {
	const found = new Set<string>()
	const choices = new Map<number, ChoiceFilters>()
	let base: Json = {}

	const filtersOf = (index: number) => {
		let entry = choices.get(index)
		if (!entry) {
			entry = { texts: new Map(), sequences: new Map() }
			choices.set(index, entry)
		}
		return entry
	}

	return {
		filter(chunk) {
			base = { id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model }
			let changed = false
			let stopped = false
			const list = Array.isArray(chunk.choices) ? chunk.choices : []
			list.forEach((choice, position) => {
				if (!isObject(choice)) return
				const index = typeof choice.index === 'number' ? choice.index : position
				const finishing = choice.finish_reason !== null && choice.finish_reason !== undefined
				const filters = filtersOf(index)
				const slots = slotsIn(choice)
				// A finishing choice flushes every text it holds, in whatever slot.
				if (finishing) for (const { slot, filter } of filters.texts.values()) if (filter.holding && !slots.some((known) => known.key === slot.key)) slots.push(slot)
				for (const slot of slots) {
					const value = slot.read(choice)
					const existing = filters.texts.get(slot.key)
					if (typeof value !== 'string' && !(finishing && existing?.filter.holding)) continue
					// Nothing after the word that stopped the stream is sent, in any field or choice.
					if (stopped) {
						if (value !== '') {
							slot.write(choice, '')
							changed = true
						}
						continue
					}
					const filter = existing?.filter ?? new TextFilter(policy, found)
					if (!existing) filters.texts.set(slot.key, { slot, filter })
					let send = typeof value === 'string' ? filter.push(value) : ''
					if (filter.stopped) {
						stopped = true
						changed = true
						choice.finish_reason = 'content_filter'
					} else if (finishing) {
						send += filter.flush()
					}
					if (send !== value) {
						slot.write(choice, send)
						changed = true
					}
				}
				for (const sequence of SEQUENCES) {
					const entries = sequence.read(choice)
					const existing = filters.sequences.get(sequence.key)
					if (entries === undefined && !(finishing && existing?.filter.holding)) continue
					if (stopped) {
						if (entries && entries.length > 0) {
							sequence.write(choice, [])
							changed = true
						}
						continue
					}
					const filter = existing?.filter ?? new TokenSequenceFilter(policy, found)
					if (!existing) filters.sequences.set(sequence.key, { sequence, filter })
					const send = filter.push(entries ?? [])
					if (filter.stopped) {
						stopped = true
						changed = true
						choice.finish_reason = 'content_filter'
					} else if (finishing) {
						send.push(...filter.flush())
					}
					if (!entries || !sameEntries(send, entries)) {
						sequence.write(choice, send)
						changed = true
					}
				}
			})
			return { changed, stopped }
		},
		finish() {
			const last: Json[] = []
			for (const [index, { texts, sequences }] of choices) {
				const choice: Json = { index }
				let holding = false
				for (const { slot, filter } of texts.values()) {
					if (!filter.holding) continue
					holding = true
					slot.write(choice, filter.flush())
				}
				for (const { sequence, filter } of sequences.values()) {
					if (!filter.holding) continue
					holding = true
					sequence.write(choice, filter.flush())
				}
				if (holding) last.push({ ...choice, finish_reason: null })
			}
			return last.length > 0 ? { ...base, choices: last } : undefined
		},
		words: () => [...found],
	}
}
