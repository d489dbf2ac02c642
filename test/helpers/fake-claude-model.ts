/**
 * A fake Anthropic Messages API on loopback (`POST /v1/messages`, streaming or not), answering as
 * the documented API does and as a model constrained by the request would:
 *
 * - plain text: "Hello from fake-claude";
 * - structured outputs (`output_config.format`, or the older `output_format`): JSON fitting the
 *   schema as the text block. As the API, it refuses (400) a model before Claude 4.5 and a schema
 *   outside the subset it takes (an object without `additionalProperties: false`, numeric or length
 *   bounds);
 * - `tool_choice` `tool` or `any` (and `auto` with `toolCalls`): a `tool_use` block of the named (or
 *   first) tool, its input fitting the tool's `input_schema`, stop reason `tool_use`.
 *
 * - thinking (`thinking: {type: 'enabled', budget_tokens}`, or `adaptive`): a signed `thinking` block
 *   first ("Thinking it over." in pieces, streamed as `thinking_delta`s and a `signature_delta`). As
 *   the API, it refuses (400) a budget under 1024 or not below `max_tokens`, `temperature` other than
 *   1, `top_k`, `top_p` under 0.95, a forced tool with a budget, thinking on a model before Claude
 *   3.7, a budget on Claude 4.7 and later, adaptive thinking before Claude 4.6, and thinking while the
 *   last assistant turn calls tools without starting with its thinking block. Thinking blocks sent
 *   back must be its own, as the API checks their signatures: a `thinking` block whose signature or
 *   text is not what it answered is refused ("Invalid `signature` in `thinking` block"), thinking
 *   enabled or not.
 *
 * Usage: `input_tokens` is ceil(prompt characters / 4), `output_tokens` the number of text pieces (1
 * for JSON and tool input, 0 for an empty answer) plus the thinking pieces (thinking is output).
 * Every request is recorded.
 */
import { sampleOf } from './schema-sample'

type Json = Record<string, any>

export interface FakeClaudeModelOptions {
	/** When set, any other `x-api-key` is answered 401. */
	apiKey?: string
	/** Answer `tool_choice: auto` with a call of the first tool too. */
	toolCalls?: boolean
	/** Answer plain requests as the API does when the model stops at once: an empty content list, no output tokens. */
	empty?: boolean
}

export interface FakeClaudeModel {
	url: string
	requests: { path: string; headers: Record<string, string>; body: Json }[]
	stop(): Promise<void>
}

const NATIVE_STRUCTURED = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?/
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'minProperties', 'maxProperties']

function supportsStructured(model: string) {
	const match = NATIVE_STRUCTURED.exec(model)
	if (!match) return false
	const major = Number(match[1])
	return major > 4 || (major === 4 && Number(match[2] ?? 0) >= 5)
}

/** The first part of the schema the API would refuse, or undefined. */
function schemaProblem(schema: unknown, path = 'schema'): string | undefined {
	if (Array.isArray(schema)) {
		for (const [index, item] of schema.entries()) {
			const problem = schemaProblem(item, `${path}.${index}`)
			if (problem) return problem
		}
		return undefined
	}
	if (typeof schema !== 'object' || schema === null) return undefined
	const node = schema as Json
	const isObjectType = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))
	if (isObjectType && node.additionalProperties !== false) return `${path}: For 'object' type, 'additionalProperties' must be explicitly set to false`
	for (const bound of BOUNDS) if (bound in node) return `${path}: '${bound}' is not supported`
	for (const [keyword, value] of Object.entries(node)) {
		if (keyword === 'properties' || keyword === '$defs' || keyword === 'definitions') {
			for (const [name, inner] of Object.entries(value as Json)) {
				const problem = schemaProblem(inner, `${path}.${keyword}.${name}`)
				if (problem) return problem
			}
		} else if (keyword === 'items' || keyword === 'anyOf' || keyword === 'allOf') {
			const problem = schemaProblem(value, `${path}.${keyword}`)
			if (problem) return problem
		}
	}
	return undefined
}

/** The thinking text a thinking request gets, in the pieces a stream sends it in. */
export const FAKE_THINKING = ['Thinking', ' it', ' over.']
export const FAKE_SIGNATURE = 'EqQBCkYIBxgCKkBfakeSignature'

const VERSION = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?|claude-(\d)-(\d)-(?:opus|sonnet|haiku)/

function versionOf(model: string): number {
	const match = VERSION.exec(model)
	if (!match) return 0
	return match[1] ? Number(match[1]) + Number(match[2] ?? 0) / 10 : Number(match[3]) + Number(match[4]) / 10
}

/** A thinking block sent back that the fake did not sign (as the API checks signatures), or undefined. */
function forgedThinking(body: Json): string | undefined {
	const messages: Json[] = Array.isArray(body.messages) ? body.messages : []
	for (const [index, message] of messages.entries()) {
		const blocks: Json[] = Array.isArray(message?.content) ? message.content : []
		for (const [position, block] of blocks.entries()) {
			if (block?.type === 'thinking' && (block.signature !== FAKE_SIGNATURE || block.thinking !== FAKE_THINKING.join(''))) return `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block`
		}
	}
	return undefined
}

