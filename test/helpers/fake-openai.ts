/**
 * A fake OpenAI upstream on loopback for relay tests. It speaks the documented wire format of
 * `POST /v1/chat/completions`, `POST /v1/completions`, `POST /v1/embeddings` and `GET /v1/models`
 * (the `/v1` prefix is optional), the Responses API (`POST /v1/responses`, `/v1/responses/compact`:
 * fake-openai-responses.ts) and the WebSocket APIs (`/v1/realtime`, `/v1/responses` in WebSocket mode:
 * fake-openai-sockets.ts), Azure's `/openai/v1/…` alike, records every request, and answers deterministically:
 * the reply is "Hello from <name>" split into one chunk per word, `completion_tokens` is the number
 * of chunks and `prompt_tokens` is ceil(prompt characters / 4), unless options fix them.
 *
 * Faults apply to the whole server (`setMode`) or to one request, which wins: a header
 * `x-fake-fault: <fault>`, or a marker `[fake-fault:<fault>]` anywhere in the prompt (a relay does not
 * forward unknown headers, but it does forward the prompt). A fault is written `name` or
 * `name=value`: `slow-first-byte=300` (ms before headers), `slow-chunks=50` (ms between chunks),
 * `reset-mid-stream=2` (chunks sent before a TCP reset), `malformed-sse=2` (index of the bad chunk),
 * `status=429` (also `status=502,html` for a non-JSON body), `huge-body=4` (MiB), `no-usage`, `hang`,
 * `stall-after=1` (a stream's events sent before it goes silent until the client goes away — 0: the
 * head alone, with one SSE comment, as Bun sends a head only with bytes; `stall-after=1,keep-alive`
 * sends an SSE comment every 100 ms meanwhile), `none`.
 *
 * Structured output (`response_format` `json_schema` or `json_object`) is answered with JSON fitting the
 * schema (schema-sample.ts), in one piece.
 *
 * Asked for `logprobs` (chat: `logprobs: true` and `top_logprobs`; completions: `logprobs: n`), it
 * answers them in OpenAI's documented shapes, one token per reply piece: chat's
 * `{ content: [{ token, logprob, bytes, top_logprobs: [{ token, logprob, bytes }] }], refusal: null }`
 * and the legacy `{ tokens, token_logprobs, top_logprobs: [{ token: logprob }], text_offset }`. Each
 * token's alternatives are the token itself, then `logprobAlternatives[token]`.
 *
 * With `reasoning`, chat answers carry it as DeepSeek's `reasoning_content`.
 *
 * As the API, chat refuses (400) `reasoning_effort` on a model that does not reason (reasoning
 * models: o1 but not o1-mini or o1-preview, o3, o4-mini, GPT-5 but not its `-chat` models).
 */

import type { Server } from 'bun'
import { answerResponse, compactResponse, responsesError } from './fake-openai-responses'
import { createFakeSockets, type RecordedSocket } from './fake-openai-sockets'
import { sampleOf } from './schema-sample'

export type Fault =
	| { name: 'none' }
	| { name: 'no-usage' }
	| { name: 'hang' }
	| { name: 'slow-first-byte'; delayMs?: number }
	| { name: 'slow-chunks'; delayMs?: number }
	| { name: 'reset-mid-stream'; afterChunks?: number }
	| { name: 'malformed-sse'; afterChunks?: number }
	| { name: 'status'; status: number; retryAfterSeconds?: number; html?: boolean }
	| { name: 'huge-body'; mebibytes?: number }
	| { name: 'stall-after'; afterChunks?: number; keepAlive?: boolean }

export type FaultName = Fault['name']

