/**
 * A fake Gemini API on loopback: `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`, key as `x-goog-api-key` or `?key=`, answering as the documented
 * API does and as a model constrained by the request would:
 *
 * - plain text: "Hello from fake-gemini";
 * - `generationConfig.responseMimeType: application/json` with `responseJsonSchema` (JSON Schema)
 *   or `responseSchema` (OpenAPI's subset: it refuses `additionalProperties` and `$schema` there, as
 *   the API does): JSON fitting the schema as the text part;
 * - `toolConfig.functionCallingConfig.mode: ANY` (and any tools with `toolCalls`): a `functionCall` of
 *   the allowed (or first) function, its args fitting its parameters.
 *
 * - `generationConfig.thinkingConfig` with `includeThoughts` (and thinking not turned off): a part
 *   marked `thought` first ("Thinking it over.", its own event in a stream), its tokens counted as
 *   `thoughtsTokenCount`. As the API, it refuses (400) a budget and a level together, a level before
 *   Gemini 3 (or one the model lacks: Pro has only low and high), a budget on Gemini 3, a budget
 *   of 0 on 2.5 Pro, which cannot stop thinking, and a budget outside the model's range (-1, dynamic
 *   thinking, is taken).
 *
 * `usageMetadata`: `promptTokenCount` ceil(prompt characters / 4), `candidatesTokenCount` the pieces.
 */
import { sampleOf } from './schema-sample'

type Json = Record<string, any>

export interface FakeGeminiModelOptions {
	apiKey?: string
	toolCalls?: boolean
}

export interface FakeGeminiModel {
	url: string
	requests: { path: string; search: string; headers: Record<string, string>; body: Json }[]
	stop(): Promise<void>
}

/** The thought summary a thinking request gets, and the tokens it counts. */
export const FAKE_THOUGHT = 'Thinking it over.'
export const FAKE_THOUGHT_TOKENS = 3

/** What the API answers a thinking configuration it refuses, or undefined. */
function thinkingProblem(model: string, config: Json | undefined): string | undefined {
	if (!config) return undefined
	const gemini3 = /^gemini-3/.test(model)
	if (config.thinkingBudget !== undefined && config.thinkingLevel !== undefined) return 'You can only set either thinking budget or thinking level.'
	if (config.thinkingLevel !== undefined) {
		if (!gemini3) return 'Thinking level is not supported for this model.'
		const levels = model.includes('flash') ? ['minimal', 'low', 'medium', 'high'] : ['low', 'high']
		if (!levels.includes(String(config.thinkingLevel).toLowerCase())) return `Thinking level ${config.thinkingLevel} is not supported for this model.`
	}
	if (config.thinkingBudget !== undefined) {
		if (gemini3) return 'Thinking budget is not supported for this model; use thinking level.'
		if (config.thinkingBudget === 0 && model.includes('pro')) return 'Budget 0 is invalid. This model only works in thinking mode.'
		// -1 is dynamic thinking; otherwise Pro takes 128 to 32768, Flash 0 to 24576.
		const [least, most] = model.includes('pro') ? [128, 32768] : [0, 24576]
		if (config.thinkingBudget !== -1 && (config.thinkingBudget < least || config.thinkingBudget > most)) return `The thinking budget ${config.thinkingBudget} is invalid. Please choose a value between ${least} and ${most}.`
	}
	return undefined
}

const geminiError = (code: number, status: string, message: string) => Response.json({ error: { code, message, status } }, { status: code })

/** OpenAPI's schema subset: the first field the API would refuse in a `responseSchema`. */
function openApiProblem(schema: unknown): string | undefined {
	if (typeof schema !== 'object' || schema === null) return undefined
	if (Array.isArray(schema)) return schema.map(openApiProblem).find(Boolean)
	for (const [field, value] of Object.entries(schema)) {
		if (field === 'additionalProperties' || field === '$schema') return `Unknown name "${field}"`
		const problem = field === 'properties' ? Object.values(value as Json).map(openApiProblem).find(Boolean) : field === 'items' || field === 'anyOf' ? openApiProblem(value) : undefined
		if (problem) return problem
	}
	return undefined
}

