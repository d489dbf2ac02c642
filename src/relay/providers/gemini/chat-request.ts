/** An OpenAI chat request as a Gemini `generateContent` request; `reasoning_effort` as `thinkingConfig`. */
import { geminiPartFromImageUrl } from '@/relay/formats/gemini/media'
import { geminiSchema } from '@/relay/formats/gemini/schema'
import type { GeminiContent, GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiPart, GeminiRequest } from '@/relay/formats/gemini/types'
import { NO_EXTRAS, type RequestExtras, topKOf } from '@/relay/formats/canonical'
import { parseClientJson } from '@/relay/formats/json'
import { nestsDeeperThan } from '@/lib/request-body'
import { geminiThinkingConfig } from './thinking-config'

type Body = Record<string, unknown>

interface OpenAIToolCall {
	id?: string
	type?: string
	function?: { name?: string; arguments?: string }
	/** Where Google's own OpenAI-compatible API carries a thought signature; kept when a client sends it back. */
	extra_content?: { google?: { thought_signature?: string } }
}

interface OpenAIMessage {
	role: string
	content?: unknown
	name?: string
	tool_calls?: OpenAIToolCall[]
	tool_call_id?: string
	reasoning_content?: unknown
}

/**
 * Gemini 3 rejects a replayed function call without the thought signature it was sent with; a
 * client that lost it gets this documented placeholder, which tells Gemini to skip the check.
 */
const SKIP_SIGNATURE_CHECK = 'skip_thought_signature_validator'
const SIGNATURE_REQUIRED = /^gemini-3/

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The text parts of a content, one per line: separate blocks must not run into each other. */
function textOf(content: unknown): string {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	return content.filter((part) => isObject(part) && typeof part.text === 'string' && part.text).map((part) => part.text).join('\n')
}

/** A system message's text parts, each kept as a part of its own, as Gemini's `systemInstruction` allows. */
function textPartsOf(content: unknown): GeminiPart[] {
	if (typeof content === 'string') return content ? [{ text: content }] : []
	if (!Array.isArray(content)) return []
	return content.filter((part) => isObject(part) && typeof part.text === 'string' && part.text).map((part) => ({ text: part.text as string }))
}

function partsOf(content: unknown): GeminiPart[] {
	if (typeof content === 'string') return content ? [{ text: content }] : []
	if (!Array.isArray(content)) return []
	const parts: GeminiPart[] = []
	for (const part of content) {
		if (!isObject(part)) continue
		if (part.type === 'text' && typeof part.text === 'string') parts.push({ text: part.text })
		else if (part.type === 'image_url') {
			const image = part.image_url
			const url = typeof image === 'string' ? image : isObject(image) && typeof image.url === 'string' ? image.url : undefined
			if (url) parts.push(geminiPartFromImageUrl(url))
		} else if (part.type === 'input_audio' && isObject(part.input_audio) && typeof part.input_audio.data === 'string') {
			parts.push({ inlineData: { mimeType: `audio/${String(part.input_audio.format ?? 'wav')}`, data: part.input_audio.data } })
		} else if (part.type === 'file' && isObject(part.file) && typeof part.file.file_data === 'string') {
			parts.push(geminiPartFromImageUrl(part.file.file_data))
		}
	}
	return parts
}

/** A tool call's arguments as Gemini's `args`; too deeply nested arguments are a 400 (parseClientJson). */
function parseArguments(text: string | undefined): Record<string, unknown> {
	try {
		const parsed = parseClientJson(text || '{}', 'tool_calls[].function.arguments')
		return isObject(parsed) ? parsed : { value: parsed }
	} catch (error) {
		if (!(error instanceof SyntaxError)) throw error
		return {}
	}
}

/** A function's result as Gemini's `response` object: JSON objects as they are, anything else wrapped. */
function functionResponse(content: unknown): Record<string, unknown> {
	const text = textOf(content)
	// Text nested too deeply to be walked safely is passed on as text, unparsed.
	if (nestsDeeperThan(text)) return { content: text }
	try {
		const parsed = JSON.parse(text)
		if (isObject(parsed)) return parsed
	} catch {
		// Plain text: wrapped below.
	}
	return { content: text }
}

