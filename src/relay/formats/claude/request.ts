/**
 * A Claude Messages request → the canonical chat request's body and extras (the stages route, hold
 * and bill by the body, and the converted upstreams read both; an Anthropic channel gets the
 * client's own request instead, see same-format.ts). Only what Ferry needs is checked here — a JSON object with a list of messages;
 * the relay checks the model and the token limits. Whatever OpenAI's form cannot carry is dropped,
 * never refused, so the Anthropic API's newer fields and blocks cannot fail a call (NOTES.md).
 *
 * `system`, and `system`-role entries of `messages`, become system messages in place; `tool_result`
 * blocks become `tool` messages placed before the rest of their user turn (OpenAI wants them right
 * after the assistant's calls); `tool_use` blocks become `tool_calls`; thinking blocks, `top_k`,
 * `thinking` and a tool result's `is_error` ride along unchanged as the request's extras
 * (canonical.ts), which only Claude-speaking converters read. Ids, arguments and images are kept.
 */
import { relayErrors } from '../../errors'
import { isObject } from '../json'
import { urlFromSource } from './images'
import { type ConvertedBody, joinedTextExtras, type MessageExtras, MessagesWithExtras, requestExtras } from '../canonical'
import { isThinkingBlock, type ThinkingBlock } from './thinking'

type Json = Record<string, unknown>

function withCacheControl(part: Json, block: Json): Json {
	return isObject(block.cache_control) ? { ...part, cache_control: block.cache_control } : part
}

const textPart = (text: string, block: Json) => withCacheControl({ type: 'text', text }, block)

/** Text carried in a block's own `content` list (search results, documents of blocks). */
function innerText(content: unknown): string {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	return content.map((inner) => (isObject(inner) && inner.type === 'text' && typeof inner.text === 'string' ? inner.text : '')).filter(Boolean).join('\n')
}

/** One Claude content block as an OpenAI content part, or undefined when OpenAI's form has nothing for it. */
function blockToPart(block: Json): Json | undefined {
	if (block.type === 'text') return typeof block.text === 'string' ? textPart(block.text, block) : undefined
	if (block.type === 'image' || block.type === 'document') {
		const source = isObject(block.source) ? block.source : {}
		// Plain-text and block-list documents are text to a model that reads OpenAI's form.
		if (block.type === 'document' && source.type === 'text' && typeof source.data === 'string') return textPart(source.data, block)
		if (block.type === 'document' && source.type === 'content') return textPart(innerText(source.content), block)
		const url = urlFromSource(block.source)
		// Files API ids cannot be fetched by another upstream.
		if (!url) return undefined
		const part = block.type === 'image' ? { type: 'image_url', image_url: { url } } : { type: 'file', file: { file_data: url } }
		return withCacheControl(part, block)
	}
	if (block.type === 'search_result') return textPart(innerText(block.content), block)
	// Server tool calls and results, container uploads and block types added later: Claude's alone.
	return undefined
}

function blocksOf(content: unknown): Json[] {
	if (typeof content === 'string') return [{ type: 'text', text: content }]
	return Array.isArray(content) ? content.filter(isObject) : []
}

function partsOf(content: unknown): Json[] {
	return blocksOf(content).map(blockToPart).filter((part): part is Json => part !== undefined)
}

/**
 * Text stays a string when it is plain text, as most OpenAI upstreams expect: separate blocks one per
 * line (`separator`), so that they do not run into each other.
 */
function openAIContent(parts: Json[], separator = '\n'): string | Json[] {
	const plain = parts.every((part) => part.type === 'text' && part.cache_control === undefined)
	return plain ? parts.map((part) => part.text as string).filter(Boolean).join(separator) : parts
}

/**
 * An assistant turn's text blocks are pieces of one answer (text split around citations): joined as
 * they are, as the answer reads.
 */
const ANSWER_PIECES = ''

function toolResultExtras(block: Json): MessageExtras {
	return {
		isError: block.is_error === true ? true : undefined,
		cacheControl: isObject(block.cache_control) ? block.cache_control : undefined,
	}
}

function pushToolResult(block: Json, messages: MessagesWithExtras) {
	const extras = toolResultExtras(block)
	if (typeof block.content === 'string') return messages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content }, extras)
	const parts = partsOf(block.content)
	const content = openAIContent(parts)
	messages.push({ role: 'tool', tool_call_id: block.tool_use_id, content }, { ...extras, ...joinedTextExtras(parts, content) })
}

function userMessages(content: unknown, messages: MessagesWithExtras) {
	const parts: Json[] = []
	for (const block of blocksOf(content)) {
		if (block.type === 'tool_result') pushToolResult(block, messages)
		else {
			const part = blockToPart(block)
			if (part) parts.push(part)
		}
	}
	if (parts.length > 0) pushJoined('user', parts, messages)
}

/** A user or system message of `parts`: text alone joined one per line, its blocks kept for the word check. */
function pushJoined(role: string, parts: Json[], messages: MessagesWithExtras) {
	const content = openAIContent(parts)
	messages.push({ role, content }, joinedTextExtras(parts, content))
}

