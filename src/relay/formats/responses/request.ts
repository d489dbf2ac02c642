/**
 * A Responses API request → the canonical chat body, which the relay checks, holds,
 * routes and bills by, and which a channel that does not speak the Responses API is sent (through
 * its chat converter). What the bridge does:
 *
 * - `instructions` and `system`/`developer` messages → system messages; text, image (URL or data URL),
 *   file (inline data) and audio parts → chat's parts; `function_call` items → an assistant turn's
 *   `tool_calls`, `function_call_output` → tool messages (custom tools' calls and outputs alike).
 * - Function tools → chat's tools; every other tool (web search, file search, namespaces, MCP,
 *   computer use, …: hosted tools a chat upstream cannot run) is left out, and so is a `tool_choice`
 *   that names one. `reasoning` items Ferry made (reasoning-items.ts) give the assistant turn that
 *   follows them its thinking blocks (message extras, formats/canonical.ts), so Claude keeps thinking
 *   in a tool loop and the upstreams that take `reasoning_content` back get it; any other reasoning
 *   item (OpenAI's own encrypted content) is left out, and so are hosted tools' call items.
 * - `max_output_tokens` → `max_tokens`, `reasoning.effort` → `reasoning_effort`, `text.format` →
 *   `response_format`; `temperature`, `top_p`, `parallel_tool_calls`, `user` as they are. Fields
 *   only the Responses API has meaning for (`store`, `include`, `prompt_cache_key`,
 *   `client_metadata`, `reasoning.summary`, `truncation`, `service_tier`, `metadata`, …) are
 *   accepted and not sent on.
 *
 * What needs the upstream's own memory — `previous_response_id`, `conversation`, a stored `prompt`,
 * `item_reference` items, files by `file_id` — cannot be bridged: `nativeOnlyReason` says why, and
 * such a request goes only to a channel that speaks the API (NativeRequest.required).
 */
import { relayErrors } from '../../errors'
import { type ConvertedBody, type MessageExtras, requestExtras } from '../canonical'
import type { ThinkingBlock } from '../claude/thinking'
import type { Json } from '../events'
import { isObject } from '../json'
import { MAX_TOKEN_LIMIT } from '../openai/requests'
import { thinkingOfReasoningItem } from './reasoning-items'

/** `background: true` answers before the work is done, with no usage to bill: refused on every channel. */
const BACKGROUND_REFUSED = 'background: background responses are not supported by this gateway; send the request without background'

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** Why the request can only go to a channel that speaks the Responses API; undefined when it can be bridged. */
export function nativeOnlyReason(request: Json): string | undefined {
	if (typeof request.previous_response_id === 'string' && request.previous_response_id) return 'previous_response_id continues a response only a channel that speaks the Responses API keeps'
	if (request.conversation !== undefined && request.conversation !== null) return 'conversation needs a channel that speaks the Responses API'
	if (isObject(request.prompt)) return 'a stored prompt needs a channel that speaks the Responses API'
	const items = Array.isArray(request.input) ? request.input : []
	for (const item of items) {
		if (!isObject(item)) continue
		if (item.type === 'item_reference') return 'item_reference input items need a channel that speaks the Responses API'
		const parts = Array.isArray(item.content) ? item.content : Array.isArray(item.output) ? item.output : []
		if (parts.some((part) => isObject(part) && typeof part.file_id === 'string' && part.file_id)) return 'files referenced by file_id need a channel that speaks the Responses API'
	}
	return undefined
}

/** One input content part → chat's part (undefined when chat has no form for it). */
function chatPart(part: unknown): Json | undefined {
	if (typeof part === 'string') return { type: 'text', text: part }
	if (!isObject(part)) return undefined
	switch (part.type) {
		case 'input_text':
		case 'output_text':
		case 'text':
			return { type: 'text', text: text(part.text) }
		case 'refusal':
			return { type: 'text', text: text(part.refusal) }
		case 'input_image': {
			const url = typeof part.image_url === 'string' ? part.image_url : isObject(part.image_url) ? text(part.image_url.url) : ''
			if (!url) return undefined
			return { type: 'image_url', image_url: { url, ...(typeof part.detail === 'string' ? { detail: part.detail } : {}) } }
		}
		case 'input_file':
			if (typeof part.file_data !== 'string') return undefined
			return { type: 'file', file: { file_data: part.file_data, ...(typeof part.filename === 'string' ? { filename: part.filename } : {}) } }
		case 'input_audio':
			return isObject(part.input_audio) ? { type: 'input_audio', input_audio: part.input_audio } : undefined
	}
	return undefined
}

