/**
 * OpenAI chat request → Claude Messages request. System and developer messages become `system`;
 * consecutive turns of one role merge (tool results and the user text after them share one user
 * turn, as Claude expects); `tool_calls` become `tool_use` blocks and `tool` messages `tool_result`
 * blocks, ids unchanged. What a Claude client said that OpenAI's form has no field for comes back
 * from the request's extras (formats/canonical.ts): thinking blocks, `is_error`, a tool result's
 * `cache_control`, `top_k` and `thinking`. An OpenAI client's `reasoning_effort` becomes thinking
 * (thinking-effort.ts) unless the request sets `thinking` itself.
 */
import { sourceFromUrl } from '../../formats/claude/images'
import { type MessageExtras, messageExtras, NO_EXTRAS, type RequestExtras, topKOf } from '../../formats/canonical'
import { parseClientJson } from '../../formats/json'
import { DEFAULT_MAX_TOKENS } from './limits'
import { claudeStructuredOutput } from './structured-output'
import { claudeThinkingFromEffort } from './thinking-effort'

export { DEFAULT_MAX_TOKENS }

type Json = Record<string, unknown>
type Block = Json
type Turn = { role: 'user' | 'assistant'; content: Block[] }

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Fields Claude reads on a block besides its own data: prompt caching. */
function withCacheControl(block: Block, part: Json): Block {
	return isObject(part.cache_control) ? { ...block, cache_control: part.cache_control } : block
}

function partToBlock(part: unknown): Block | undefined {
	if (typeof part === 'string') return { type: 'text', text: part }
	if (!isObject(part)) return undefined
	if (part.type === 'text' && typeof part.text === 'string') return withCacheControl({ type: 'text', text: part.text }, part)
	if (part.type === 'image_url') {
		const image = part.image_url
		const url = typeof image === 'string' ? image : isObject(image) ? image.url : undefined
		if (typeof url === 'string') return withCacheControl({ type: 'image', source: sourceFromUrl(url) }, part)
	}
	if (part.type === 'file' && isObject(part.file) && typeof part.file.file_data === 'string') {
		return withCacheControl({ type: 'document', source: sourceFromUrl(part.file.file_data) }, part)
	}
	return undefined
}

function contentBlocks(content: unknown): Block[] {
	if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }]
	if (!Array.isArray(content)) return []
	return content.map(partToBlock).filter((block): block is Block => block !== undefined)
}

/** A tool call's arguments as Claude's `input`; too deeply nested arguments are a 400 (parseClientJson). */
function parseArguments(text: unknown): unknown {
	if (typeof text !== 'string' || text.trim() === '') return {}
	try {
		return parseClientJson(text, 'tool_calls[].function.arguments')
	} catch (error) {
		if (!(error instanceof SyntaxError)) throw error
		// Claude wants an object; a model's broken JSON is kept visible rather than dropped.
		return { arguments: text }
	}
}

function assistantBlocks(message: Json, extras: MessageExtras): Block[] {
	// Unsigned thinking came from another upstream's reasoning: Claude would reject it.
	const thinking = (extras.thinking ?? []).filter((block) => block.type !== 'thinking' || block.signature !== '')
	const blocks: Block[] = [...thinking, ...contentBlocks(message.content)]
	if (Array.isArray(message.tool_calls)) {
		for (const call of message.tool_calls) {
			if (!isObject(call) || !isObject(call.function)) continue
			blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) })
		}
	}
	return blocks
}

function toolResultBlock(message: Json, extras: MessageExtras): Block {
	const content = typeof message.content === 'string' ? message.content : contentBlocks(message.content)
	const block: Block = { type: 'tool_result', tool_use_id: message.tool_call_id, content }
	if (extras.isError) block.is_error = true
	return withCacheControl(block, extras.cacheControl ? { cache_control: extras.cacheControl } : message)
}

function systemBlocks(messages: unknown[]) {
	const blocks: Block[] = []
	for (const message of messages) if (isObject(message) && (message.role === 'system' || message.role === 'developer')) blocks.push(...contentBlocks(message.content))
	return blocks
}

/** `messages` as the body has them (entries that are not objects skipped), so each keeps its extras' index. */
function turns(messages: unknown[], extras: RequestExtras): Turn[] {
	const result: Turn[] = []
	for (const [index, message] of messages.entries()) {
		if (!isObject(message)) continue
		let role: Turn['role']
		let blocks: Block[]
		if (message.role === 'assistant') {
			role = 'assistant'
			blocks = assistantBlocks(message, messageExtras(extras, index))
		} else if (message.role === 'tool' || message.role === 'function') {
			role = 'user'
			blocks = [toolResultBlock(message, messageExtras(extras, index))]
		} else if (message.role === 'user') {
			role = 'user'
			blocks = contentBlocks(message.content)
		} else continue
		if (blocks.length === 0) continue
		const last = result.at(-1)
		if (last?.role === role) last.content.push(...blocks)
		else result.push({ role, content: blocks })
	}
	return result
}

