/**
 * What the count endpoints count: the prompt of a client's request as the relay would bridge it,
 * by the client's format. Pure, so that the tokenizer worker can read a request's prompt itself
 * (src/workers/tokenizer.ts) and the main thread never parses a large one.
 */
import type { PromptRequest } from '@/billing/tokenizer'
import { relayErrors } from '../errors'
import { isObject } from './json'
import { canonicalFromClaude } from './claude/request'
import { openAIChatFromGemini } from './gemini/client-request'
import { chatBodyFromResponses } from './responses/request'

type ChatBody = { model?: unknown; messages: never[]; tools?: unknown }

const READERS = {
	/** `POST /v1/messages/count_tokens`. */
	claude(value: unknown): PromptRequest {
		const { model, messages, tools } = canonicalFromClaude(value).body as ChatBody
		if (typeof model !== 'string' || !model) throw relayErrors.badRequest('model: Field required')
		return { endpoint: 'chat', messages, tools }
	},
	/** `POST /v1beta/models/{model}:countTokens`: `contents` (and its instruction and tools), or a whole `generateContentRequest`. */
	gemini(value: unknown): PromptRequest {
		const request = isObject(value) && isObject(value.generateContentRequest) ? value.generateContentRequest : value
		const { messages, tools } = openAIChatFromGemini(request, '', false).body as ChatBody
		return { endpoint: 'chat', messages, tools }
	},
	/** `POST /v1/responses/input_tokens`. */
	responses(value: unknown): PromptRequest {
		const { messages, tools } = chatBodyFromResponses(value, true) as ChatBody
		return { endpoint: 'chat', messages, tools }
	},
} as const

export type CountedFormat = keyof typeof READERS

export const isCountedFormat = (format: string): format is CountedFormat => Object.hasOwn(READERS, format)

/** The prompt of a parsed request in `format`; throws the client's RelayError when it is not one. */
export const countedPrompt = (format: CountedFormat, value: unknown): PromptRequest => READERS[format](value)
