/**
 * A Claude Messages request → the OpenAI chat body the pipeline relays. `system` becomes the first
 * message; `tool_result` blocks become `tool` messages placed before the rest of their user turn
 * (OpenAI wants them right after the assistant's calls); `tool_use` blocks become `tool_calls`;
 * thinking blocks ride along unchanged (NOTES.md). Ids, arguments and images are kept.
 */
import { relayErrors } from '../../errors'
import { isObject } from '../json'
import { urlFromSource } from './images'
import { isThinkingBlock, THINKING_BLOCKS_FIELD } from './thinking'

type Json = Record<string, unknown>

function withCacheControl(part: Json, block: Json): Json {
	return isObject(block.cache_control) ? { ...part, cache_control: block.cache_control } : part
}

function blockToPart(block: Json, where: string): Json {
	if (block.type === 'text' && typeof block.text === 'string') return withCacheControl({ type: 'text', text: block.text }, block)
	if (block.type === 'image' || block.type === 'document') {
		const url = urlFromSource(block.source)
		if (!url) throw relayErrors.badRequest(`${where}: this ${block.type} source cannot be relayed; send it as base64 or a URL`)
		const part = block.type === 'image' ? { type: 'image_url', image_url: { url } } : { type: 'file', file: { file_data: url } }
		return withCacheControl(part, block)
	}
	throw relayErrors.badRequest(`${where}: content blocks of type ${String(block.type)} are not supported here`)
}

function blocksOf(content: unknown, where: string): Json[] {
	if (typeof content === 'string') return [{ type: 'text', text: content }]
	if (!Array.isArray(content)) throw relayErrors.badRequest(`${where}: expected text or a list of content blocks`)
	return content.map((block, index) => {
		if (!isObject(block)) throw relayErrors.badRequest(`${where}.${index}: expected a content block`)
		return block
	})
}

/** Text stays a string when it is plain text, as most OpenAI upstreams expect. */
function openAIContent(parts: Json[]): string | Json[] {
	const plain = parts.every((part) => part.type === 'text' && part.cache_control === undefined)
	return plain ? parts.map((part) => part.text as string).join('') : parts
}

function toolResultMessage(block: Json, where: string): Json {
	const content = block.content === undefined ? '' : typeof block.content === 'string'
		? block.content
		: openAIContent(blocksOf(block.content, `${where}.content`).map((inner, index) => blockToPart(inner, `${where}.content.${index}`)))
	const message: Json = { role: 'tool', tool_call_id: block.tool_use_id, content }
	if (block.is_error === true) message.is_error = true
	return withCacheControl(message, block)
}

function userMessages(content: unknown, where: string): Json[] {
	const results: Json[] = []
	const parts: Json[] = []
	blocksOf(content, where).forEach((block, index) => {
		if (block.type === 'tool_result') results.push(toolResultMessage(block, `${where}.${index}`))
		else parts.push(blockToPart(block, `${where}.${index}`))
	})
	return parts.length > 0 ? [...results, { role: 'user', content: openAIContent(parts) }] : results
}

function assistantMessage(content: unknown, where: string): Json {
	const parts: Json[] = []
	const toolCalls: Json[] = []
	const thinking: Json[] = []
	blocksOf(content, where).forEach((block, index) => {
		if (block.type === 'tool_use') {
			toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } })
		} else if (isThinkingBlock(block)) thinking.push(block)
		else parts.push(blockToPart(block, `${where}.${index}`))
	})
	const message: Json = { role: 'assistant', content: parts.length > 0 ? openAIContent(parts) : null }
	if (toolCalls.length > 0) message.tool_calls = toolCalls
	if (thinking.length > 0) message[THINKING_BLOCKS_FIELD] = thinking
	return message
}

function systemMessage(system: unknown): Json | undefined {
	if (system === undefined || system === null) return undefined
	const parts = blocksOf(system, 'system').map((block, index) => blockToPart(block, `system.${index}`))
	return parts.length > 0 ? { role: 'system', content: openAIContent(parts) } : undefined
}

function tools(value: unknown): Json[] | undefined {
	if (value === undefined || value === null) return undefined
	if (!Array.isArray(value)) throw relayErrors.badRequest('tools: expected a list')
	return value.map((tool, index) => {
		if (!isObject(tool) || typeof tool.name !== 'string' || !isObject(tool.input_schema)) {
			throw relayErrors.badRequest(`tools.${index}: only client tools (name and input_schema) can be relayed`)
		}
		const definition: Json = { name: tool.name, parameters: tool.input_schema }
		if (typeof tool.description === 'string') definition.description = tool.description
		return withCacheControl({ type: 'function', function: definition }, tool)
	})
}

function toolChoice(choice: unknown): { choice?: unknown; parallel?: boolean } {
	if (!isObject(choice)) return {}
	const parallel = choice.disable_parallel_tool_use === true ? false : undefined
	if (choice.type === 'any') return { choice: 'required', parallel }
	if (choice.type === 'none') return { choice: 'none' }
	if (choice.type === 'tool' && typeof choice.name === 'string') return { choice: { type: 'function', function: { name: choice.name } }, parallel }
	return { choice: 'auto', parallel }
}

export function openAIBodyFromClaude(request: unknown): Json {
	if (!isObject(request)) throw relayErrors.badRequest('the request body must be a JSON object')
	if (!Array.isArray(request.messages)) throw relayErrors.badRequest('messages: Field required')
	const messages: Json[] = []
	const system = systemMessage(request.system)
	if (system) messages.push(system)
	request.messages.forEach((message, index) => {
		if (!isObject(message)) throw relayErrors.badRequest(`messages.${index}: expected a message`)
		if (message.role === 'user') messages.push(...userMessages(message.content, `messages.${index}.content`))
		else if (message.role === 'assistant') messages.push(assistantMessage(message.content, `messages.${index}.content`))
		else throw relayErrors.badRequest(`messages.${index}.role: expected user or assistant`)
	})
	const body: Json = { model: request.model, messages }
	const { choice, parallel } = toolChoice(request.tool_choice)
	const metadata = isObject(request.metadata) ? request.metadata : {}
	const optional: Json = {
		max_tokens: request.max_tokens,
		temperature: request.temperature,
		top_p: request.top_p,
		top_k: request.top_k,
		stop: Array.isArray(request.stop_sequences) && request.stop_sequences.length > 0 ? request.stop_sequences : undefined,
		tools: tools(request.tools),
		tool_choice: choice,
		parallel_tool_calls: parallel,
		thinking: request.thinking,
		user: typeof metadata.user_id === 'string' ? metadata.user_id : undefined,
	}
	for (const [field, value] of Object.entries(optional)) if (value !== undefined && value !== null) body[field] = value
	if (request.stream === true) {
		body.stream = true
		// The Claude stream ends with the usage, so it is always asked for.
		body.stream_options = { include_usage: true }
	}
	return body
}