/** Separate text parts (a file, then a question) are separate blocks: one per line, never run together. */
const BLOCKS = '\n'
/**
 * An assistant message's text parts are pieces of one answer (as the upstream wrote them out): joined
 * as they are, as the answer reads.
 */
const ANSWER_PIECES = ''

/**
 * A message's or a tool output's content → chat's: text as it is, parts converted (text only for roles
 * that take no media). Text alone is one string, as most chat upstreams expect, its parts joined by
 * `separator`.
 */
function chatContent(content: unknown, textOnly: boolean, separator: string): string | Json[] {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	const parts = content.map(chatPart).filter((part): part is Json => part !== undefined)
	if (textOnly || parts.every((part) => part.type === 'text')) return parts.map((part) => text(part.text)).filter(Boolean).join(separator)
	return parts
}

const ROLES: Record<string, string> = { user: 'user', assistant: 'assistant', system: 'system', developer: 'system' }

/** Chat messages, with the thinking blocks of the assistant turns that have some. */
interface ChatMessages {
	messages: Json[]
	thinking: Map<Json, ThinkingBlock[]>
}

/**
 * Input items → chat messages; consecutive function calls join one assistant turn (with the text
 * before them). A reasoning item Ferry made starts the assistant turn after it, which carries its
 * thinking blocks (a turn of Claude's interleaved thinking comes back as several such turns, which
 * the Anthropic converter joins again in their order).
 */
function chatMessages(input: unknown): ChatMessages {
	const thinking = new Map<Json, ThinkingBlock[]>()
	if (typeof input === 'string') return { messages: [{ role: 'user', content: input }], thinking }
	if (input === undefined || input === null) return { messages: [], thinking }
	if (!Array.isArray(input)) throw relayErrors.badRequest('input: expected text or a list of input items')
	const messages: Json[] = []
	/** Thinking blocks waiting for the assistant output that followed them. */
	let pending: ThinkingBlock[] | undefined
	const newTurn = (turn: Json): Json => {
		messages.push(turn)
		if (pending) thinking.set(turn, pending)
		pending = undefined
		return turn
	}
	const assistantTurn = (): Json => {
		const last = messages.at(-1)
		if (last?.role === 'assistant' && !pending) return last
		return newTurn({ role: 'assistant', content: null })
	}
	input.forEach((item, index) => {
		if (!isObject(item)) throw relayErrors.badRequest(`input.${index}: expected an input item`)
		const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined)
		switch (type) {
			case 'message': {
				const role = ROLES[text(item.role)]
				if (!role) throw relayErrors.badRequest(`input.${index}.role: expected user, assistant, system or developer`)
				const content = chatContent(item.content, role !== 'user', role === 'assistant' ? ANSWER_PIECES : BLOCKS)
				if (role === 'assistant') {
					const turn = assistantTurn()
					// Text after a tool call starts a new turn; text before one stays with it.
					if (turn.tool_calls) newTurn({ role: 'assistant', content })
					// Another message item is a whole message (Codex's commentary, then its answer): a line apart.
					else turn.content = [text(turn.content), text(content)].filter(Boolean).join(BLOCKS)
				} else {
					// Reasoning no assistant output followed has no turn to go with.
					pending = undefined
					messages.push({ role, content })
				}
				break
			}
			case 'reasoning': {
				const blocks = thinkingOfReasoningItem(item)
				if (blocks) pending = [...(pending ?? []), ...blocks]
				break
			}
			case 'function_call':
			case 'custom_tool_call': {
				const turn = assistantTurn()
				const call = { id: text(item.call_id), type: 'function', function: { name: text(item.name), arguments: type === 'function_call' ? text(item.arguments) : text(item.input) } }
				turn.tool_calls = [...(turn.tool_calls ?? []), call]
				break
			}
			case 'function_call_output':
			case 'custom_tool_call_output':
				pending = undefined
				messages.push({ role: 'tool', tool_call_id: text(item.call_id), content: chatContent(item.output, true, BLOCKS) })
				break
			// hosted tools' calls and their outputs, item references: nothing a chat upstream can take.
		}
	})
	return { messages, thinking }
}

/** Function tools → chat's tools; every other tool is one the chat upstream cannot run, and is left out. */
function chatTools(tools: unknown): Json[] {
	if (!Array.isArray(tools)) return []
	return tools.filter((tool) => isObject(tool) && tool.type === 'function' && typeof tool.name === 'string').map((tool: Json) => ({
		type: 'function',
		function: {
			name: tool.name,
			...(typeof tool.description === 'string' ? { description: tool.description } : {}),
			...(isObject(tool.parameters) ? { parameters: tool.parameters } : {}),
			...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
		},
	}))
}

