/**
 * The sensitive-word options (seed 000 §3) at work in the relay. `SensitiveWords` (one word per line,
 * matched case-insensitively anywhere in the text, as new-api does) becomes one automaton, built
 * again only when the option's text changes. With `CheckSensitiveEnabled`:
 *
 * - `CheckSensitiveOnPromptEnabled`: a prompt containing a word is refused before anything is held
 *   or sent upstream, in every client format (all of them pass through the OpenAI-form pipeline).
 * - `CheckSensitiveOnCompletionEnabled`: answers are checked too. With `StopOnSensitiveEnabled` a
 *   whole answer is refused and a stream ends before the word; without it the word is replaced by
 *   `**###**`. Either way the call is billed for what the upstream produced (./answer-filter.ts).
 */
import type { OptionStore } from '@/db/stores/options'
import { compileWordMatcher, type WordMatcher } from '@/lib/word-matcher'
import { withValues } from '@shared/messages'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { wordedRelayError } from '../errors'
import { isObject } from '../formats/json'
import { isMediaEndpoint, mediaPromptTexts } from '../formats/media/requests'
import type { RelayEndpoint } from '../providers/types'

/** What a masked word becomes, as in new-api. */
export const SENSITIVE_MASK = '**###**'

/** A long prompt is scanned in slices of this many UTF-16 units, letting other requests run in between. */
const SCAN_SLICE_UNITS = 1 << 16
/** An error names at most this many of the words it found. */
const WORDS_NAMED = 10

export interface AnswerPolicy {
	matcher: WordMatcher
	/** Refuse or cut the answer at a word; otherwise mask it. */
	stop: boolean
}

export interface SensitiveWords {
	/** The automaton for prompts, when prompts are checked and a word is listed. */
	forPrompts(): WordMatcher | undefined
	/** How answers are checked, when they are and a word is listed. */
	forAnswers(): AnswerPolicy | undefined
}

export function createSensitiveWords(options: Pick<OptionStore, 'get'>): SensitiveWords {
	let text: string | undefined
	let matcher: WordMatcher | undefined
	const current = (): WordMatcher | undefined => {
		const listed = options.get('SensitiveWords')
		if (listed !== text) {
			text = listed
			const compiled = compileWordMatcher(listed.split('\n'))
			matcher = compiled.words.length > 0 ? compiled : undefined
		}
		return matcher
	}
	return {
		forPrompts: () => options.get('CheckSensitiveEnabled') && options.get('CheckSensitiveOnPromptEnabled') ? current() : undefined,
		forAnswers() {
			if (!options.get('CheckSensitiveEnabled') || !options.get('CheckSensitiveOnCompletionEnabled')) return undefined
			const found = current()
			return found && { matcher: found, stop: options.get('StopOnSensitiveEnabled') }
		},
	}
}

export function wordList(words: readonly string[]) {
	const named = words.slice(0, WORDS_NAMED).join(', ')
	return words.length > WORDS_NAMED ? `${named}, …` : named
}

export const sensitiveErrors = {
	prompt: (words: readonly string[]) => wordedRelayError(400, withValues(RELAY_MESSAGES.sensitivePrompt, { words: wordList(words) }), 'invalid_request_error', 'sensitive_words_detected'),
	answer: (words: readonly string[]) => wordedRelayError(400, withValues(RELAY_MESSAGES.sensitiveAnswer, { words: wordList(words) }), 'invalid_request_error', 'sensitive_words_detected'),
}

function pushText(texts: string[], value: unknown) {
	if (typeof value === 'string') texts.push(value)
}

/** Text of a message's content: a string, or the `text` of each part (images and audio are not read). */
function pushContent(texts: string[], content: unknown) {
	if (typeof content === 'string') texts.push(content)
	else if (Array.isArray(content)) for (const part of content) if (isObject(part)) pushText(texts, part.text)
}

/** The texts a checked request carries, for each endpoint (token-array prompts carry none). */
export function promptTexts(endpoint: RelayEndpoint, body: Record<string, unknown>): string[] {
	const texts: string[] = []
	if (endpoint === 'chat') {
		for (const message of Array.isArray(body.messages) ? body.messages : []) if (isObject(message)) pushContent(texts, message.content)
	} else if (isMediaEndpoint(endpoint)) {
		texts.push(...mediaPromptTexts(endpoint, body))
	} else if (endpoint === 'rerank') {
		pushText(texts, body.query)
		for (const document of Array.isArray(body.documents) ? body.documents : []) pushText(texts, isObject(document) ? document.text : document)
	} else {
		const input = endpoint === 'completions' ? body.prompt : body.input
		if (Array.isArray(input)) for (const item of input) pushText(texts, item)
		else pushText(texts, input)
	}
	return texts
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The listed words found in the texts. Linear in their length; a long text is scanned a slice at a
 * time (the automaton's state carries across), yielding to other requests between slices.
 */
export async function findWords(matcher: WordMatcher, texts: readonly string[]): Promise<string[]> {
	const found = new Set<number>()
	const record = (_end: number, word: number) => {
		found.add(word)
	}
	let sinceYield = 0
	for (const text of texts) {
		let state = 0
		for (let from = 0; from < text.length; from += SCAN_SLICE_UNITS) {
			const to = Math.min(text.length, from + SCAN_SLICE_UNITS)
			state = matcher.scan(text, state, record, from, to)
			sinceYield += to - from
			if (sinceYield >= SCAN_SLICE_UNITS) {
				sinceYield = 0
				await nextTurn()
			}
		}
	}
	return [...found].map((word) => matcher.words[word]!)
}