export interface FakeOpenAIOptions {
	/** Reply text is "Hello from <name>"; default "fake-openai". */
	name?: string
	/** The whole reply text instead; '' answers no text at all (content '' whole, no content deltas streamed). */
	reply?: string
	/** The finish reason of a chat reply that is not cut by `max_tokens` (`content_filter`, say); default `stop`. */
	finishReason?: string
	promptTokens?: number
	completionTokens?: number
	/** Reported as `prompt_tokens_details.cached_tokens`; default 0. */
	cachedTokens?: number
	/** Default 8; a request's `dimensions` wins. */
	embeddingDimensions?: number
	models?: string[]
	/** When set, any other `Authorization: Bearer …` is answered 401 invalid_api_key. */
	apiKey?: string
	/** Answer a chat request that has `tools` with a call of its first tool. */
	toolCalls?: boolean
	/** Arguments of that call; default `{"location":"Paris"}`. */
	toolArguments?: string
	/** Arguments fitting the tool's parameters instead (schema-sample.ts), as a model constrained by them writes them. */
	toolArgumentsFromSchema?: boolean
	/** Alternatives listed in `top_logprobs` after a reply piece itself, by piece. */
	logprobAlternatives?: Record<string, string[]>
	/** Cached input tokens each Realtime response reports; default 0. */
	realtimeCachedTokens?: number
	/**
	 * Reasoning before the reply, as DeepSeek's reasoning models write it: `reasoning_content` on the
	 * message, or streamed one delta per word before the text (whose deltas then carry `reasoning_content: null`).
	 */
	reasoning?: string
	/** Server-wide fault at start; default none. */
	fault?: Fault | string
	/** Defaults for faults written without a value. */
	firstByteDelayMs?: number
	chunkDelayMs?: number
	hugeBodyMebibytes?: number
}

export interface Usage {
	prompt_tokens: number
	completion_tokens: number
	total_tokens: number
}

export interface RecordedRequest {
	method: string
	path: string
	search: string
	/** Lower-case names. */
	headers: Record<string, string>
	/** Parsed JSON, or undefined when the body was empty or not JSON. */
	body: any
	rawBody: string
	fault: Fault
	/** The client went away before the answer was complete. */
	aborted: boolean
	/** The usage the fake reported for this request, if it reported one. */
	usage?: Usage
}

export interface FakeOpenAI {
	url: string
	port: number
	requests: RecordedRequest[]
	/** The WebSocket sessions opened (Realtime, Responses WebSocket mode), with the events each received. */
	sockets: RecordedSocket[]
	/** Applies `fault` to every request, or to the next `times` requests and then none. */
	setMode(fault: Fault | string, times?: number): void
	stop(): Promise<void>
}

type Body = Record<string, any>

const DEFAULT_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small']
const encoder = new TextEncoder()
const NO_FAULT: Fault = { name: 'none' }

export function parseFault(text: string): Fault {
	const [name = '', value = '', flag] = text.trim().split(/[=,]/)
	const number = value === '' ? undefined : Number(value)
	if (number !== undefined && !Number.isFinite(number)) throw new Error(`fake fault "${text}": "${value}" is not a number`)
	switch (name) {
		case 'none': case 'no-usage': case 'hang': return { name }
		case 'slow-first-byte': case 'slow-chunks': return { name, delayMs: number }
		case 'reset-mid-stream': case 'malformed-sse': return { name, afterChunks: number }
		case 'huge-body': return { name, mebibytes: number }
		case 'stall-after': return { name, afterChunks: number, keepAlive: flag === 'keep-alive' }
		case 'status':
			if (number === undefined) throw new Error('fake fault "status" needs a code, e.g. status=429')
			return { name, status: number, html: flag === 'html' }
		default: throw new Error(`unknown fake fault "${text}"`)
	}
}

const toFault = (fault: Fault | string) => typeof fault === 'string' ? parseFault(fault) : fault

/** Models that take `reasoning_effort`. */
const REASONING_MODEL = /^(?:o1(?!-mini|-preview)|o3|o4-mini|gpt-5(?!.*-chat))/

