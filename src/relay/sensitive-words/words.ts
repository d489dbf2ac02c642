/**
 * The sensitive-word options at work in the relay. `SensitiveWords` (one word per line,
 * matched case-insensitively anywhere in the text, as new-api does) becomes one automaton, built
 * again only when the option's text changes. With `CheckSensitiveEnabled`:
 *
 * - `CheckSensitiveOnPromptEnabled`: a prompt containing a word is refused before anything is held
 *   or sent upstream, in every client format (all of them pass through the same OpenAI-form stages).
 * - `CheckSensitiveOnCompletionEnabled`: answers are checked too. With `StopOnSensitiveEnabled` a
 *   whole answer is refused and a stream ends before the word; without it the word is replaced by
 *   `**###**`. Either way the call is billed for what the upstream produced (./answer-filter.ts).
 */
import type { OptionStore } from '@/db/stores/options'
import { compileWordMatcher, type WordMatcher } from '@/lib/word-matcher'
import { withValues } from '@shared/messages'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { wordedRelayError } from '../errors'
import { messageExtras, NO_EXTRAS, type RequestExtras } from '../formats/canonical'
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
	/** Names none of the words: the client must not learn what the withheld answer said (the admins' log does). */
	answer: () => wordedRelayError(400, RELAY_MESSAGES.sensitiveAnswer, 'invalid_request_error', 'sensitive_words_detected'),
}

/**
 * The texts a checked request carries, as runs: the texts of one run are read as one text (a word
 * may span them), each run on its own (no word spans two runs).
 *
 * Which texts are joined: those a model reads as one stretch of conversation. The text parts of
 * a message, in order (images and other parts between them are skipped), and the messages one after
 * another, are one run with nothing put between them, so a word split at the boundary of two parts
 * or two messages ("forbid" | "den") is found as if it were written whole. Everything else is a run
 * of its own: a message's `name`, each tool's name, description and the descriptions and titles in
 * its parameters' schema, each tool call's arguments, and on the other endpoints each prompt, input,
 * query or document (separate inputs of one request are separate texts to the model too).
 *
 * The cost of joining messages: a word formed only by the end of one message and the start of the
 * next is found, as it would be in one message saying both. Nothing of different kinds is joined
 * (a name with the content after it, two tools' descriptions), so such chance matches stay within
 * the conversation's text.
 */
export function promptTexts(endpoint: RelayEndpoint, body: Record<string, unknown>, extras: RequestExtras = NO_EXTRAS): string[][] {
	const runs: string[][] = []
	const single = (value: unknown) => {
		if (typeof value === 'string' && value) runs.push([value])
	}
	if (endpoint === 'chat') {
		const conversation: string[] = []
		const messages = Array.isArray(body.messages) ? body.messages : []
		messages.forEach((message, index) => {
			if (!isObject(message)) return
			// A converted message's blocks as the client wrote them, rather than joined one per line.
			const blocks = messageExtras(extras, index).textBlocks
			if (blocks) conversation.push(...blocks)
			else pushContent(conversation, message.content)
			single(message.name)
			for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
				if (isObject(call) && isObject(call.function)) single(call.function.arguments)
			}
			if (isObject(message.function_call)) single(message.function_call.arguments)
		})
		if (conversation.length > 0) runs.push(conversation)
		for (const tool of Array.isArray(body.tools) ? body.tools : []) {
			if (!isObject(tool) || !isObject(tool.function)) continue
			single(tool.function.name)
			single(tool.function.description)
			schemaTexts(tool.function.parameters, single)
		}
	} else if (isMediaEndpoint(endpoint)) {
		for (const text of mediaPromptTexts(endpoint, body)) single(text)
	} else if (endpoint === 'videos') {
		single(body.prompt)
	} else if (endpoint === 'rerank') {
		single(body.query)
		for (const document of Array.isArray(body.documents) ? body.documents : []) single(isObject(document) ? document.text : document)
	} else {
		const input = endpoint === 'completions' ? body.prompt : body.input
		if (Array.isArray(input)) for (const item of input) single(item)
		else single(input)
	}
	return runs
}

/** Text of a message's content: a string, or the text (or refusal) of each part; images and audio are not read. */
function pushContent(texts: string[], content: unknown) {
	if (typeof content === 'string') {
		if (content) texts.push(content)
	} else if (Array.isArray(content)) {
		for (const part of content) {
			if (!isObject(part)) continue
			if (typeof part.text === 'string' && part.text) texts.push(part.text)
			else if (typeof part.refusal === 'string' && part.refusal) texts.push(part.refusal)
		}
	}
}

const SCHEMA_TEXT_FIELDS = ['description', 'title'] as const

/**
 * The descriptions and titles anywhere in a tool's parameter schema (what the model reads of it),
 * walked with a stack: the body's nesting is bounded when it is read, and nothing here recurses.
 */
function schemaTexts(schema: unknown, take: (text: unknown) => void) {
	const pending: unknown[] = [schema]
	while (pending.length > 0) {
		const node = pending.pop()
		if (Array.isArray(node)) {
			for (const item of node) pending.push(item)
		} else if (isObject(node)) {
			for (const field of SCHEMA_TEXT_FIELDS) take(node[field])
			for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) pending.push(value)
		}
	}
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The listed words found in the runs of texts (see promptTexts: a run's texts are read as one).
 * Linear in their length; a long text is scanned a slice at a time (the automaton's state carries
 * across slices and across the texts of a run), yielding to other requests between slices.
 */
export async function findWords(matcher: WordMatcher, runs: readonly (readonly string[])[]): Promise<string[]> {
	const found = new Set<number>()
	const record = (_end: number, word: number) => {
		found.add(word)
	}
	let sinceYield = 0
	for (const run of runs) {
		let state = 0
		for (const text of run) {
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
	}
	return [...found].map((word) => matcher.words[word]!)
}
