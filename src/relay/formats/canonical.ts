/**
 * The canonical request: what each client format's converter makes of a request, and what the
 * stages check, hold, route, price and bill by and the adaptors build upstream requests from. It is
 * plain data — everything in it but an upload's bytes can be serialised, shown in a log or hashed
 * into a cache key — and it keeps apart what an upstream may receive (`body`) and what only Ferry
 * and the converters that can send it on may read (`extras`).
 *
 * Ferry's extras today: Claude's `top_k` and `thinking` settings, and on messages Claude's thinking
 * blocks (with their signatures), a tool result's `is_error` and `cache_control`, and the separate text
 * blocks of a message the body joins. `cache_control` on
 * content parts and tools is not private: OpenRouter-style OpenAI-format upstreams read it there.
 * No converter writes an extra into an upstream body as a field of its own: the Claude-speaking
 * ones send them as Claude's fields, Gemini's and PaLM's send `top_k` as `topK`, the OpenAI-format
 * upstreams that take reasoning back get the thinking blocks' text as `reasoning_content`
 * (withReasoningContent), those with a thinking setting of their own get `thinking` as that
 * (withThinkingFields), every other upstream gets none of them.
 */
import { type ClaudeThinking, claudeThinkingOf } from '../providers/shared/reasoning-effort'
import type { NativeRequest, RelayEndpoint } from '../providers/types'
import { isThinkingBlock, THINKING_BLOCKS_FIELD, type ThinkingBlock } from './claude/thinking'
import { isObject } from './json'
import type { Upload } from './media/multipart'

type Json = Record<string, unknown>

/** What a request said that OpenAI's form has no field for. */
export interface RequestExtras {
	/** Claude's `top_k`. */
	topK?: number
	/** Claude's `thinking` setting (`enabled` with a budget, `adaptive`, `disabled`). */
	thinking?: Json
	/** Each message's extras at the index of the message in `body.messages`, null for one with none (absent: none has any). */
	messages?: (MessageExtras | null)[]
}

export interface MessageExtras {
	/** An assistant turn's thinking blocks exactly as Claude sent them (with `signature`). */
	thinking?: ThinkingBlock[]
	/** A tool result that reports an error (Claude's `is_error`). */
	isError?: boolean
	/** A tool result's own `cache_control` (OpenAI's form has it on content parts only). */
	cacheControl?: Json
	/**
	 * A message's separate text blocks, when the body joins them into one string (one per line, as
	 * upstreams read them): the sensitive-word check reads them as the client wrote them, so a word
	 * split across two blocks is still found.
	 */
	textBlocks?: string[]
}

/** The extras of a request that has none (shared: never written to). */
export const NO_EXTRAS: RequestExtras = Object.freeze({})
const NO_MESSAGE_EXTRAS: MessageExtras = Object.freeze({})

export interface CanonicalRequest<Body = Json> {
	endpoint: RelayEndpoint
	/**
	 * OpenAI's form of the request for the endpoint (Jina's for rerank, an upload's text fields for
	 * one that came as multipart): exactly what an OpenAI-format upstream may receive. Until the
	 * admit stage has checked it, whatever the client sent (`Body` = unknown).
	 */
	body: Body
	extras: RequestExtras
	/** `body` exactly as the client wrote it, when it is that: an OpenAI-format upstream gets these bytes. */
	bodyText?: string
	/** The client's own request (Claude's, Gemini's, a Responses request), for a channel that speaks its format. */
	native?: NativeRequest
	/** The upload a multipart request carried (its text fields are `body`): sent upstream intact. */
	upload?: Upload
	/** A video remix: the video it starts from, Ferry's id and the upstream's (the edge found it among the caller's own). */
	remixOf?: { videoId: string; upstreamId: string }
}

/** A request as its client format converted it, not yet checked. */
export type ConvertedRequest = CanonicalRequest<unknown>

/** A converted body with its extras. */
export interface ConvertedBody {
	body: Json
	extras: RequestExtras
}

/** The extras of the message at `index` of the body's messages. */
export const messageExtras = (extras: RequestExtras, index: number): MessageExtras => extras.messages?.[index] ?? NO_MESSAGE_EXTRAS

/** `top_k` of either origin: a Claude client's (an extra), or an OpenAI client's own field. */
export function topKOf(body: Json, extras: RequestExtras): number | undefined {
	const value = extras.topK ?? body.top_k
	return typeof value === 'number' ? value : undefined
}

const present = (extras: object) => Object.values(extras).some((value) => value !== undefined)

/** Messages and their extras, kept at the same indexes. */
export class MessagesWithExtras {
	readonly messages: Json[] = []
	private readonly extras: (MessageExtras | null)[] = []
	private any = false

	push(message: Json, extras?: MessageExtras) {
		const kept = extras && present(extras) ? extras : null
		if (kept) this.any = true
		this.extras.push(kept)
		this.messages.push(message)
	}