function contentsOf(messages: OpenAIMessage[], signatureRequired: boolean): { contents: GeminiContent[]; system: GeminiPart[] } {
	const system: GeminiPart[] = []
	const contents: GeminiContent[] = []
	const toolNames = new Map<string, string>()
	const append = (role: string, parts: GeminiPart[]) => {
		const last = contents.at(-1)
		// Parallel function results belong in one turn, after the turn that called them.
		if (last && last.role === role && role === 'user' && parts.some((part) => part.functionResponse) && last.parts?.every((part) => part.functionResponse)) {
			last.parts.push(...parts)
			return
		}
		contents.push({ role, parts })
	}
	for (const message of messages) {
		switch (message.role) {
			case 'system':
			case 'developer':
				system.push(...textPartsOf(message.content))
				break
			case 'assistant': {
				const parts = partsOf(message.content)
				;(message.tool_calls ?? []).forEach((call, index) => {
					const name = call.function?.name ?? ''
					if (call.id) toolNames.set(call.id, name)
					const signature = call.extra_content?.google?.thought_signature ?? (signatureRequired && index === 0 ? SKIP_SIGNATURE_CHECK : undefined)
					parts.push({
						functionCall: { ...(call.id ? { id: call.id } : {}), name, args: parseArguments(call.function?.arguments) },
						...(signature ? { thoughtSignature: signature } : {}),
					})
				})
				if (parts.length > 0) append('model', parts)
				break
			}
			case 'tool':
			case 'function': {
				const id = message.tool_call_id
				const name = (id ? toolNames.get(id) : undefined) ?? message.name ?? ''
				append('user', [{ functionResponse: { ...(id ? { id } : {}), name, response: functionResponse(message.content) } }])
				break
			}
			default: {
				const parts = partsOf(message.content)
				if (parts.length > 0) append('user', parts)
			}
		}
	}
	return { contents, system }
}

function toolsOf(body: Body): Pick<GeminiRequest, 'tools' | 'toolConfig'> {
	const declarations: GeminiFunctionDeclaration[] = []
	for (const tool of Array.isArray(body.tools) ? body.tools : []) {
		if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function)) continue
		const { name, description, parameters } = tool.function
		const properties = isObject(parameters) && isObject(parameters.properties) ? parameters.properties : undefined
		declarations.push({
			name: String(name ?? ''),
			...(typeof description === 'string' ? { description } : {}),
			// Gemini rejects an object schema without properties: a function without arguments has none.
			...(properties && Object.keys(properties).length > 0 ? { parameters: geminiSchema(parameters) as Record<string, unknown> } : {}),
		})
	}
	if (declarations.length === 0) return {}
	const choice = body.tool_choice
	let functionCallingConfig: { mode: string; allowedFunctionNames?: string[] } | undefined
	if (choice === 'none') functionCallingConfig = { mode: 'NONE' }
	else if (choice === 'required') functionCallingConfig = { mode: 'ANY' }
	else if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === 'string') {
		functionCallingConfig = { mode: 'ANY', allowedFunctionNames: [choice.function.name] }
	}
	return { tools: [{ functionDeclarations: declarations }], ...(functionCallingConfig ? { toolConfig: { functionCallingConfig } } : {}) }
}

function generationConfigOf(body: Body, extras: RequestExtras): GeminiGenerationConfig | undefined {
	const config: GeminiGenerationConfig = {}
	const number = (value: unknown) => (typeof value === 'number' ? value : undefined)
	const assign = <Key extends keyof GeminiGenerationConfig>(key: Key, value: GeminiGenerationConfig[Key] | undefined) => {
		if (value !== undefined) config[key] = value
	}
	assign('temperature', number(body.temperature))
	assign('topP', number(body.top_p))
	assign('topK', topKOf(body, extras))
	assign('maxOutputTokens', number(body.max_completion_tokens) ?? number(body.max_tokens))
	assign('candidateCount', number(body.n))
	assign('presencePenalty', number(body.presence_penalty))
	assign('frequencyPenalty', number(body.frequency_penalty))
	assign('seed', number(body.seed))
	const stop = body.stop
	if (typeof stop === 'string') config.stopSequences = [stop]
	else if (Array.isArray(stop) && stop.length > 0) config.stopSequences = stop.filter((item): item is string => typeof item === 'string')
	const format = body.response_format
	if (isObject(format) && (format.type === 'json_object' || format.type === 'json_schema')) {
		config.responseMimeType = 'application/json'
		if (format.type === 'json_schema' && isObject(format.json_schema) && isObject(format.json_schema.schema)) config.responseJsonSchema = format.json_schema.schema
	}
	// A Claude client's `thinking`, else `reasoning_effort` (thinking-config.ts).
	assign('thinkingConfig', geminiThinkingConfig(body, extras.thinking))
	return Object.keys(config).length > 0 ? config : undefined
}

/** `extras`: the request's (formats/canonical.ts); a Claude client's `top_k` becomes `topK`. */
export function geminiRequestFromOpenAI(body: Body, extras: RequestExtras = NO_EXTRAS): GeminiRequest {
	const messages = (Array.isArray(body.messages) ? body.messages : []) as OpenAIMessage[]
	const { contents, system } = contentsOf(messages, SIGNATURE_REQUIRED.test(String(body.model ?? '')))
	const generationConfig = generationConfigOf(body, extras)
	return {
		contents,
		...(system.length > 0 ? { systemInstruction: { parts: system } } : {}),
		...toolsOf(body),
		...(generationConfig ? { generationConfig } : {}),
	}
}
