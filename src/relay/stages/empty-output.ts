/**
 * What an empty answer is: the one definition the meter stage (meter.ts) applies before a call is
 * settled, and the `ChargeEmptyOutputs` option decides how settling treats it (settle.ts: charged
 * at its usage as any call, or — the default — its hold returned in full with a log line that
 * says why). The rules are in docs/specification/pricing.md#empty-answers.
 *
 * An answer is empty when all of these hold:
 * - its endpoint generates an answer (`EMPTY_OUTPUT_ENDPOINTS`: chat — OpenAI chat, Claude
 *   messages, Gemini generateContent, the Responses API, which all relay as `chat` — and legacy
 *   completions). Embeddings and rerank are priced by their input and always carry their result;
 *   images, audio and moderations are billed by their own rules (media-answer.ts: per image, per
 *   second, per input); videos and other tasks are refunded when they fail. None of them can be
 *   "empty" in this sense;
 * - it completed (a stream that failed, was cut or whose client left is settled by its own rules);
 * - its usage counts no completion tokens (text or audio): an upstream that reports output tokens
 *   billed the operator for them (hidden reasoning, say), so the answer is charged;
 * - and it carries no generated output (`carriesOutput`): no text, no refusal, no reasoning or
 *   thinking text, no tool or function call, no image, audio, file or code part.
 */
import type { Usage } from '@/billing/price'
import type { Json, WireFormat } from '../formats/events'
import { isObject } from '../formats/json'
import type { StreamInspector } from '../formats/wire'
import type { RelayEndpoint } from '../providers/types'

/** The endpoints whose answers may be empty; the others are billed as they always are. */
export const EMPTY_OUTPUT_ENDPOINTS: ReadonlySet<RelayEndpoint> = new Set(['chat', 'completions'])

/** The reason an empty answer's hold is voided with, and its log line's `not_charged_reason`. */
export const EMPTY_OUTPUT_REASON = 'empty_output'

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const someText = (value: unknown) => typeof value === 'string' && value !== ''

/** OpenAI message and delta fields that hold output when non-empty (`reasoning`: the field some compatible APIs use). */
const OPENAI_TEXT_FIELDS = ['content', 'reasoning_content', 'reasoning', 'refusal'] as const

function openAIOutput(answer: Json): boolean {
	return list(answer.choices).some((choice) => {
		if (!isObject(choice)) return false
		if (someText(choice.text)) return true
		const part = isObject(choice.message) ? choice.message : isObject(choice.delta) ? choice.delta : undefined
		if (!part) return false
		// `content` may also be a list of parts (audio or image output of some compatible APIs).
		if (OPENAI_TEXT_FIELDS.some((field) => someText(part[field]))) return true
		return list(part.content).length > 0 || list(part.tool_calls).length > 0 || isObject(part.function_call)
			|| (isObject(part.audio) && Object.keys(part.audio).length > 0) || list(part.images).length > 0
	})
}

/** A Claude content block: text and thinking count when they say something; every other block (tool use, redacted thinking, results) is output. */
function claudeBlockOutput(block: unknown): boolean {
	if (!isObject(block)) return false
	if (block.type === 'text') return someText(block.text)
	if (block.type === 'thinking') return someText(block.thinking)
	return typeof block.type === 'string'
}

function claudeOutput(answer: Json): boolean {
	if (list(answer.content).some(claudeBlockOutput)) return true
	// Stream events: a block that starts with output, or a delta of a content block.
	if (answer.type === 'content_block_start') return claudeBlockOutput(answer.content_block)
	if (answer.type !== 'content_block_delta' || !isObject(answer.delta)) return false
	const { delta } = answer
	return someText(delta.text) || someText(delta.thinking) || someText(delta.partial_json) || delta.type === 'citations_delta'
}

/** Gemini parts that are output whatever they hold. */
const GEMINI_OUTPUT_PARTS = ['functionCall', 'inlineData', 'fileData', 'executableCode', 'codeExecutionResult'] as const

function geminiOutput(answer: Json): boolean {
	return list(answer.candidates).some((candidate) => isObject(candidate) && isObject(candidate.content)
		&& list(candidate.content.parts).some((part) => isObject(part) && (someText(part.text) || GEMINI_OUTPUT_PARTS.some((name) => isObject(part[name])))))
}

/** A Responses output item: a message or reasoning counts when some part says something; every other item (calls, generated images) is output. */
function responsesItemOutput(item: unknown): boolean {
	if (!isObject(item)) return false
	if (item.type === 'message' || item.type === 'reasoning') {
		return [...list(item.content), ...list(item.summary)].some((part) => isObject(part) && (someText(part.text) || someText(part.refusal)))
	}
	return typeof item.type === 'string'
}

function responsesOutput(answer: Json): boolean {
	if (list(answer.output).some(responsesItemOutput)) return true
	// Stream events: a delta of text, arguments, reasoning or audio; an item; the whole response at its end.
	if (typeof answer.type === 'string' && answer.type.endsWith('.delta') && someText(answer.delta)) return true
	if (typeof answer.type === 'string' && answer.type.endsWith('.partial_image')) return true
	if (responsesItemOutput(answer.item)) return true
	return isObject(answer.response) && list(answer.response.output).some(responsesItemOutput)
}

const OUTPUT_READERS: Record<WireFormat, (answer: Json) => boolean> = { openai: openAIOutput, claude: claudeOutput, gemini: geminiOutput, responses: responsesOutput }

/** Whether a whole answer, or one event of a stream, in `wire` carries generated output. */
export const carriesOutput = (wire: WireFormat, answer: Json): boolean => OUTPUT_READERS[wire](answer)

/** Whether an answer of `endpoint` that completed with `usage` and (did not) carry output is empty. */
export function isEmptyOutput(endpoint: RelayEndpoint, usage: Usage, output: boolean): boolean {
	return EMPTY_OUTPUT_ENDPOINTS.has(endpoint) && !output && usage.completionTokens === 0 && !usage.audioCompletionTokens
}

/**
 * The stream's inspector, also noting whether any event it reads carries output. The stream meter
 * parses every event until the first generated text (stream-meter.ts), so an event passed on
 * unread comes after output was seen already.
 */
export function watchOutput(wire: WireFormat, inspector: StreamInspector): { inspector: StreamInspector; produced(): boolean } {
	let produced = false
	return {
		inspector: {
			...inspector,
			inspect(data) {
				const reading = inspector.inspect(data)
				if (!produced) produced = reading.text !== '' || carriesOutput(wire, data)
				return reading
			},
		},
		produced: () => produced,
	}
}
