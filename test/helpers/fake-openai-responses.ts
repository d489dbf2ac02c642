/**
 * OpenAI's Responses API as the fake upstream (fake-openai.ts) answers it, over HTTP and over its
 * WebSocket mode alike: the response object of a create request and its stream events in the
 * documented sequence (`response.created`, `response.in_progress`, the output item's added / delta /
 * done events, `response.completed`, each with its `sequence_number`), and `POST /v1/responses/compact`'s
 * compacted response (`object: 'response.compaction'`: the user messages, then one `compaction` item).
 *
 * The answer: JSON fitting `text.format`'s schema for structured output, a `function_call` of the
 * first function tool when the request requires a tool (or `toolCalls` is set), else the reply text.
 * Usage: `input_tokens` is ceil(input characters / 4) unless fixed, `cached_tokens` as configured,
 * `output_tokens` the number of reply pieces.
 */
import { sampleOf } from './schema-sample'

type Json = Record<string, any>

export interface ResponsesSettings {
	replyText: string
	promptTokens?: number
	completionTokens?: number
	cachedTokens?: number
	toolCalls?: boolean
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The text of a Responses input (text, or items with text parts) and the instructions. */
export function inputText(body: Json): string {
	const texts: string[] = []
	const walk = (value: unknown) => {
		if (typeof value === 'string') texts.push(value)
		else if (Array.isArray(value)) value.forEach(walk)
		else if (value && typeof value === 'object') {
			const item = value as Json
			if (typeof item.text === 'string') texts.push(item.text)
			else if (item.content !== undefined) walk(item.content)
			else if (typeof item.output === 'string') texts.push(item.output)
			else if (typeof item.arguments === 'string') texts.push(item.arguments)
		}
	}
	if (typeof body.instructions === 'string') texts.push(body.instructions)
	walk(body.input)
	return texts.join('\n')
}

function usageOf(body: Json, pieces: number, settings: ResponsesSettings) {
	const input = settings.promptTokens ?? Math.max(1, Math.ceil(inputText(body).length / 4))
	const output = settings.completionTokens ?? pieces
	return {
		input_tokens: input,
		input_tokens_details: { cached_tokens: Math.min(settings.cachedTokens ?? 0, input) },
		output_tokens: output,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: input + output,
	}
}

function requiredTool(body: Json, settings: ResponsesSettings): Json | undefined {
	const functions = (Array.isArray(body.tools) ? body.tools : []).filter((tool: Json) => tool?.type === 'function')
	if (functions.length === 0 || body.tool_choice === 'none') return undefined
	if (body.tool_choice?.type === 'function') return functions.find((tool: Json) => tool.name === body.tool_choice.name)
	return body.tool_choice === 'required' || settings.toolCalls ? functions[0] : undefined
}

/** The echo of the request a response carries. */
function responseBase(id: string, body: Json) {
	return {
		id, object: 'response', created_at: nowSeconds(), status: 'in_progress', background: false, error: null, incomplete_details: null,
		instructions: body.instructions ?? null, max_output_tokens: body.max_output_tokens ?? null, model: body.model, output: [] as Json[],
		parallel_tool_calls: body.parallel_tool_calls ?? true, previous_response_id: body.previous_response_id ?? null,
		reasoning: { effort: body.reasoning?.effort ?? null, summary: null }, store: body.store ?? true, temperature: body.temperature ?? 1,
		text: body.text ?? { format: { type: 'text' } }, tool_choice: body.tool_choice ?? 'auto', tools: body.tools ?? [], top_p: 1, truncation: 'disabled',
		usage: null as Json | null, user: null, metadata: body.metadata ?? {},
	}
}

/** A completed response to `body` under `id`, and its stream events in order. */
export function answerResponse(id: string, body: Json, settings: ResponsesSettings): { response: Json; events: Json[] } {
	const base = responseBase(id, body)
	const tool = requiredTool(body, settings)
	const format = body.text?.format
	const structured = format?.type === 'json_schema' ? JSON.stringify(sampleOf(format.schema ?? {})) : format?.type === 'json_object' ? JSON.stringify({ answer: settings.replyText }) : undefined
	const pieces = tool ? [JSON.stringify(sampleOf(tool.parameters ?? { type: 'object' }))] : structured ? [structured] : settings.replyText.match(/\s*\S+/g) ?? [settings.replyText]
	const text = pieces.join('')
	const itemId = `${tool ? 'fc' : 'msg'}_${id.slice(5)}`
	const item = tool
		? { id: itemId, type: 'function_call', status: 'completed', call_id: `call_${id.slice(5)}`, name: tool.name, arguments: text }
		: { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] }
	const response = { ...base, status: 'completed', output: [item], usage: usageOf(body, pieces.length, settings) }
	let sequence = 0
	const event = (type: string, fields: Json) => ({ type, ...fields, sequence_number: sequence++ })
	const events: Json[] = [
		event('response.created', { response: base }),
		event('response.in_progress', { response: base }),
	]
	if (tool) {
		events.push(event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }))
		for (const piece of pieces) events.push(event('response.function_call_arguments.delta', { item_id: itemId, output_index: 0, delta: piece }))
		events.push(event('response.function_call_arguments.done', { item_id: itemId, output_index: 0, name: tool.name, arguments: text }))
	} else {
		const part = { type: 'output_text', annotations: [], logprobs: [], text: '' }
		events.push(event('response.output_item.added', { output_index: 0, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }))
		events.push(event('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part }))
		for (const piece of pieces) events.push(event('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: piece, logprobs: [] }))
		events.push(event('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] }))
		events.push(event('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: { ...part, text } }))
	}
	events.push(event('response.output_item.done', { output_index: 0, item }))
	events.push(event('response.completed', { response }))
	return { response, events }
}

/** `POST /v1/responses/compact`: the input's user messages kept, the rest folded into one compaction item. */
export function compactResponse(id: string, body: Json, settings: ResponsesSettings): Json {
	const items = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: body.input }] }] : Array.isArray(body.input) ? body.input : []
	const users = items.filter((item: Json) => item?.role === 'user').map((item: Json, index: number) => ({ id: `msg_cmp_${index}`, type: 'message', status: 'completed', role: 'user', content: item.content }))
	return {
		id, object: 'response.compaction', created_at: nowSeconds(),
		output: [...users, { id: `cmp_${id.slice(5)}`, type: 'compaction', encrypted_content: `gAAAA-compacted-${items.length}-items` }],
		usage: usageOf(body, 1, { ...settings, completionTokens: settings.completionTokens ?? 32 }),
	}
}

/** A Responses API error body (HTTP) with its status. */
export const responsesError = (status: number, message: string, code: string | null, param: string | null = null) =>
	Response.json({ error: { message, type: 'invalid_request_error', param, code } }, { status })