function promptText(body: Json): string {
	const texts: string[] = []
	for (const content of [body.systemInstruction, ...(Array.isArray(body.contents) ? body.contents : [])]) {
		for (const part of content?.parts ?? []) if (typeof part.text === 'string') texts.push(part.text)
	}
	return texts.join('\n')
}

export function startFakeGeminiModel(options: FakeGeminiModelOptions = {}): FakeGeminiModel {
	const requests: FakeGeminiModel['requests'] = []

	function answer(model: string, body: Json, stream: boolean): Response {
		const config = body.generationConfig ?? {}
		const declarations: Json[] = (body.tools ?? []).flatMap((tool: Json) => tool.functionDeclarations ?? [])
		const calling = body.toolConfig?.functionCallingConfig
		let parts: Json[]
		let pieces: string[]
		if (config.responseSchema !== undefined && openApiProblem(config.responseSchema)) {
			return geminiError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${openApiProblem(config.responseSchema)} at 'generation_config.response_schema'`)
		}
		const refused = thinkingProblem(model, config.thinkingConfig)
		if (refused) return geminiError(400, 'INVALID_ARGUMENT', refused)
		const thinks = config.thinkingConfig?.includeThoughts === true && config.thinkingConfig.thinkingBudget !== 0
		const schema = config.responseJsonSchema ?? config.responseSchema
		const forced = declarations.length > 0 && (calling?.mode === 'ANY' || (options.toolCalls && calling?.mode !== 'NONE'))
			? declarations.find((declaration) => !calling?.allowedFunctionNames || calling.allowedFunctionNames.includes(declaration.name)) : undefined
		if (forced) {
			const args = sampleOf(forced.parametersJsonSchema ?? forced.parameters ?? { type: 'object' })
			parts = [{ functionCall: { name: forced.name, args } }]
			pieces = [JSON.stringify(args)]
		} else if (config.responseMimeType === 'application/json') {
			const text = JSON.stringify(schema ? sampleOf(schema) : { answer: 'Hello from fake-gemini' })
			parts = [{ text }]
			pieces = [text]
		} else {
			pieces = ['Hello', ' from', ' fake-gemini']
			parts = [{ text: pieces.join('') }]
		}
		const prompt = Math.max(1, Math.ceil(promptText(body).length / 4))
		const thoughts = thinks ? FAKE_THOUGHT_TOKENS : 0
		const usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: pieces.length, ...(thinks ? { thoughtsTokenCount: thoughts } : {}), totalTokenCount: prompt + pieces.length + thoughts }
		const candidate = (candidateParts: Json[], finish?: string) => ({ content: { role: 'model', parts: candidateParts }, ...(finish ? { finishReason: finish } : {}), index: 0 })
		const thought = { text: FAKE_THOUGHT, thought: true }
		if (!stream) return Response.json({ candidates: [candidate(thinks ? [thought, ...parts] : parts, 'STOP')], usageMetadata, modelVersion: model, responseId: 'fake-gemini' })
		const answerChunks = forced ? [{ candidates: [candidate(parts, 'STOP')], usageMetadata }]
			: pieces.map((piece, index) => ({ candidates: [candidate([{ text: piece }], index === pieces.length - 1 ? 'STOP' : undefined)], usageMetadata, modelVersion: model }))
		const chunks = thinks ? [{ candidates: [candidate([thought])], usageMetadata: { promptTokenCount: prompt, thoughtsTokenCount: thoughts }, modelVersion: model }, ...answerChunks] : answerChunks
		return new Response(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
	}

	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const url = new URL(request.url)
			const raw = request.method === 'POST' ? await request.text() : ''
			const body = raw ? JSON.parse(raw) : {}
			requests.push({ path: url.pathname, search: url.search, headers: Object.fromEntries(request.headers), body })
			const key = request.headers.get('x-goog-api-key') ?? url.searchParams.get('key')
			if (options.apiKey !== undefined && key !== options.apiKey) return geminiError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.')
			const match = /^\/v1beta\/models\/([^:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(url.pathname)
			if (!match || request.method !== 'POST') return geminiError(404, 'NOT_FOUND', `${url.pathname} not found`)
			const [, model, method] = match
			if (method === 'countTokens') return Response.json({ totalTokens: Math.max(1, Math.ceil(promptText(body).length / 4)) })
			return answer(model!, body, method === 'streamGenerateContent')
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}