export function startFakeOpenAI(options: FakeOpenAIOptions = {}): FakeOpenAI {
	const requests: RecordedRequest[] = []
	const hanging = new Set<() => void>()
	let mode = { fault: options.fault ? toFault(options.fault) : NO_FAULT, remaining: Infinity }
	let sequence = 0

	const replyText = options.reply ?? `Hello from ${options.name ?? 'fake-openai'}`
	const replyPieces = replyText === '' ? [] : replyText.match(/\s*\S+/g) ?? [replyText]
	const reasoningPieces = options.reasoning?.match(/\s*\S+/g) ?? []

	function pickFault(request: Request, rawBody: string): Fault {
		const text = request.headers.get('x-fake-fault') ?? /\[fake-fault:([^\]]+)\]/.exec(rawBody)?.[1]
		if (text !== undefined) return parseFault(text)
		if (mode.remaining <= 0) return NO_FAULT
		mode.remaining--
		return mode.fault
	}

	/** Responses kept upstream (`store` not false), for `previous_response_id`. */
	const storedResponses = new Set<string>()
	const sockets = createFakeSockets(() => ({ replyText, apiKey: options.apiKey, promptTokens: options.promptTokens, completionTokens: options.completionTokens, cachedTokens: options.cachedTokens, toolCalls: options.toolCalls, realtimeCachedTokens: options.realtimeCachedTokens }), storedResponses)

	async function handle(request: Request, server: Server<any>): Promise<Response | undefined> {
		const upgraded = sockets.upgrade(request, server)
		if (upgraded === 'upgraded') return undefined
		if (upgraded) return upgraded
		const url = new URL(request.url)
		const rawBody = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
		const recorded: RecordedRequest = {
			method: request.method,
			path: url.pathname,
			search: url.search,
			headers: Object.fromEntries(request.headers),
			body: parseJson(rawBody),
			rawBody,
			fault: NO_FAULT,
			aborted: false,
		}
		requests.push(recorded)
		request.signal.addEventListener('abort', () => (recorded.aborted = true))
		try {
			recorded.fault = pickFault(request, rawBody)
		} catch (error) {
			return openAIError(400, (error as Error).message, 'invalid_request_error', null, null)
		}
		const fault = recorded.fault
		if (options.apiKey !== undefined && request.headers.get('authorization') !== `Bearer ${options.apiKey}`) {
			return openAIError(401, 'Incorrect API key provided. You can find your API key in your account settings.', 'invalid_request_error', null, 'invalid_api_key')
		}
		if (fault.name === 'hang') return hang(request)
		if (fault.name === 'slow-first-byte') await sleep(fault.delayMs ?? options.firstByteDelayMs ?? 1000, request.signal)
		if (fault.name === 'status') return statusFault(fault)

		// Azure OpenAI serves the v1 API under /openai/v1.
		const route = `${request.method} ${url.pathname.replace(/^(\/openai)?\/v1(?=\/)/, '')}`
		if (route === 'POST /responses' || route === 'POST /responses/compact') return responses(route, recorded, fault)
		if (route === 'GET /models') return Response.json({ object: 'list', data: models().map(modelObject) })
		if (route.startsWith('GET /models/')) {
			const id = decodeURIComponent(route.slice('GET /models/'.length))
			return models().includes(id)
				? Response.json(modelObject(id))
				: openAIError(404, `The model '${id}' does not exist`, 'invalid_request_error', 'model', 'model_not_found')
		}
		const body = recorded.body as Body | undefined
		const isEndpoint = route === 'POST /chat/completions' || route === 'POST /completions' || route === 'POST /embeddings'
		if (!isEndpoint) return openAIError(404, `Invalid URL (${request.method} ${url.pathname})`, 'invalid_request_error', null, null)
		if (!body || typeof body !== 'object' || Array.isArray(body)) {
			return openAIError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null, null)
		}
		if (typeof body.model !== 'string' || body.model === '') {
			return openAIError(400, 'you must provide a model parameter', 'invalid_request_error', 'model', null)
		}
		if (route === 'POST /chat/completions' && body.reasoning_effort !== undefined && !REASONING_MODEL.test(body.model)) {
			return openAIError(400, "Unsupported parameter: 'reasoning_effort' is not supported with this model.", 'invalid_request_error', 'reasoning_effort', 'unsupported_parameter')
		}
		const answer = route === 'POST /chat/completions' ? chat(body, fault)
			: route === 'POST /completions' ? completion(body, fault)
			: embeddings(body, fault)
		if (fault.name !== 'no-usage') recorded.usage = answer.usage
		return answer.response
	}

	/** `POST /v1/responses` (whole or streamed) and `/v1/responses/compact`, as the Responses API answers them. */
	function responses(route: string, recorded: RecordedRequest, fault: Fault): Response {
		const body = recorded.body as Body | undefined
		if (!body || typeof body !== 'object' || typeof body.model !== 'string') return responsesError(400, "Missing required parameter: 'model'.", 'missing_required_parameter', 'model')
		const previous = body.previous_response_id
		if (typeof previous === 'string' && !storedResponses.has(previous)) return responsesError(400, `Previous response with id '${previous}' not found.`, 'previous_response_not_found', 'previous_response_id')
		const settings = { replyText, promptTokens: options.promptTokens, completionTokens: options.completionTokens, cachedTokens: options.cachedTokens, toolCalls: options.toolCalls }
		const id = `resp_fake${++sequence}`
		if (route === 'POST /responses/compact') {
			const compacted = compactResponse(id, body, settings)
			recorded.usage = { prompt_tokens: compacted.usage.input_tokens, completion_tokens: compacted.usage.output_tokens, total_tokens: compacted.usage.total_tokens }
			return Response.json(compacted)
		}
		if (body.store !== false) storedResponses.add(id)
		const { response, events } = answerResponse(id, body, settings)
		recorded.usage = { prompt_tokens: response.usage.input_tokens, completion_tokens: response.usage.output_tokens, total_tokens: response.usage.total_tokens }
		if (!body.stream) return sendJson(response, fault)
		const text = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('')
		return new Response(text, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } })
	}

	/** Structured output (`response_format`), as a constrained model answers it: JSON fitting the schema, in one piece. */
	function structuredReply(body: Body): string[] | undefined {
		const format = body.response_format
		if (format?.type === 'json_schema') return [JSON.stringify(sampleOf(format.json_schema?.schema ?? {}))]
		if (format?.type === 'json_object') return [JSON.stringify({ answer: replyText })]
		return undefined
	}

	const models = () => options.models ?? DEFAULT_MODELS
	const modelObject = (id: string) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake-openai' })

	function hang(request: Request) {
		return new Promise<Response>((resolve) => {
			const release = () => {
				hanging.delete(release)
				resolve(new Response(null, { status: 499 }))
			}
			hanging.add(release)
			request.signal.addEventListener('abort', release)
		})
	}

	/** A reply piece as a chat logprobs token, with up to `count` alternatives. */
	function chatToken(piece: string, position: number, count: number) {
		const logprob = -0.01 * (position + 1)
		const alternatives = [piece, ...(options.logprobAlternatives?.[piece] ?? [])].slice(0, count)
		return {
			token: piece, logprob, bytes: Array.from(encoder.encode(piece)),
			top_logprobs: alternatives.map((token, rank) => ({ token, logprob: logprob - rank, bytes: Array.from(encoder.encode(token)) })),
		}
	}

	/** The legacy completions logprobs of some reply pieces, the first starting at `offset` characters. */
	function legacyLogprobs(pieces: string[], count: number, offset: number) {
		const entries = pieces.map((piece, position) => chatToken(piece, position, count))
		let at = offset
		return {
			tokens: pieces,
			token_logprobs: entries.map((entry) => entry.logprob),
			top_logprobs: entries.map((entry) => Object.fromEntries(entry.top_logprobs.map((alternative) => [alternative.token, alternative.logprob]))),
			text_offset: pieces.map((piece) => (at += piece.length) - piece.length),
		}
	}

	/** Reply pieces, cut at `max_tokens` like a real model would. */
	function pieces(body: Body, all: string[]) {
		const limit = body.max_completion_tokens ?? body.max_tokens
		const cut = typeof limit === 'number' && limit >= 0 && limit < all.length
		return { pieces: cut ? all.slice(0, limit) : all, finishReason: cut ? 'length' : 'stop' }
	}

	function usageFor(promptText: string, piecesSent: number): Usage {
		const prompt = options.promptTokens ?? Math.max(1, Math.ceil(promptText.length / 4))
		const completion = options.completionTokens ?? piecesSent
		return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
	}

	function chat(body: Body, fault: Fault) {
		const id = `chatcmpl-fake-${++sequence}`
		const created = nowSeconds()
		const base = { id, created, model: body.model, system_fingerprint: 'fp_fake' }
		const named = body.tool_choice?.type === 'function' ? body.tool_choice.function?.name : undefined
		const called = (named && Array.isArray(body.tools) ? body.tools.find((candidate: Body) => candidate.function?.name === named) : undefined) ?? (Array.isArray(body.tools) ? body.tools[0] : undefined)
		const tool = options.toolCalls && body.tool_choice !== 'none' && called ? called.function?.name as string | undefined : undefined
		const text = fault.name === 'huge-body' ? [hugeText(fault)] : structuredReply(body) ?? replyPieces
		const { pieces: content, finishReason: cutOrStop } = pieces(body, text)
		const finishReason = cutOrStop === 'stop' ? options.finishReason ?? cutOrStop : cutOrStop
		const toolArguments = options.toolArgumentsFromSchema ? JSON.stringify(sampleOf(called?.function?.parameters ?? { type: 'object' })) : options.toolArguments ?? '{"location":"Paris"}'
		const argumentPieces = tool ? splitInto(toolArguments, 3) : []
		const sent = tool ? argumentPieces.length : content.length
		const basic = usageFor(promptOf(body.messages), sent)
		const usage = {
			...basic,
			prompt_tokens_details: { cached_tokens: options.cachedTokens ?? 0, audio_tokens: 0 },
			completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
		}
		const callId = `call_fake_${sequence}`
		const alternatives = body.logprobs === true ? (typeof body.top_logprobs === 'number' ? body.top_logprobs : 0) : -1
		const logprobsOf = (parts: string[], first = 0) => alternatives < 0 || tool ? null : { content: parts.map((part, position) => chatToken(part, first + position, alternatives)), refusal: null }
		if (!body.stream) {
			const message = tool
				? { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: callId, type: 'function', function: { name: tool, arguments: argumentPieces.join('') } }] }
				: { role: 'assistant', content: content.join(''), refusal: null, ...(options.reasoning ? { reasoning_content: options.reasoning } : {}) }
			const choice = { index: 0, message, logprobs: logprobsOf(content), finish_reason: tool ? 'tool_calls' : finishReason }
			const completionObject = { ...base, object: 'chat.completion', choices: [choice], ...(fault.name === 'no-usage' ? {} : { usage }) }
			return { usage: basic, response: sendJson(completionObject, fault) }
		}
		const includeUsage = body.stream_options?.include_usage === true && fault.name !== 'no-usage'
		// With include_usage every chunk carries `usage: null` and one last chunk carries the usage.
		const chunk = (choices: unknown[]) => ({ ...base, object: 'chat.completion.chunk', choices, ...(includeUsage ? { usage: null } : {}) })
		const delta = (value: unknown, finish: string | null = null, logprobs: unknown = null) => chunk([{ index: 0, delta: value, logprobs, finish_reason: finish }])
		const events: unknown[] = tool
			? [
				delta({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: tool, arguments: '' } }] }),
				...argumentPieces.map((part) => delta({ tool_calls: [{ index: 0, function: { arguments: part } }] })),
				delta({}, 'tool_calls'),
			]
			: [
				delta({ role: 'assistant', content: '', refusal: null }),
				...reasoningPieces.map((part) => delta({ content: null, reasoning_content: part })),
				...content.map((part, position) => delta({ content: part, ...(options.reasoning ? { reasoning_content: null } : {}) }, null, logprobsOf([part], position))),
				delta({}, finishReason),
			]
		if (includeUsage) events.push({ ...chunk([]), usage })
		return { usage: basic, response: sendStream(events, fault) }
	}

	function completion(body: Body, fault: Fault) {
		const base = { id: `cmpl-fake-${++sequence}`, object: 'text_completion', created: nowSeconds(), model: body.model }
		const { pieces: content, finishReason } = pieces(body, fault.name === 'huge-body' ? [hugeText(fault)] : replyPieces)
		const usage = usageFor(promptOf(body.prompt), content.length)
		const logprobsOf = (parts: string[], offset: number) => typeof body.logprobs === 'number' ? legacyLogprobs(parts, body.logprobs, offset) : null
		if (!body.stream) {
			const choice = { text: content.join(''), index: 0, logprobs: logprobsOf(content, 0), finish_reason: finishReason }
			return { usage, response: sendJson({ ...base, choices: [choice], ...(fault.name === 'no-usage' ? {} : { usage }) }, fault) }
		}
		const choice = (text: string, finish: string | null = null, logprobs: unknown = null) => ({ ...base, choices: [{ text, index: 0, logprobs, finish_reason: finish }] })
		let offset = 0
		const events: unknown[] = [...content.map((part) => choice(part, null, logprobsOf([part], (offset += part.length) - part.length))), choice('', finishReason)]
		if (body.stream_options?.include_usage === true && fault.name !== 'no-usage') events.push({ ...base, choices: [], usage })
		return { usage, response: sendStream(events, fault) }
	}

	function embeddings(body: Body, fault: Fault) {
		const inputs: unknown[] = Array.isArray(body.input) && (body.input.length === 0 || typeof body.input[0] !== 'number') ? body.input : [body.input]
		// A huge body here is a huge vector: about 20 characters per number in JSON.
		const dimensions = fault.name === 'huge-body' ? Math.ceil(hugeBytes(fault) / 20)
			: typeof body.dimensions === 'number' ? body.dimensions : options.embeddingDimensions ?? 8
		const data = inputs.map((input, index) => {
			const vector = embeddingOf(JSON.stringify(input), dimensions)
			const embedding = body.encoding_format === 'base64' ? Buffer.from(vector.buffer).toString('base64') : Array.from(vector)
			return { object: 'embedding', index, embedding }
		})
		const tokens = options.promptTokens ?? inputs.reduce<number>((sum, input) =>
			sum + (Array.isArray(input) ? input.length : Math.max(1, Math.ceil(String(input).length / 4))), 0)
		const usage = { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens }
		const list = { object: 'list', data, model: body.model, ...(fault.name === 'no-usage' ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }) }
		return { usage, response: sendJson(list, fault) }
	}

	const hugeBytes = (fault: Extract<Fault, { name: 'huge-body' }>) => Math.round((fault.mebibytes ?? options.hugeBodyMebibytes ?? 8) * 1024 * 1024)
	const hugeText = (fault: Extract<Fault, { name: 'huge-body' }>) => 'x'.repeat(hugeBytes(fault))

	function sendStream(events: unknown[], fault: Fault) {
		const lines = [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n']
		if (fault.name === 'malformed-sse') lines.splice(fault.afterChunks ?? 2, 0, 'data: {"id":"broken","choices":[{"delta":\n\n')
		const reset = fault.name === 'reset-mid-stream'
		const stream = fault.name === 'stall-after' ? stallingStream(stalledStart(lines.slice(0, fault.afterChunks ?? 1)), fault.keepAlive === true)
			: piecesStream(reset ? lines.slice(0, fault.afterChunks ?? 2) : lines, delayOf(fault), reset)
		return new Response(stream, {
			headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': `req_fake_${sequence}` },
		})
	}

	function sendJson(value: unknown, fault: Fault) {
		const text = JSON.stringify(value)
		const headers = { 'content-type': 'application/json', 'x-request-id': `req_fake_${sequence}` }
		if (fault.name === 'malformed-sse') return new Response(text.slice(0, Math.floor(text.length / 2)), { headers })
		if (fault.name === 'reset-mid-stream') return new Response(piecesStream([text.slice(0, Math.floor(text.length / 2))], 0, true), { headers })
		if (fault.name === 'slow-chunks') return new Response(piecesStream(splitInto(text, 4), delayOf(fault), false), { headers })
		return new Response(text, { headers })
	}

	const delayOf = (fault: Fault) => fault.name === 'slow-chunks' ? fault.delayMs ?? options.chunkDelayMs ?? 100 : 0

	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		// Slow and hanging faults must outlive Bun's default 10 s idle timeout.
		idleTimeout: 0,
		fetch: handle as never,
		websocket: sockets.websocket,
	})

	return {
		url: `http://127.0.0.1:${server.port}`,
		port: server.port!,
		requests,
		sockets: sockets.sockets,
		setMode(fault, times = Infinity) {
			mode = { fault: toFault(fault), remaining: times }
		},
		async stop() {
			for (const release of [...hanging]) release()
			await server.stop(true)
		},
	}
}

