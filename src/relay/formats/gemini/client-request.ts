/**
 * A Gemini-format client request (`generateContent`, `embedContent`, `batchEmbedContents`) as the
 * OpenAI-format body the relay relays. Function calls keep their ids; a call Gemini wrote without
 * one gets an id, and the function response that follows it (matched by name, in order) gets the same.
 * A model turn's thought parts are its extras (an unsigned thinking block), not a field of the body.
 */
import { randomString } from '@/lib/crypto'
import { relayErrors } from '../../errors'
import { type ConvertedBody, joinedTextExtras, MessagesWithExtras, requestExtras } from '../canonical'
import { isObject } from '../json'
import { imageUrlFromGeminiPart } from './media'
import { jsonSchemaFromGemini } from './schema'
import type { GeminiContent, GeminiEmbedContentRequest, GeminiPart, GeminiRequest } from './types'

type Body = Record<string, unknown>

const CALL_ID_LENGTH = 24

/**
 * A user turn's parts: text alone is one string (as most OpenAI upstreams expect), its parts one per
 * line — separate parts are separate blocks (a file, then a question) and must not run together;
 * with media, a list of parts as they came.
 */
function userContent(parts: GeminiPart[]): string | unknown[] | undefined {
	const media = parts.some((part) => imageUrlFromGeminiPart(part) !== undefined)
	if (!media) {
		const text = parts.filter((part) => part.text).map((part) => part.text).join('\n')
		return text || undefined
	}
	return parts.flatMap((part): Record<string, unknown>[] => {
		if (typeof part.text === 'string') return [{ type: 'text', text: part.text }]
		const url = imageUrlFromGeminiPart(part)
		return url ? [{ type: 'image_url', image_url: { url } }] : []
	})
}

function messagesOf(contents: GeminiContent[], messages: MessagesWithExtras) {
	/** Calls of the last model turn still waiting for their response: name → ids in order. */
	let waiting = new Map<string, string[]>()
	for (const content of contents) {
		const parts = content.parts ?? []
		if (content.role === 'model') {
			waiting = new Map()
			// A model turn's text parts are pieces of one answer (a streamed answer's chunks, text split
			// around thought signatures): joined as they are, as Google's SDKs read a turn's text.
			const text = parts.filter((part) => typeof part.text === 'string' && !part.thought).map((part) => part.text).join('')
			const reasoning = parts.filter((part) => typeof part.text === 'string' && part.thought).map((part) => part.text).join('')
			const toolCalls = parts.filter((part) => part.functionCall).map((part) => {
				const call = part.functionCall!
				const id = call.id || `call_${randomString(CALL_ID_LENGTH)}`
				const name = call.name ?? ''
				waiting.set(name, [...(waiting.get(name) ?? []), id])
				return {
					id,
					type: 'function',
					function: { name, arguments: JSON.stringify(call.args ?? {}) },
					...(part.thoughtSignature ? { extra_content: { google: { thought_signature: part.thoughtSignature } } } : {}),
				}
			})
			// The thoughts ride as the turn's extras, an unsigned thinking block: only the upstreams that
			// take reasoning back get them, as `reasoning_content` (canonical.ts withReasoningContent).
			messages.push({
				role: 'assistant',
				content: text || (toolCalls.length > 0 ? null : ''),
				...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
			}, reasoning ? { thinking: [{ type: 'thinking', thinking: reasoning, signature: '' }] } : undefined)
			continue
		}
		// Function responses first: OpenAI wants tool results right after the call.
		for (const part of parts) {
			const result = part.functionResponse
			if (!result) continue
			const name = result.name ?? ''
			const queue = waiting.get(name) ?? []
			const id = result.id ?? queue[0] ?? `call_${randomString(CALL_ID_LENGTH)}`
			const position = queue.indexOf(id)
			if (position >= 0) queue.splice(position, 1)
			messages.push({ role: 'tool', tool_call_id: id, name, content: JSON.stringify(result.response ?? {}) })
		}
		const userParts = parts.filter((part) => !part.functionResponse)
		const user = userContent(userParts)
		if (user !== undefined) messages.push({ role: 'user', content: user }, joinedTextExtras(userParts, user))
	}
}

function toolsOf(request: GeminiRequest): Body {
	const tools = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => ({
		type: 'function',
		function: {
			name: declaration.name ?? '',
			...(declaration.description ? { description: declaration.description } : {}),
			parameters: jsonSchemaFromGemini(declaration.parameters ?? declaration.parametersJsonSchema ?? { type: 'object', properties: {} }),
		},
	}))
	if (tools.length === 0) return {}
	const config = request.toolConfig?.functionCallingConfig
	const allowed = config?.allowedFunctionNames ?? []
	const choice = config?.mode === 'NONE' ? 'none'
		: config?.mode === 'ANY' ? (allowed.length === 1 ? { type: 'function', function: { name: allowed[0] } } : 'required')
		: undefined
	return { tools, ...(choice ? { tool_choice: choice } : {}) }
}

