/**
 * What OpenAI-format clients send. Only the fields the gateway reads are checked; everything else
 * passes through to the upstream untouched, so new OpenAI parameters work without a release: the
 * relay validates with these schemas and forwards the client's own object, not the parsed copy.
 */
import { z } from 'zod'

const model = z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(200)
const tokenLimit = z.number().int().nonnegative().optional().nullable()
const streamOptions = z.object({ include_usage: z.boolean().optional().nullable() }).optional().nullable()

const contentPart = z.object({ type: z.string(), text: z.string().optional() })
const message = z.object({
	role: z.string(),
	content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
	name: z.string().optional(),
})

export const chatCompletionRequestSchema = z.object({
	model,
	messages: z.array(message, { error: 'messages must be a list of messages' }).min(1, 'messages must not be empty'),
	stream: z.boolean().optional().nullable(),
	stream_options: streamOptions,
	max_tokens: tokenLimit,
	max_completion_tokens: tokenLimit,
	tools: z.array(z.unknown()).optional().nullable(),
})
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>

export const completionRequestSchema = z.object({
	model,
	prompt: z.union([z.string(), z.array(z.string()), z.array(z.number()), z.array(z.array(z.number()))]),
	stream: z.boolean().optional().nullable(),
	stream_options: streamOptions,
	max_tokens: tokenLimit,
})
export type CompletionRequest = z.infer<typeof completionRequestSchema>

export const embeddingRequestSchema = z.object({
	model,
	input: z.union([z.string(), z.array(z.string()), z.array(z.number()), z.array(z.array(z.number()))]),
})
export type EmbeddingRequest = z.infer<typeof embeddingRequestSchema>

/** The upstream answer's usage, as OpenAI reports it (all fields optional: parse what is there). */
export const openAIUsageSchema = z.looseObject({
	prompt_tokens: z.number().nullish(),
	completion_tokens: z.number().nullish(),
	total_tokens: z.number().nullish(),
	prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
})
export type OpenAIUsage = z.infer<typeof openAIUsageSchema>