function statusFault(fault: Extract<Fault, { name: 'status' }>) {
	if (fault.html) {
		const page = `<html><head><title>${fault.status}</title></head><body><h1>${fault.status}</h1><p>upstream unavailable</p></body></html>`
		return new Response(page, { status: fault.status, headers: { 'content-type': 'text/html' } })
	}
	const retryAfter = { 'retry-after': String(fault.retryAfterSeconds ?? 1) }
	switch (fault.status) {
		case 400: return openAIError(400, "Invalid value for 'messages': expected an array.", 'invalid_request_error', 'messages', 'invalid_value')
		case 401: return openAIError(401, 'Incorrect API key provided. You can find your API key in your account settings.', 'invalid_request_error', null, 'invalid_api_key')
		case 403: return openAIError(403, 'Your account is not authorized to use this model.', 'invalid_request_error', null, 'unsupported_country_region_territory')
		case 429: return openAIError(429, 'Rate limit reached for requests per min. Please try again in 1s.', 'requests', null, 'rate_limit_exceeded', retryAfter)
		case 500: return openAIError(500, 'The server had an error while processing your request.', 'server_error', null, null)
		case 503: return openAIError(503, 'The engine is currently overloaded, please try again later.', 'server_error', null, null, retryAfter)
		default: return openAIError(fault.status, `Upstream answered ${fault.status}.`, fault.status >= 500 ? 'server_error' : 'invalid_request_error', null, null)
	}
}