/** What the API answers a thinking request it refuses, or undefined. */
function thinkingProblem(body: Json): string | undefined {
	const forged = forgedThinking(body)
	if (forged) return forged
	const thinking = body.thinking
	if (!thinking || thinking.type === 'disabled') return undefined
	const version = versionOf(String(body.model))
	if (version < 3.7) return `'${body.model}' does not support thinking.`
	if (thinking.type === 'enabled') {
		if (version >= 4.7) return 'thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort to control thinking behavior.'
		if (typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'
		if (thinking.budget_tokens >= body.max_tokens) return '`max_tokens` must be greater than `thinking.budget_tokens`.'
	} else if (thinking.type === 'adaptive') {
		if (version < 4.6) return `adaptive thinking is not supported on '${body.model}'.`
	} else return 'thinking.type: Input tag does not match any of the expected tags'
	if (body.temperature !== undefined && body.temperature !== 1) return '`temperature` may only be set to 1 when thinking is enabled.'
	if (body.top_k !== undefined) return '`top_k` must be unset when thinking is enabled.'
	if (body.top_p !== undefined && body.top_p < 0.95) return '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.'
	if (thinking.type === 'enabled' && (body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool')) return 'Thinking may not be enabled when tool_choice forces tool use.'
	const messages: Json[] = Array.isArray(body.messages) ? body.messages : []
	const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant')
	const turn = messages[lastAssistant]
	const blocks: Json[] = Array.isArray(turn?.content) ? turn.content : []
	if (blocks.some((block) => block.type === 'tool_use') && blocks[0]?.type !== 'thinking' && blocks[0]?.type !== 'redacted_thinking') {
		return `messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks).`
	}
	return undefined
}

const claudeError = (status: number, type: string, message: string) => Response.json({ type: 'error', error: { type, message } }, { status })

function promptText(body: Json): string {
	const texts: string[] = []
	const walk = (value: unknown) => {
		if (typeof value === 'string') texts.push(value)
		else if (Array.isArray(value)) value.forEach(walk)
		else if (value && typeof value === 'object') {
			const record = value as Json
			if (typeof record.text === 'string') texts.push(record.text)
			else if (record.content !== undefined) walk(record.content)
		}
	}
	walk(body.system)
	walk(body.messages)
	return texts.join('\n')
}

export function startFakeClaudeModel(options: FakeClaudeModelOptions = {}): FakeClaudeModel {
	const requests: FakeClaudeModel['requests'] = []
	let sequence = 0

	function answer(body: Json): Response {
		const refused = thinkingProblem(body)
		if (refused) return claudeError(400, 'invalid_request_error', refused)
		const thinks = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive'
		const format = body.output_config?.format ?? body.output_format
		const tools: Json[] = Array.isArray(body.tools) ? body.tools : []
		const choice = body.tool_choice
		let content: Json[]
		let stopReason = 'end_turn'
		let pieces: string[]
		if (format) {
			if (!supportsStructured(String(body.model))) return claudeError(400, 'invalid_request_error', `'${body.model}' does not support output_config.format.`)
			if (format.type !== 'json_schema') return claudeError(400, 'invalid_request_error', 'output_config.format.type: Input should be \'json_schema\'')
			const problem = schemaProblem(format.schema)
			if (problem) return claudeError(400, 'invalid_request_error', `output_config.format.${problem}`)
			const text = JSON.stringify(sampleOf(format.schema))
			content = [{ type: 'text', text }]
			pieces = [text]
		} else {
			const forced = choice?.type === 'tool' ? tools.find((tool) => tool.name === choice.name) : choice?.type === 'any' || (options.toolCalls && choice?.type !== 'none') ? tools[0] : undefined
			if (forced) {
				const input = sampleOf(forced.input_schema ?? { type: 'object' })
				content = [{ type: 'tool_use', id: `toolu_fake_${sequence}`, name: forced.name, input }]
				stopReason = 'tool_use'
				pieces = [JSON.stringify(input)]
			} else if (options.empty) {
				pieces = []
				content = []
			} else {
				pieces = ['Hello', ' from', ' fake-claude']
				content = [{ type: 'text', text: pieces.join('') }]
			}
		}
		if (thinks) content = [{ type: 'thinking', thinking: FAKE_THINKING.join(''), signature: FAKE_SIGNATURE }, ...content]
		const usage = { input_tokens: Math.max(1, Math.ceil(promptText(body).length / 4)), output_tokens: pieces.length + (thinks ? FAKE_THINKING.length : 0), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
		const message = { id: `msg_fake_${sequence}`, type: 'message', role: 'assistant', model: body.model, content, stop_reason: stopReason, stop_sequence: null, usage }
		if (!body.stream) return Response.json(message)
		const event = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
		let text = event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens) } } })
		content.forEach((block, index) => {
			if (block.type === 'thinking') {
				text += event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
				for (const piece of FAKE_THINKING) text += event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } })
				text += event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } })
			} else if (block.type === 'text') {
				text += event('content_block_start', { index, content_block: { type: 'text', text: '' } })
				for (const piece of pieces) text += event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } })
			} else {
				text += event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } })
				const json = JSON.stringify(block.input)
				const half = Math.ceil(json.length / 2)
				for (const part of [json.slice(0, half), json.slice(half)]) text += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } })
			}
			text += event('content_block_stop', { index })
		})
		text += event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } })
		text += event('message_stop', {})
		return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
	}

	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const url = new URL(request.url)
			const raw = request.method === 'POST' ? await request.text() : ''
			let body: Json
			try {
				body = raw ? JSON.parse(raw) : {}
			} catch {
				return claudeError(400, 'invalid_request_error', 'There was an issue with the format or content of your request.')
			}
			requests.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body })
			sequence++
			if (options.apiKey !== undefined && request.headers.get('x-api-key') !== options.apiKey) return claudeError(401, 'authentication_error', 'invalid x-api-key')
			if (!request.headers.get('anthropic-version')) return claudeError(400, 'invalid_request_error', 'anthropic-version: header is required')
			if (request.method !== 'POST' || url.pathname !== '/v1/messages') return claudeError(404, 'not_found_error', 'Not found')
			if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) return claudeError(400, 'invalid_request_error', 'model, max_tokens and messages: Field required')
			return answer(body)
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}