function generationOf(request: GeminiRequest): Body {
	const config = request.generationConfig ?? {}
	const body: Body = {}
	const copy = (field: string, value: unknown) => {
		if (value !== undefined && value !== null) body[field] = value
	}
	copy('temperature', config.temperature)
	copy('top_p', config.topP)
	copy('max_tokens', config.maxOutputTokens)
	copy('n', config.candidateCount)
	copy('presence_penalty', config.presencePenalty)
	copy('frequency_penalty', config.frequencyPenalty)
	copy('seed', config.seed)
	if (config.stopSequences && config.stopSequences.length > 0) body.stop = config.stopSequences
	// Either form, with Gemini's upper-case types normalised: OpenAI-format upstreams take JSON Schema's lower case only.
	const given = config.responseJsonSchema ?? config.responseSchema
	const schema = given ? jsonSchemaFromGemini(given) : undefined
	if (schema) body.response_format = { type: 'json_schema', json_schema: { name: 'response', schema } }
	else if (config.responseMimeType === 'application/json') body.response_format = { type: 'json_object' }
	return body
}

/** A list the converters walk, as Gemini's API has it: absent, or a list of objects; anything else is a 400. */
function objectList(value: unknown, field: string): Body[] {
	if (value === undefined || value === null) return []
	if (!Array.isArray(value) || !value.every(isObject)) throw relayErrors.badRequest(`${field}: expected a list of objects`)
	return value
}

/** A content (absent, or an object whose `parts` is a list of objects). */
function checkContent(content: unknown, field: string) {
	if (content === undefined || content === null) return
	if (!isObject(content)) throw relayErrors.badRequest(`${field}: expected an object`)
	objectList(content.parts, `${field}.parts`)
}

function checkChatShape(gemini: Body) {
	objectList(gemini.contents, 'contents').forEach((content, index) => checkContent(content, `contents.${index}`))
	if (isObject(gemini.systemInstruction)) checkContent(gemini.systemInstruction, 'systemInstruction')
	objectList(gemini.tools, 'tools').forEach((tool, index) => objectList(tool.functionDeclarations, `tools.${index}.functionDeclarations`))
}

/** The system instruction's text parts, one per line, with its parts kept for the word check. */
function pushSystem(instruction: unknown, messages: MessagesWithExtras) {
	if (typeof instruction === 'string') {
		if (instruction) messages.push({ role: 'system', content: instruction })
		return
	}
	if (!isObject(instruction)) return
	const parts = ((instruction as GeminiContent).parts ?? []).filter((part) => part.text)
	const text = parts.map((part) => part.text).join('\n')
	if (text) messages.push({ role: 'system', content: text }, joinedTextExtras(parts, text))
}

/** A Gemini chat request as OpenAI's body, with the separate text parts it joined as the extras. */
export function openAIChatFromGemini(request: unknown, model: string, stream: boolean): ConvertedBody {
	if (!isObject(request)) throw relayErrors.badRequest('the request body must be a JSON object')
	const gemini = request as GeminiRequest
	if (!Array.isArray(gemini.contents) || gemini.contents.length === 0) throw relayErrors.badRequest('contents is not specified')
	checkChatShape(request)
	const messages = new MessagesWithExtras()
	pushSystem(gemini.systemInstruction, messages)
	messagesOf(gemini.contents, messages)
	const body = {
		model,
		messages: messages.messages,
		...generationOf(gemini),
		...toolsOf(gemini),
		// The usage always comes back, for Gemini's usageMetadata.
		...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
	}
	return { body, extras: requestExtras({ messages: messages.messageExtras() }) }
}

/**
 * The text of a content to embed: an OpenAI input is one string per embedding, so a content's parts
 * (a title, then a passage) go one per line, never run together.
 */
const textOfContent = (content: GeminiContent | undefined) => (content?.parts ?? []).filter((part) => part.text).map((part) => part.text).join('\n')

/** `embedContent` takes one content, `batchEmbedContents` a list of requests: both become one input list. */
export function openAIEmbeddingsFromGemini(request: unknown, model: string, batch: boolean): Body {
	if (!isObject(request)) throw relayErrors.badRequest('the request body must be a JSON object')
	const requests = (batch ? objectList(request.requests, 'requests') : [request]) as GeminiEmbedContentRequest[]
	if (requests.length === 0) throw relayErrors.badRequest('requests is not specified')
	requests.forEach((item, index) => checkContent(item.content, batch ? `requests.${index}.content` : 'content'))
	const dimensions = requests[0]?.outputDimensionality
	return {
		model,
		input: batch ? requests.map((item) => textOfContent(item.content)) : textOfContent(requests[0]!.content),
		...(typeof dimensions === 'number' ? { dimensions } : {}),
	}
}