function openAIError(status: number, message: string, type: string, param: string | null, code: string | null, headers: Record<string, string> = {}) {
	return Response.json({ error: { message, type, param, code } }, { status, headers })
}

/**
 * Sends each piece as its own write. With `reset`, the connection is then torn down with a TCP RST:
 * Bun resets the socket when a response stream errors. The pause before erroring lets Bun write
 * the queued pieces first; erroring at once would discard them.
 */
function piecesStream(pieces: string[], delayMs: number, reset: boolean) {
	let index = 0
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (index > 0 && delayMs > 0) await Bun.sleep(delayMs)
			if (index < pieces.length) {
				controller.enqueue(encoder.encode(pieces[index++]))
				return
			}
			if (!reset) return controller.close()
			await Bun.sleep(20)
			controller.error()
		},
	})
}

const KEEP_ALIVE_MS = 100

/** Bun sends a streamed answer's head with its first bytes: a stream stalled before any event starts with a comment. */
const stalledStart = (lines: string[]) => lines.length > 0 ? lines : [': stalled\n\n']

/** `pieces`, then silence — or an SSE comment every KEEP_ALIVE_MS — until the reader cancels. */
function stallingStream(pieces: string[], keepAlive: boolean) {
	let index = 0
	let over = false
	let release: () => void = () => {}
	const cancelled = new Promise<void>((resolve) => (release = () => {
		over = true
		resolve()
	}))
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (index < pieces.length) {
				controller.enqueue(encoder.encode(pieces[index++]))
				return
			}
			if (!keepAlive) return await cancelled
			await Promise.race([Bun.sleep(KEEP_ALIVE_MS), cancelled])
			if (!over) controller.enqueue(encoder.encode(': keep-alive\n\n'))
		},
		cancel: () => release(),
	})
}

