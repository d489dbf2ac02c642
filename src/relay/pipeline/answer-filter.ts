/**
 * Checking answers for sensitive words (see ./sensitive-words.ts), on OpenAI-format answers: a whole
 * answer is checked at once; a stream a text field at a time (each choice's `content`,
 * `reasoning_content`, or completion `text`), across chunk boundaries. A stream holds back the end of
 * each piece that could still begin a word (the automaton knows how much), so no part of a listed word
 * ever reaches the client: the stream stops before it, or the whole word is masked. Tool-call
 * arguments are not checked.
 */
import type { WordMatcher } from '@/lib/word-matcher'
import { isObject } from '../formats/json'
import { SENSITIVE_MASK, type AnswerPolicy } from './sensitive-words'

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

/** The string fields of a whole answer that carry generated text, with their holders. */
function* answerFields(answer: Json): Generator<[holder: Json, field: string]> {
	for (const choice of Array.isArray(answer.choices) ? answer.choices : []) {
		if (!isObject(choice)) continue
		if (typeof choice.text === 'string') yield [choice, 'text']
		const message = choice.message
		if (!isObject(message)) continue
		for (const field of ['reasoning_content', 'content']) if (typeof message[field] === 'string') yield [message, field]
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

/** The chunk fields that carry generated text: on the delta of a chat chunk, on the choice of a completion chunk. */
const DELTA_FIELDS = ['reasoning_content', 'content'] as const

export interface StreamAnswerFilter {
	/** Rewrites one parsed chunk in place; `stopped` means the stream must end after it. */
	filter(chunk: Json): { changed: boolean; stopped: boolean }
	/** A last chunk with the text still held (when the upstream ended without a finish reason), if any. */
	finish(): Json | undefined
	/** The distinct words found so far. */
	words(): string[]
}

export function streamAnswerFilter(policy: AnswerPolicy): StreamAnswerFilter {
	const found = new Set<string>()
	const filters = new Map<string, { choice: number; field: string; onDelta: boolean; filter: TextFilter }>()
	let base: Json = {}

	const filterFor = (choice: number, field: string, onDelta: boolean) => {
		const key = `${choice}:${field}`
		let entry = filters.get(key)
		if (!entry) {
			entry = { choice, field, onDelta, filter: new TextFilter(policy, found) }
			filters.set(key, entry)
		}
		return entry.filter
	}

	return {
		filter(chunk) {
			base = { id: chunk.id, object: chunk.object, created: chunk.created, model: chunk.model }
			let changed = false
			let stopped = false
			const choices = Array.isArray(chunk.choices) ? chunk.choices : []
			choices.forEach((choice, position) => {
				if (!isObject(choice)) return
				const index = typeof choice.index === 'number' ? choice.index : position
				const finishing = choice.finish_reason !== null && choice.finish_reason !== undefined
				const holders: [Json, string, boolean][] = isObject(choice.delta) ? DELTA_FIELDS.map((field) => [choice.delta as Json, field, true]) : []
				if (typeof choice.text === 'string' || (finishing && !isObject(choice.delta))) holders.push([choice, 'text', false])
				for (const [holder, field, onDelta] of holders) {
					const value = holder[field]
					const existing = filters.get(`${index}:${field}`)
					if (typeof value !== 'string' && !(finishing && existing?.filter.holding)) continue
					// Nothing after the word that stopped the stream is sent, in any field or choice.
					if (stopped) {
						holder[field] = ''
						changed = true
						continue
					}
					const filter = existing?.filter ?? filterFor(index, field, onDelta)
					let send = typeof value === 'string' ? filter.push(value) : ''
					if (filter.stopped) {
						stopped = true
						changed = true
						choice.finish_reason = 'content_filter'
					} else if (finishing) {
						send += filter.flush()
					}
					if (send !== value) {
						holder[field] = send
						changed = true
					}
				}
			})
			return { changed, stopped }
		},
		finish() {
			const choices: Json[] = []
			for (const { choice, field, onDelta, filter } of filters.values()) {
				if (!filter.holding) continue
				const text = filter.flush()
				choices.push(onDelta ? { index: choice, delta: { [field]: text }, finish_reason: null } : { index: choice, [field]: text, finish_reason: null })
			}
			return choices.length > 0 ? { ...base, choices } : undefined
		},
		words: () => [...found],
	}
}
