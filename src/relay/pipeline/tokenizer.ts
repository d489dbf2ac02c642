/**
 * Local token counting (design §5.7) with the o200k encoding: used for the hold's prompt
 * estimate, and for the bill when an upstream reports no usage (the log is marked so).
 */
import { countTokens } from 'gpt-tokenizer'

/** Per-message framing tokens in OpenAI's chat format. */
const MESSAGE_OVERHEAD = 3
const REPLY_PRIMING = 3
/** A flat estimate per image part; the hold only needs to be in the right range. */
const IMAGE_PART_TOKENS = 520

export function countText(text: string): number {
	return text ? countTokens(text) : 0
}

type ChatMessage = { role?: unknown; name?: unknown; content?: unknown }

function contentTokens(content: unknown): number {
	if (typeof content === 'string') return countText(content)
	if (!Array.isArray(content)) return 0
	let total = 0
	for (const part of content as { type?: unknown; text?: unknown }[]) {
		if (typeof part?.text === 'string') total += countText(part.text)
		else if (part?.type === 'image_url' || part?.type === 'input_image') total += IMAGE_PART_TOKENS
	}
	return total
}

export function estimateChatPrompt(messages: readonly ChatMessage[], tools?: unknown): number {
	let total = REPLY_PRIMING
	for (const message of messages) {
		total += MESSAGE_OVERHEAD + contentTokens(message.content)
		if (typeof message.name === 'string') total += countText(message.name)
	}
	if (tools) total += countText(JSON.stringify(tools))
	return total
}

/** Prompts and embedding inputs: a string, strings, or already-tokenised integer arrays. */
export function estimateInput(input: unknown): number {
	if (typeof input === 'string') return countText(input)
	if (!Array.isArray(input)) return 0
	let total = 0
	for (const item of input) {
		if (typeof item === 'string') total += countText(item)
		else if (typeof item === 'number') total += 1
		else if (Array.isArray(item)) total += item.length
	}
	return total
}