function sleep(milliseconds: number, signal: AbortSignal) {
	return new Promise<void>((resolve) => {
		const timer = setTimeout(resolve, milliseconds)
		signal.addEventListener('abort', () => {
			clearTimeout(timer)
			resolve()
		})
	})
}

function parseJson(text: string): unknown {
	if (text === '') return undefined
	try {
		return JSON.parse(text)
	} catch {
		return undefined
	}
}

/** Text of chat messages (string or text parts) or of a legacy prompt. */
function promptOf(value: unknown): string {
	if (typeof value === 'string') return value
	if (Array.isArray(value)) return value.map(promptOf).join('\n')
	if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>
		return promptOf(record.content ?? record.text ?? '')
	}
	return ''
}

function splitInto(text: string, count: number) {
	const size = Math.max(1, Math.ceil(text.length / count))
	const parts: string[] = []
	for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size))
	return parts.length > 0 ? parts : ['']
}

/** A unit-length-ish vector that depends only on the input text, exact in float32. */
function embeddingOf(text: string, dimensions: number) {
	let seed = 0
	for (let index = 0; index < text.length; index++) seed = (seed * 31 + text.charCodeAt(index)) % 1_000_003
	const vector = new Float32Array(dimensions)
	for (let index = 0; index < dimensions; index++) vector[index] = Math.sin(seed + index) / Math.sqrt(dimensions)
	return vector
}

const nowSeconds = () => Math.floor(Date.now() / 1000)