	/** The extras by message index, or undefined when no message has any. */
	messageExtras(): (MessageExtras | null)[] | undefined {
		return this.any ? this.extras : undefined
	}
}

/** The extras of a message whose content `joined` made one string of its several text `parts`. */
export function joinedTextExtras(parts: readonly { text?: unknown }[], joined: unknown): MessageExtras | undefined {
	if (typeof joined !== 'string') return undefined
	const texts = parts.map((part) => part.text).filter((text): text is string => typeof text === 'string' && text !== '')
	return texts.length > 1 ? { textBlocks: texts } : undefined
}

/** Request extras, with only what is present (NO_EXTRAS when nothing is). */
export function requestExtras(extras: RequestExtras): RequestExtras {
	return present(extras) ? extras : NO_EXTRAS
}

/**
 * An OpenAI-format client's request for `endpoint`: the body as it came (checked later), with the
 * thinking blocks it sends back moved to the extras (canonicalFromOpenAI), and its bytes while
 * nothing changed them. `text`, when given, is the body as the client wrote it.
 */
export function canonicalRequestFromOpenAI(endpoint: RelayEndpoint, value: unknown, text?: string): ConvertedRequest {
	if (!isObject(value)) return { endpoint, body: value, extras: NO_EXTRAS, bodyText: text }
	const { body, extras } = canonicalFromOpenAI(value)
	return { endpoint, body, extras, bodyText: body === value ? text : undefined }
}

/**
 * An OpenAI-format client's request with the thinking blocks it sends back (`claude_thinking` on
 * assistant messages, which Ferry's answers from Claude carry) moved to the messages' extras, so
 * that they reach a Claude upstream (and their text an upstream that takes `reasoning_content`)
 * and no other. The same body when it has none.
 */
export function canonicalFromOpenAI(body: Json): ConvertedBody {
	const messages = body.messages
	if (!Array.isArray(messages) || !messages.some((message) => isObject(message) && message[THINKING_BLOCKS_FIELD] !== undefined)) return { body, extras: NO_EXTRAS }
	const converted = new MessagesWithExtras()
	for (const message of messages) {
		if (!isObject(message) || message[THINKING_BLOCKS_FIELD] === undefined) {
			// Anything else is left as it came, for the admit stage to judge.
			converted.push(message as Json)
			continue
		}
		const { [THINKING_BLOCKS_FIELD]: blocks, ...rest } = message
		const thinking = Array.isArray(blocks) ? blocks.filter(isThinkingBlock) : []
		converted.push(rest, { thinking: thinking.length > 0 ? thinking : undefined })
	}
	return { body: { ...body, messages: converted.messages }, extras: requestExtras({ messages: converted.messageExtras() }) }
}

/**
 * The body with each assistant message's thinking blocks (its extras) as the message's
 * `reasoning_content`, the field in which OpenAI-format upstreams whose models reason (DeepSeek,
 * Kimi, GLM) answer their reasoning and take it back: in thinking mode they refuse a tool-call turn
 * sent back without it. Only for adaptors that declare it (`ProviderAdaptor.reasoningContent`); the
 * texts of a turn's blocks are joined one per line, redacted blocks have none, signatures are
 * Claude's alone and stay behind. A message's own `reasoning_content` (an OpenAI client sending it
 * back) is kept. The same body when nothing changes.
 */
export function withReasoningContent(body: Json, extras: RequestExtras): Json {
	const messages = body.messages
	if (!extras.messages || !Array.isArray(messages)) return body
	let written: unknown[] | undefined
	messages.forEach((message: unknown, index) => {
		const blocks = extras.messages?.[index]?.thinking
		if (!blocks || !isObject(message) || message.role !== 'assistant' || message.reasoning_content !== undefined) return
		const texts = blocks.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : []))
		if (texts.length === 0) return
		written ??= [...messages]
		written[index] = { ...message, reasoning_content: texts.join('\n') }
	})
	return written ? { ...body, messages: written } : body
}

/**
 * The body with a Claude client's `thinking` setting (an extra) as the upstream's own fields
 * (`ProviderAdaptor.thinkingFields`: DeepSeek's `thinking` toggle, an OpenAI reasoning model's
 * `reasoning_effort`); a field the body already has is the client's own and stays. The same body
 * when nothing changes.
 */
export function withThinkingFields(body: Json, extras: RequestExtras, fieldsOf: (thinking: ClaudeThinking, model: string) => Json | undefined): Json {
	const thinking = claudeThinkingOf(extras.thinking)
	const fields = thinking && fieldsOf(thinking, String(body.model ?? ''))
	if (!fields) return body
	const added = Object.entries(fields).filter(([field]) => body[field] === undefined)
	return added.length > 0 ? { ...body, ...Object.fromEntries(added) } : body
}
