/**
 * A channel's extra setting (shared/channel-setting.ts) applied to one call, in one place: what
 * openUpstream (open.ts) sends and how it reads the answer. The rules, as docs/specification/channels.md
 * states them:
 *
 * - `pass_through_body_enabled`: when the channel takes the client's own format (an OpenAI client on
 *   an OpenAI-format channel, a Claude or Gemini client on a channel of its format), the client's body
 *   goes as its bytes: no model mapping, no usage asked for, none of the keys below. Otherwise it is
 *   ignored.
 * - `system_prompt` (chat): added as the first message when the request has no system (or developer)
 *   message; with `system_prompt_override`, also when it has one: the channel's prompt then goes
 *   before that message's text, separated by a blank line.
 * - `force_format` (OpenAI-format channels): the request keeps only the fields OpenAI documents for
 *   the endpoint (chat, completions, embeddings), and chat messages only OpenAI's message fields.
 * - `thinking_to_content` (chat answers in OpenAI's form): reasoning (`reasoning_content`, or
 *   `reasoning`) becomes the answer's text inside `<think>…</think>`, before the rest of it.
 *
 * A channel whose setting changes the body takes a client's own format converted, unless only that
 * format will do (then the body goes as the client sent it, and the setting does not apply).
 */
import type { ChannelSetting } from '@shared/channel-setting'
import type { EventReader, Json, ReadEvent } from '../formats/events'
import { isObject } from '../formats/json'
import type { NativeRequest, RelayEndpoint } from '../providers/types'

/** Whether the setting changes a request's body (so a client's own request cannot pass through unchanged). */
export function changesBody(setting: ChannelSetting): boolean {
	return !setting.pass_through_body_enabled && (Boolean(setting.system_prompt) || setting.force_format === true || setting.thinking_to_content === true)
}

/** The client's own request, when the channel's setting lets it pass through (or only it will do). */
export function nativeFor(setting: ChannelSetting, native: NativeRequest | undefined): NativeRequest | undefined {
	return native && (native.required !== undefined || !changesBody(setting)) ? native : undefined
}

const CHAT_FIELDS = new Set([
	'model', 'messages', 'audio', 'frequency_penalty', 'function_call', 'functions', 'logit_bias', 'logprobs', 'max_completion_tokens', 'max_tokens',
	'metadata', 'modalities', 'n', 'parallel_tool_calls', 'prediction', 'presence_penalty', 'prompt_cache_key', 'reasoning_effort', 'response_format',
	'safety_identifier', 'seed', 'service_tier', 'stop', 'store', 'stream', 'stream_options', 'temperature', 'tool_choice', 'tools', 'top_logprobs',
	'top_p', 'user', 'verbosity', 'web_search_options',
])
const MESSAGE_FIELDS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'function_call', 'refusal', 'audio'])
/** OpenAI's documented request fields by endpoint; an endpoint not named here is sent as it is. */
const OPENAI_FIELDS: Partial<Record<RelayEndpoint, Set<string>>> = {
	chat: CHAT_FIELDS,
	completions: new Set([
		'model', 'prompt', 'best_of', 'echo', 'frequency_penalty', 'logit_bias', 'logprobs', 'max_tokens', 'n', 'presence_penalty', 'seed', 'stop',
		'stream', 'stream_options', 'suffix', 'temperature', 'top_p', 'user',
	]),
	embeddings: new Set(['model', 'input', 'dimensions', 'encoding_format', 'user']),
}

const only = (value: Record<string, unknown>, fields: Set<string>) => Object.fromEntries(Object.entries(value).filter(([field]) => fields.has(field)))

/** The request in OpenAI's documented shape: unknown fields dropped, chat messages' too. */
function strictlyOpenAI(endpoint: RelayEndpoint, body: Record<string, unknown>): Record<string, unknown> {
	const fields = OPENAI_FIELDS[endpoint]
	if (!fields) return body
	const shaped = only(body, fields)
	if (endpoint === 'chat' && Array.isArray(shaped.messages)) shaped.messages = shaped.messages.map((message) => isObject(message) ? only(message, MESSAGE_FIELDS) : message)
	return shaped
}

const isInstruction = (message: unknown) => isObject(message) && (message.role === 'system' || message.role === 'developer')