/** `tool_choice` for the tools kept: a named function stays named, a choice of a left-out tool becomes `auto`. */
function chatToolChoice(choice: unknown, kept: Json[]): unknown {
	if (choice === 'auto' || choice === 'none' || choice === 'required') return choice
	if (!isObject(choice)) return undefined
	if (choice.type === 'function' && kept.some((tool) => tool.function.name === choice.name)) return { type: 'function', function: { name: choice.name } }
	if (choice.type === 'allowed_tools' && (choice.mode === 'auto' || choice.mode === 'required')) return choice.mode
	return 'auto'
}

function responseFormat(format: unknown): Json | undefined {
	if (!isObject(format)) return undefined
	if (format.type === 'json_object') return { type: 'json_object' }
	if (format.type !== 'json_schema') return undefined
	const { type: _, ...schema } = format
	return { type: 'json_schema', json_schema: schema }
}

/** Checks the fields the bridge reads; throws a 400 naming the field. */
function checkRequest(request: Json) {
	if (request.background === true) throw relayErrors.badRequest(BACKGROUND_REFUSED)
	if (request.instructions !== undefined && request.instructions !== null && typeof request.instructions !== 'string') throw relayErrors.badRequest('instructions: expected text')
	if (request.tools !== undefined && request.tools !== null && !Array.isArray(request.tools)) throw relayErrors.badRequest('tools: expected a list')
	if (request.reasoning !== undefined && request.reasoning !== null && !isObject(request.reasoning)) throw relayErrors.badRequest('reasoning: expected an object')
	const limit = request.max_output_tokens
	if (limit !== undefined && limit !== null && !(Number.isInteger(limit) && (limit as number) > 0 && (limit as number) <= MAX_TOKEN_LIMIT)) {
		throw relayErrors.badRequest(`max_output_tokens: expected a whole number of tokens up to ${MAX_TOKEN_LIMIT}`)
	}
	if (request.stream !== undefined && request.stream !== null && typeof request.stream !== 'boolean') throw relayErrors.badRequest('stream: expected a boolean')
}

/**
 * The canonical chat body of a Responses request. With `nativeOnly` set the body serves only to hold
 * and route by (the request goes to a channel that speaks the API), so an input left empty is fine.
 */
export function chatBodyFromResponses(request: unknown, nativeOnly: boolean): Json {
	return chatRequestFromResponses(request, nativeOnly).body
}

/** The canonical chat body of a Responses request with its extras: the thinking blocks of the reasoning items Ferry made. */
export function chatRequestFromResponses(request: unknown, nativeOnly: boolean): ConvertedBody {
	if (!isObject(request)) throw relayErrors.badRequest('the request body must be a JSON object')
	checkRequest(request)
	const { messages, thinking } = chatMessages(request.input)
	if (typeof request.instructions === 'string' && request.instructions) messages.unshift({ role: 'system', content: request.instructions })
	if (messages.length === 0) {
		if (!nativeOnly) throw relayErrors.badRequest('input: the request has no input')
		messages.push({ role: 'user', content: '' })
	}
	const tools = chatTools(request.tools)
	const body: Json = { model: request.model, messages }
	const reasoning = isObject(request.reasoning) ? request.reasoning : {}
	const optional: Json = {
		stream: request.stream === true ? true : undefined,
		// The usage arrives in the stream's last chunk, which the bridged response.completed carries.
		stream_options: request.stream === true ? { include_usage: true } : undefined,
		max_tokens: request.max_output_tokens,
		temperature: request.temperature,
		top_p: request.top_p,
		reasoning_effort: typeof reasoning.effort === 'string' ? reasoning.effort : undefined,
		response_format: isObject(request.text) ? responseFormat(request.text.format) : undefined,
		tools: tools.length > 0 ? tools : undefined,
		tool_choice: tools.length > 0 ? chatToolChoice(request.tool_choice, tools) : undefined,
		parallel_tool_calls: tools.length > 0 && typeof request.parallel_tool_calls === 'boolean' ? request.parallel_tool_calls : undefined,
		user: typeof request.user === 'string' ? request.user : undefined,
	}
	for (const [field, value] of Object.entries(optional)) if (value !== undefined && value !== null) body[field] = value
	const extras = thinking.size > 0 ? messages.map((message): MessageExtras | null => (thinking.has(message) ? { thinking: thinking.get(message) } : null)) : undefined
	return { body, extras: requestExtras({ messages: extras }) }
}