function tools(value: unknown) {
	if (!Array.isArray(value) || value.length === 0) return undefined
	return value.filter((tool) => isObject(tool) && isObject(tool.function)).map((tool: Json) => {
		const definition = tool.function as Json
		return withCacheControl({
			name: definition.name,
			...(typeof definition.description === 'string' ? { description: definition.description } : {}),
			input_schema: isObject(definition.parameters) ? definition.parameters : { type: 'object', properties: {} },
		}, tool)
	})
}

function toolChoice(choice: unknown, parallel: unknown) {
	const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {}
	if (choice === 'none') return { type: 'none' }
	if (choice === 'required') return { type: 'any', ...noParallel }
	if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === 'string') return { type: 'tool', name: choice.function.name, ...noParallel }
	if (choice === 'auto' || parallel === false) return { type: 'auto', ...noParallel }
	return undefined
}

function stopSequences(stop: unknown) {
	if (typeof stop === 'string') return [stop]
	if (Array.isArray(stop) && stop.length > 0) return stop.filter((item) => typeof item === 'string')
	return undefined
}

/**
 * Whether the conversation is inside a tool loop whose thinking did not come back: the last assistant
 * turn calls tools and does not start with a thinking block. Claude refuses thinking then.
 */
function toolLoopWithoutThinking(claudeTurns: Turn[]): boolean {
	const last = claudeTurns.findLast((turn) => turn.role === 'assistant')
	if (!last || !last.content.some((block) => block.type === 'tool_use')) return false
	const first = last.content[0]?.type
	return first !== 'thinking' && first !== 'redacted_thinking'
}

/** Sampling settings Claude refuses while thinking: no `temperature` or `top_k`, `top_p` only from 0.95 to 1. */
function samplingWhileThinking(body: Json): Json {
	const topP = body.top_p
	return { temperature: undefined, top_k: undefined, top_p: typeof topP === 'number' && topP >= 0.95 && topP <= 1 ? topP : undefined }
}

export function claudeRequestBody(body: Json, extras: RequestExtras = NO_EXTRAS): Json {
	const messages: unknown[] = Array.isArray(body.messages) ? body.messages : []
	const system = systemBlocks(messages)
	const limit = body.max_completion_tokens ?? body.max_tokens
	// The request's own `thinking` (a Claude client's, or an OpenAI client's field) wins over `reasoning_effort`.
	const ownThinking = extras.thinking ?? body.thinking
	const claudeTurns = turns(messages, extras)
	const fromEffort = (ownThinking === undefined || ownThinking === null) && !toolLoopWithoutThinking(claudeTurns) ? claudeThinkingFromEffort(body) : undefined
	const request: Json = {
		model: body.model,
		messages: claudeTurns,
		max_tokens: fromEffort?.maxTokens ?? (typeof limit === 'number' && limit > 0 ? limit : DEFAULT_MAX_TOKENS),
	}
	if (system.length > 0) request.system = system
	const thinking = ownThinking ?? fromEffort?.thinking
	const claudeTools = tools(body.tools)
	// `response_format`: `output_config.format`, or the tool fallback (structured-output.ts), which replaces tools and choice.
	const structured = claudeStructuredOutput(body, claudeTools, isObject(thinking) && thinking.type !== 'disabled')
	const outputConfig = fromEffort?.effort ? { ...(isObject(structured.output_config) ? structured.output_config : {}), effort: fromEffort.effort } : structured.output_config
	const optional: Json = {
		temperature: body.temperature,
		top_p: body.top_p,
		// A Claude-format client's settings ride as Ferry's extras (formats/canonical.ts); an OpenAI client's as its own fields.
		top_k: topKOf(body, extras),
		// Thinking Ferry turned on must not fail on settings the client wrote for a model that did not think.
		...(fromEffort ? samplingWhileThinking(body) : {}),
		thinking,
		stop_sequences: stopSequences(body.stop),
		tools: claudeTools,
		tool_choice: Array.isArray(body.tools) && body.tools.length > 0 ? toolChoice(body.tool_choice, body.parallel_tool_calls) : undefined,
		metadata: typeof body.user === 'string' ? { user_id: body.user } : undefined,
		stream: body.stream === true ? true : undefined,
		...structured,
		output_config: outputConfig,
	}
	for (const [field, value] of Object.entries(optional)) if (value !== undefined && value !== null) request[field] = value
	return request
}