/** The messages with the channel's system prompt added, or the same array when nothing is to be added. */
function withSystemPrompt(messages: unknown[], prompt: string, override: boolean): unknown[] {
	const first = messages.findIndex(isInstruction)
	if (first < 0) return [{ role: 'system', content: prompt }, ...messages]
	if (!override) return messages
	const message = messages[first] as Json
	const content = typeof message.content === 'string'
		? `${prompt}\n\n${message.content}`
		: Array.isArray(message.content) ? [{ type: 'text', text: prompt }, ...message.content] : prompt
	return messages.map((each, index) => index === first ? { ...message, content } : each)
}

/**
 * The OpenAI-form body the channel gets, with its setting applied: `openAIFormat` when the body goes
 * to an OpenAI-format upstream as it is (force_format applies only then). Answers `body` itself when
 * nothing changes.
 */
export function applySetting(setting: ChannelSetting, endpoint: RelayEndpoint, body: Record<string, unknown>, openAIFormat: boolean): Record<string, unknown> {
	let applied = body
	if (endpoint === 'chat' && setting.system_prompt && Array.isArray(body.messages)) {
		const messages = withSystemPrompt(body.messages, setting.system_prompt, setting.system_prompt_override === true)
		if (messages !== body.messages) applied = { ...applied, messages }
	}
	if (openAIFormat && setting.force_format) applied = strictlyOpenAI(endpoint, applied)
	return applied
}

const THINK_OPEN = '<think>'
const THINK_CLOSE = '</think>'

/** The reasoning text a message or delta carries, and removes its reasoning fields; undefined when it has none. */
function takeReasoning(part: Json): { reasoning: string | undefined; had: boolean } {
	const had = 'reasoning_content' in part || 'reasoning' in part
	const value = part.reasoning_content ?? part.reasoning
	delete part.reasoning_content
	delete part.reasoning
	return { reasoning: typeof value === 'string' && value !== '' ? value : undefined, had }
}

/** A whole chat answer with each choice's reasoning moved into its text; the same object when it has none. */
export function thinkingAsContent(answer: Json): { answer: Json; changed: boolean } {
	if (!Array.isArray(answer.choices)) return { answer, changed: false }
	let changed = false
	for (const choice of answer.choices) {
		const message = isObject(choice) ? choice.message : undefined
		if (!isObject(message)) continue
		const { reasoning, had } = takeReasoning(message)
		if (!had) continue
		changed = true
		if (reasoning) message.content = `${THINK_OPEN}${reasoning}${THINK_CLOSE}${typeof message.content === 'string' ? message.content : ''}`
	}
	return { answer, changed }
}

/**
 * A chat stream with reasoning deltas written as text: `<think>` before a choice's first reasoning,
 * `</think>` before the first delta after it that is not reasoning (text, a tool call, or the choice's
 * end). Events it changes lose their upstream bytes, so they are encoded from their data.
 */
export function thinkingAsContentEvents(events: EventReader<ReadEvent>): EventReader<ReadEvent> {
	/** Choices (by index) inside an open `<think>`. */
	const thinking = new Set<number>()
	const rewrite = (data: Json): boolean => {
		if (!Array.isArray(data.choices)) return false
		let changed = false
		for (const choice of data.choices) {
			if (!isObject(choice) || !isObject(choice.delta)) continue
			const { delta } = choice
			const index = typeof choice.index === 'number' ? choice.index : 0
			const { reasoning, had } = takeReasoning(delta)
			if (had) changed = true
			const text = typeof delta.content === 'string' ? delta.content : ''
			const moves = text !== '' || delta.tool_calls !== undefined || (choice.finish_reason !== null && choice.finish_reason !== undefined)
			if (reasoning) {
				const open = thinking.has(index) ? '' : THINK_OPEN
				thinking.add(index)
				const close = moves ? THINK_CLOSE : ''
				if (moves) thinking.delete(index)
				delta.content = `${open}${reasoning}${close}${text}`
				changed = true
			} else if (thinking.has(index) && moves) {
				thinking.delete(index)
				delta.content = `${THINK_CLOSE}${text}`
				changed = true
			}
		}
		return changed
	}
	return {
		async read() {
			const batch = await events.read()
			return {
				done: batch.done,
				events: batch.events.map((event) => event.type === 'data' && rewrite(event.data) ? { type: 'data', data: event.data } : event),
			}
		},
		cancel: (reason) => events.cancel(reason),
	}
}
