/**
 * A bridged answer's thinking, kept by the client in a `reasoning` item's `encrypted_content` and
 * sent back with the conversation (Codex does, with `store: false` and
 * `include: ["reasoning.encrypted_content"]`): Claude refuses thinking in a tool loop unless the
 * turn's signed thinking blocks come back, and DeepSeek and Kimi refuse a tool-call turn without
 * its reasoning.
 *
 * The content is Ferry's own, told apart from OpenAI's (which only OpenAI can read) by its prefix:
 * the thinking blocks as JSON, base64url-encoded. It is opaque to clients but neither secret nor
 * sealed, on purpose: the text is the reasoning the client was just shown; a Claude block's
 * `signature` is checked by Claude itself, which refuses a block that was altered or not its own;
 * and a client can send any thinking blocks anyway, through `/v1/messages` or `claude_thinking` on a
 * chat message. Reasoning from an upstream that signs nothing (DeepSeek, Gemini, …) is kept as a
 * thinking block with an empty signature, as the Claude client format does: Claude never gets those
 * (the Anthropic converter drops them), the upstreams that take `reasoning_content` back do.
 */
import { isThinkingBlock, type ThinkingBlock } from '../claude/thinking'
import { isObject, parseClientJson } from '../json'

const PREFIX = 'ferry-thinking-v1.'

/** What Codex asks for (`include`) to get reasoning items back it can send again. */
export const ENCRYPTED_REASONING = 'reasoning.encrypted_content'

/** A turn's thinking blocks as a reasoning item's `encrypted_content`. */
export function encryptedThinking(blocks: readonly ThinkingBlock[]): string {
	return PREFIX + Buffer.from(JSON.stringify(blocks), 'utf8').toString('base64url')
}

/** Whether a reasoning item's `encrypted_content` is one Ferry made (encryptedThinking). */
export const madeByFerry = (item: Record<string, unknown>): boolean => typeof item.encrypted_content === 'string' && item.encrypted_content.startsWith(PREFIX)

/**
 * The thinking blocks of a reasoning item Ferry made; undefined for any other item (an OpenAI
 * reasoning item's content is OpenAI's) and for content that does not decode to blocks (dropped,
 * as an item Ferry cannot read: the call goes on without that thinking).
 */
export function thinkingOfReasoningItem(item: Record<string, unknown>): ThinkingBlock[] | undefined {
	if (!madeByFerry(item)) return undefined
	let value: unknown
	try {
		value = parseClientJson(Buffer.from((item.encrypted_content as string).slice(PREFIX.length), 'base64url').toString('utf8'), 'input[].encrypted_content')
	} catch (error) {
		if (error instanceof SyntaxError) return undefined
		throw error
	}
	if (!Array.isArray(value)) return undefined
	const blocks = value.filter(isThinkingBlock).map((block): ThinkingBlock => (block.type === 'thinking'
		? { type: 'thinking', thinking: block.thinking, signature: block.signature }
		: { type: 'redacted_thinking', data: block.data }))
	return blocks.length > 0 ? blocks : undefined
}

/** The thinking blocks an OpenAI-form answer message carries: Claude's own (`claude_thinking`), else its reasoning text, unsigned. */
export function thinkingOfAnswer(blocks: readonly ThinkingBlock[], reasoning: unknown): ThinkingBlock[] {
	if (blocks.length > 0) return [...blocks]
	return typeof reasoning === 'string' && reasoning ? [{ type: 'thinking', thinking: reasoning, signature: '' }] : []
}

/** The request without the reasoning items Ferry made: an upstream that speaks the Responses API would refuse their content. */
export function withoutFerryReasoning(request: Record<string, unknown>): Record<string, unknown> | undefined {
	const input = request.input
	if (!Array.isArray(input) || !input.some((item) => isObject(item) && item.type === 'reasoning' && madeByFerry(item))) return undefined
	return { ...request, input: input.filter((item) => !(isObject(item) && item.type === 'reasoning' && madeByFerry(item))) }
}
