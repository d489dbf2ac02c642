/**
 * Ferry's own fields on the canonical request (OpenAI's chat form, design §5): what a client said
 * that OpenAI's form has no field for, kept for the converters that can send it on (Claude's).
 * They are keyed by symbols, so no JSON serialisation carries them: no request to any upstream
 * (an OpenAI-format upstream gets only what its wire format has), no log. Spreading a body or a
 * message (`{ ...body, model }`) keeps them.
 *
 * Ferry-private today: Claude's `top_k` and `thinking` settings, and on messages Claude's thinking
 * blocks (with their signatures), a tool result's `is_error` and `cache_control`. `cache_control` on
 * content parts and tools is not private: OpenRouter-style OpenAI-format upstreams read it there.
 */
import { isThinkingBlock, THINKING_BLOCKS_FIELD, type ThinkingBlock } from './claude/thinking'
import { isObject } from './json'

type Json = Record<string, unknown>

const REQUEST_EXTRAS = Symbol('ferry.request-extras')
const MESSAGE_EXTRAS = Symbol('ferry.message-extras')

interface RequestExtras {
	/** Claude's `top_k` (Gemini's `topK`). */
	topK?: number
	/** Claude's `thinking` setting (`enabled` with a budget, `adaptive`, `disabled`). */
	thinking?: Json
}

interface MessageExtras {
	/** An assistant turn's thinking blocks exactly as Claude sent them (with `signature`). */
	thinking?: ThinkingBlock[]
	/** A tool result that reports an error (Claude's `is_error`). */
	isError?: boolean
	/** A tool result's own `cache_control` (OpenAI's form has it on content parts only). */
	cacheControl?: Json
}

type WithExtras<T> = Json & { [REQUEST_EXTRAS]?: T; [MESSAGE_EXTRAS]?: T }

const present = <T extends object>(extras: T) => Object.values(extras).some((value) => value !== undefined)

/** Sets the body's extras (left out when there are none). */
export function withRequestExtras<T extends Json>(body: T, extras: RequestExtras): T {
	if (present(extras)) (body as WithExtras<RequestExtras>)[REQUEST_EXTRAS] = extras
	return body
}

export const requestExtras = (body: Json): RequestExtras => (body as WithExtras<RequestExtras>)[REQUEST_EXTRAS] ?? {}

export function withMessageExtras<T extends Json>(message: T, extras: MessageExtras): T {
	if (present(extras)) (message as WithExtras<MessageExtras>)[MESSAGE_EXTRAS] = extras
	return message
}

export const messageExtras = (message: Json): MessageExtras => (message as WithExtras<MessageExtras>)[MESSAGE_EXTRAS] ?? {}

/** `top_k` of either origin: a Claude client's, or an OpenAI client's own field. */
export function topKOf(body: Json): number | undefined {
	const value = requestExtras(body).topK ?? body.top_k
	return typeof value === 'number' ? value : undefined
}

/**
 * An OpenAI-format client's request with the thinking blocks it sends back (`claude_thinking` on
 * assistant messages, which Ferry's answers from Claude carry) moved to the messages' extras, so
 * that they reach a Claude upstream and no other. The same body when it has none.
 */
export function canonicalFromOpenAI<T extends Json>(body: T): T {
	const messages = body.messages
	if (!Array.isArray(messages) || !messages.some((message) => isObject(message) && message[THINKING_BLOCKS_FIELD] !== undefined)) return body
	return {
		...body,
		messages: messages.map((message) => {
			if (!isObject(message) || message[THINKING_BLOCKS_FIELD] === undefined) return message
			const { [THINKING_BLOCKS_FIELD]: blocks, ...rest } = message
			const thinking = Array.isArray(blocks) ? blocks.filter(isThinkingBlock) : []
			return withMessageExtras(rest, { ...messageExtras(message), thinking: thinking.length > 0 ? thinking : undefined })
		}),
	}
}
