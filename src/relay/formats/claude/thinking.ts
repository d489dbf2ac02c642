/**
 * How Claude's thinking blocks travel through the canonical OpenAI form (see NOTES.md). Only the
 * Claude client format and the Anthropic provider read these extension fields.
 */

/** On an assistant message: its thinking blocks, exactly as Claude sent them (with `signature`). */
export const THINKING_BLOCKS_FIELD = 'claude_thinking'

export type ThinkingBlock =
	| { type: 'thinking'; thinking: string; signature: string }
	| { type: 'redacted_thinking'; data: string }

export function isThinkingBlock(value: unknown): value is ThinkingBlock {
	if (typeof value !== 'object' || value === null) return false
	const block = value as Record<string, unknown>
	if (block.type === 'thinking') return typeof block.thinking === 'string' && typeof block.signature === 'string'
	return block.type === 'redacted_thinking' && typeof block.data === 'string'
}

export function thinkingBlocksOf(message: Record<string, unknown>): ThinkingBlock[] {
	const blocks = message[THINKING_BLOCKS_FIELD]
	return Array.isArray(blocks) ? blocks.filter(isThinkingBlock) : []
}
