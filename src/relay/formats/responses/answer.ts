/**
 * A chat completion → a Responses API response object (bridged channels). The output items come in
 * the order a model produces them: reasoning (`reasoning_content`, as `reasoning_text`, or as
 * `summary_text` when the request asked for a summary), the message
 * (text, or a refusal), then the function calls. A client that asked for
 * `reasoning.encrypted_content` gets the thinking blocks in the reasoning item (reasoning-items.ts). A completion cut by its token limit or a content
 * filter is `incomplete` with that reason. The request's settings are echoed as the API does; `store`
 * is false, since Ferry keeps no bridged response.
 */
import { thinkingBlocksOf, type ThinkingBlock } from '../claude/thinking'
import type { Json } from '../events'
import { isObject } from '../json'
import { ENCRYPTED_REASONING, encryptedThinking, thinkingOfAnswer } from './reasoning-items'
import { responsesUsageFromChat } from './usage'

/** A new id with the API's prefix for its kind (`resp`, `msg`, `fc`, `rs`). */
export const itemId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`

/** The request's settings as a response repeats them; built once per request. */
export function responseEcho(request: Json): Json {
	const reasoning = isObject(request.reasoning) ? request.reasoning : {}
	const text = isObject(request.text) ? request.text : {}
	return {
		background: false,
		instructions: typeof request.instructions === 'string' ? request.instructions : null,
		max_output_tokens: typeof request.max_output_tokens === 'number' ? request.max_output_tokens : null,
		parallel_tool_calls: typeof request.parallel_tool_calls === 'boolean' ? request.parallel_tool_calls : true,
		previous_response_id: null,
		reasoning: { effort: typeof reasoning.effort === 'string' ? reasoning.effort : null, summary: typeof reasoning.summary === 'string' ? reasoning.summary : null },
		store: false,
		temperature: typeof request.temperature === 'number' ? request.temperature : null,
		text: { ...text, format: isObject(text.format) ? text.format : { type: 'text' } },
		tool_choice: request.tool_choice ?? 'auto',
		tools: Array.isArray(request.tools) ? request.tools : [],
		top_p: typeof request.top_p === 'number' ? request.top_p : null,
		truncation: 'disabled',
		user: typeof request.user === 'string' ? request.user : null,
		metadata: isObject(request.metadata) ? request.metadata : {},
	}
}

/** Who a response is: its id, when it was created (Unix seconds), the model the client asked for and the echoed settings. */
export interface ResponseIdentity {
	id: string
	createdAt: number
	model: string
	echo: Json
	/** The client asked for `reasoning.encrypted_content` (`include`): reasoning items carry the thinking blocks (reasoning-items.ts). */
	encryptedReasoning?: boolean
}

/** A new response's identity for a request (`createdAt` in Unix seconds). */
export function responseIdentity(request: Json, model: string, createdAt: number): ResponseIdentity {
	const encryptedReasoning = Array.isArray(request.include) && request.include.includes(ENCRYPTED_REASONING)
	return { id: itemId('resp'), createdAt, model, echo: responseEcho(request), ...(encryptedReasoning ? { encryptedReasoning } : {}) }
}

type Status = 'in_progress' | 'completed' | 'incomplete' | 'failed'

/** How a chat finish reason ends a response: `incomplete` (with its reason) or `completed`. */
export function endOf(finishReason: unknown): { status: Status; incomplete: Json | null } {
	if (finishReason === 'length') return { status: 'incomplete', incomplete: { reason: 'max_output_tokens' } }
	if (finishReason === 'content_filter') return { status: 'incomplete', incomplete: { reason: 'content_filter' } }
	return { status: 'completed', incomplete: null }
}

export function responseObject(identity: ResponseIdentity, status: Status, output: Json[], extra: { usage?: Json | null; incomplete?: Json | null; error?: Json | null } = {}): Json {
	const { echo } = identity
	return {
		id: identity.id,
		object: 'response',
		created_at: identity.createdAt,
		status,
		background: echo.background,
		error: extra.error ?? null,
		incomplete_details: extra.incomplete ?? null,
		instructions: echo.instructions,
		max_output_tokens: echo.max_output_tokens,
		model: identity.model,
		output,
		parallel_tool_calls: echo.parallel_tool_calls,
		previous_response_id: echo.previous_response_id,
		reasoning: echo.reasoning,
		store: echo.store,
		temperature: echo.temperature,
		text: echo.text,
		tool_choice: echo.tool_choice,
		tools: echo.tools,
		top_p: echo.top_p,
		truncation: echo.truncation,
		usage: extra.usage ?? null,
		user: echo.user,
		metadata: echo.metadata,
	}
}

/**
 * Whether the client asked for a reasoning summary (`reasoning.summary`): the upstream's reasoning
 * then comes as the item's `summary` (Claude 4 and Gemini send summaries of their thinking anyway),
 * else as its `content` (`reasoning_text`).
 */
export const wantsSummary = (identity: ResponseIdentity) => isObject(identity.echo.reasoning) && typeof identity.echo.reasoning.summary === 'string'

/** A reasoning item; `encrypted`, when the client asked for it, is the thinking blocks (reasoning-items.ts). */
export function reasoningItem(id: string, text: string, status: Status, asSummary = false, encrypted?: string): Json {
	const item: Json = asSummary
		? { id, type: 'reasoning', summary: text ? [{ type: 'summary_text', text }] : [], status }
		: { id, type: 'reasoning', summary: [], content: text ? [{ type: 'reasoning_text', text }] : [], status }
	if (encrypted !== undefined) item.encrypted_content = encrypted
	return item
}

/** The `encrypted_content` of a reasoning item with these blocks, when the client asked for it and there are some. */
export const encryptedFor = (identity: ResponseIdentity, blocks: readonly ThinkingBlock[]) => (identity.encryptedReasoning && blocks.length > 0 ? encryptedThinking(blocks) : undefined)

export const outputText = (text: string): Json => ({ type: 'output_text', text, annotations: [], logprobs: [] })

export const messageItem = (id: string, content: Json[], status: Status): Json => ({ id, type: 'message', status, role: 'assistant', content })

export const functionCallItem = (id: string, call: { callId: string; name: string; arguments: string }, status: Status): Json => ({
	id, type: 'function_call', status, call_id: call.callId, name: call.name, arguments: call.arguments,
})

/** A whole chat completion (OpenAI's form) → the response object. */
export function responseFromChat(answer: Json, identity: ResponseIdentity): Json {
	const choice: Json = Array.isArray(answer.choices) ? answer.choices[0] ?? {} : {}
	const message: Json = isObject(choice.message) ? choice.message : {}
	const output: Json[] = []
	const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : ''
	// A redacted block has no text: its item is there for the block alone, when the client keeps it.
	const encrypted = encryptedFor(identity, thinkingOfAnswer(thinkingBlocksOf(message), reasoning))
	if (reasoning || encrypted) output.push(reasoningItem(itemId('rs'), reasoning, 'completed', wantsSummary(identity), encrypted))
	const content: Json[] = []
	if (typeof message.content === 'string' && message.content) content.push(outputText(message.content))
	if (typeof message.refusal === 'string' && message.refusal) content.push({ type: 'refusal', refusal: message.refusal })
	if (content.length > 0) output.push(messageItem(itemId('msg'), content, 'completed'))
	for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
		if (!isObject(call) || !isObject(call.function)) continue
		const name = typeof call.function.name === 'string' ? call.function.name : ''
		const args = typeof call.function.arguments === 'string' ? call.function.arguments : ''
		output.push(functionCallItem(itemId('fc'), { callId: typeof call.id === 'string' ? call.id : itemId('call'), name, arguments: args }, 'completed'))
	}
	const { status, incomplete } = endOf(choice.finish_reason)
	return responseObject(identity, status, output, { usage: responsesUsageFromChat(answer.usage), incomplete })
}
