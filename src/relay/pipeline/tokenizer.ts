/**
 * Counting tokens locally (design §5.7). The hold needs only an estimate, from the text's length
 * (a token is about 4 letters of English or 1–2 CJK characters; a third of the length errs
 * generous for English). The bill, when an upstream reports
 * no usage, counts with a real tokenizer (o200k); it is loaded on first use because its tables
 * cost about 70 MB of memory that most gateways never need.
 */

const CHARACTERS_PER_TOKEN_ESTIMATE = 3
/** Per-message framing tokens in OpenAI's chat format. */
const MESSAGE_OVERHEAD = 3
const REPLY_PRIMING = 3
/** A flat count per image part; OpenAI's tile formula needs the image itself. */
const IMAGE_PART_TOKENS = 520

type Counter = (text: string) => number
type ChatMessage = { role?: unknown; name?: unknown; content?: unknown }

const estimate: Counter = (text) => Math.ceil(text.length / CHARACTERS_PER_TOKEN_ESTIMATE)

let tokenizer: Promise<Counter> | undefined
function realCounter(): Promise<Counter> {
	tokenizer ??= import('gpt-tokenizer').then(({ countTokens }) => (text: string) => (text ? countTokens(text) : 0))
	return tokenizer
}

function contentTokens(content: unknown, count: Counter): number {
	if (typeof content === 'string') return count(content)
	if (!Array.isArray(content)) return 0
	let total = 0
	for (const part of content as { type?: unknown; text?: unknown }[]) {
		if (typeof part?.text === 'string') total += count(part.text)
		else if (part?.type === 'image_url' || part?.type === 'input_image') total += IMAGE_PART_TOKENS
	}
	return total
}

function chatPrompt(messages: readonly ChatMessage[], tools: unknown, count: Counter): number {
	let total = REPLY_PRIMING
	for (const message of messages) {
		total += MESSAGE_OVERHEAD + contentTokens(message.content, count)
		if (typeof message.name === 'string') total += count(message.name)
	}
	if (tools) total += count(JSON.stringify(tools))
	return total
}

/** Prompts and embedding inputs: a string, strings, or already-tokenised integer arrays. */
function input(value: unknown, count: Counter): number {
	if (typeof value === 'string') return count(value)
	if (!Array.isArray(value)) return 0
	let total = 0
	for (const item of value) {
		if (typeof item === 'string') total += count(item)
		else if (typeof item === 'number') total += 1
		else if (Array.isArray(item)) total += item.length
	}
	return total
}

export type PromptRequest =
	| { endpoint: 'chat'; messages: readonly ChatMessage[]; tools?: unknown }
	| { endpoint: 'completions' | 'embeddings' | 'rerank'; input: unknown }

function prompt(request: PromptRequest, count: Counter) {
	return request.endpoint === 'chat' ? chatPrompt(request.messages, request.tools, count) : input(request.input, count)
}

/** A quick upper-side estimate of the prompt, for the hold. */
export const estimatePrompt = (request: PromptRequest) => prompt(request, estimate)

/** The prompt counted with the tokenizer, for a bill without upstream usage. */
export async function countPrompt(request: PromptRequest): Promise<number> {
	return prompt(request, await realCounter())
}

/** Generated text counted with the tokenizer, for a bill without upstream usage. */
export async function countText(text: string): Promise<number> {
	return (await realCounter())(text)
}