function assistantMessages(content: unknown, messages: MessagesWithExtras) {
	const parts: Json[] = []
	const toolCalls: Json[] = []
	const thinking: ThinkingBlock[] = []
	for (const block of blocksOf(content)) {
		if (block.type === 'tool_use') {
			toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } })
		} else if (isThinkingBlock(block)) thinking.push(block)
		else {
			const part = blockToPart(block)
			if (part) parts.push(part)
		}
	}
	if (parts.length === 0 && toolCalls.length === 0 && thinking.length === 0) return
	const message: Json = { role: 'assistant', content: parts.length > 0 ? openAIContent(parts, ANSWER_PIECES) : null }
	if (toolCalls.length > 0) message.tool_calls = toolCalls
	messages.push(message, { thinking: thinking.length > 0 ? thinking : undefined })
}

function systemMessages(content: unknown, messages: MessagesWithExtras) {
	const parts = partsOf(content)
	if (parts.length > 0) pushJoined('system', parts, messages)
}

const MESSAGES_BY_ROLE: Record<string, (content: unknown, messages: MessagesWithExtras) => void> = { user: userMessages, assistant: assistantMessages, system: systemMessages }

/** Client tools only: server tools (web search, code execution…) run at Anthropic and mean nothing elsewhere. */
function tools(value: unknown): Json[] | undefined {
	if (!Array.isArray(value)) return undefined
	const definitions = value.filter((tool): tool is Json => isObject(tool) && typeof tool.name === 'string' && isObject(tool.input_schema)).map((tool) => {
		const definition: Json = { name: tool.name, parameters: tool.input_schema }
		if (typeof tool.description === 'string') definition.description = tool.description
		return withCacheControl({ type: 'function', function: definition }, tool)
	})
	return definitions.length > 0 ? definitions : undefined
}

/** OpenAI requires a name for a JSON schema; Claude's structured outputs have none. */
const STRUCTURED_OUTPUT_NAME = 'output'

/** Structured outputs: Claude's JSON schema format (`output_config.format`, earlier `output_format`) → `response_format`. */
function responseFormat(request: Json): Json | undefined {
	const config = isObject(request.output_config) ? request.output_config : {}
	const format = isObject(config.format) ? config.format : isObject(request.output_format) ? request.output_format : undefined
	if (format?.type !== 'json_schema' || !isObject(format.schema)) return undefined
	return { type: 'json_schema', json_schema: { name: STRUCTURED_OUTPUT_NAME, schema: format.schema } }
}

function toolChoice(choice: unknown): { choice?: unknown; parallel?: boolean } {
	if (!isObject(choice)) return {}
	const parallel = choice.disable_parallel_tool_use === true ? false : undefined
	if (choice.type === 'any') return { choice: 'required', parallel }
	if (choice.type === 'none') return { choice: 'none' }
	if (choice.type === 'tool' && typeof choice.name === 'string') return { choice: { type: 'function', function: { name: choice.name } }, parallel }
	return { choice: 'auto', parallel }
}

export function canonicalFromClaude(request: unknown): ConvertedBody {
	if (!isObject(request)) throw relayErrors.badRequest('the request body must be a JSON object')
	if (!Array.isArray(request.messages)) throw relayErrors.badRequest('messages: Field required')
	const messages = new MessagesWithExtras()
	systemMessages(request.system, messages)
	for (const message of request.messages) {
		if (!isObject(message)) continue
		const convert = typeof message.role === 'string' ? MESSAGES_BY_ROLE[message.role] : undefined
		convert?.(message.content, messages)
	}
	const body: Json = { model: request.model, messages: messages.messages }
	const definitions = tools(request.tools)
	const { choice, parallel } = definitions ? toolChoice(request.tool_choice) : {}
	const metadata = isObject(request.metadata) ? request.metadata : {}
	const optional: Json = {
		max_tokens: request.max_tokens,
		temperature: request.temperature,
		top_p: request.top_p,
		stop: Array.isArray(request.stop_sequences) && request.stop_sequences.length > 0 ? request.stop_sequences : undefined,
		tools: definitions,
		tool_choice: choice,
		parallel_tool_calls: parallel,
		response_format: responseFormat(request),
		user: typeof metadata.user_id === 'string' ? metadata.user_id : undefined,
	}
	for (const [field, value] of Object.entries(optional)) if (value !== undefined && value !== null) body[field] = value
	if (request.stream === true) {
		body.stream = true
		// The Claude stream ends with the usage, so it is always asked for.
		body.stream_options = { include_usage: true }
	}
	// For the Claude-speaking converters (Anthropic, AWS) and Gemini's topK; never sent as fields (canonical.ts).
	const extras = requestExtras({
		topK: typeof request.top_k === 'number' ? request.top_k : undefined,
		thinking: isObject(request.thinking) ? request.thinking : undefined,
		messages: messages.messageExtras(),
	})
	return { body, extras }
}
