/** Gemini answers (whole and streamed) as OpenAI chat answers. */
import type { BodyReader } from '@/lib/outbound'
import { randomString } from '@/lib/crypto'
import { openAIFinishReason } from '@/relay/formats/gemini/finish-reason'
import type { GeminiCandidate, GeminiPart, GeminiResponse } from '@/relay/formats/gemini/types'
import { openAIUsageFromGemini } from '@/relay/formats/gemini/usage'
import { openAIChunkStream } from '@/relay/formats/chunk-stream'
import { readSseEvents } from '@/relay/formats/sse'
import type { EventReader } from '@/relay/formats/events'

const CALL_ID_LENGTH = 24

/** Gemini names function calls without ids (or with its own); OpenAI clients need one per call. */
function toolCallOf(part: GeminiPart) {
	const call = part.functionCall!
	return {
		id: call.id || `call_${randomString(CALL_ID_LENGTH)}`,
		type: 'function',
		function: { name: call.name ?? '', arguments: JSON.stringify(call.args ?? {}) },
		...(part.thoughtSignature ? { extra_content: { google: { thought_signature: part.thoughtSignature } } } : {}),
	}
}

interface CandidateParts {
	text: string
	reasoning: string
	toolCalls: ReturnType<typeof toolCallOf>[]
}

function splitParts(parts: GeminiPart[] | undefined): CandidateParts {
	const split: CandidateParts = { text: '', reasoning: '', toolCalls: [] }
	for (const part of parts ?? []) {
		if (part.functionCall) split.toolCalls.push(toolCallOf(part))
		else if (typeof part.text === 'string') {
			if (part.thought) split.reasoning += part.text
			else split.text += part.text
		}
	}
	return split
}

const nowSeconds = () => Math.floor(Date.now() / 1000)
const answerId = (response: GeminiResponse) => `chatcmpl-${response.responseId ?? randomString(CALL_ID_LENGTH)}`

/** A prompt Gemini refused answers no candidates, only `promptFeedback.blockReason`. */
function candidatesOf(response: GeminiResponse): GeminiCandidate[] {
	if (response.candidates && response.candidates.length > 0) return response.candidates
	return response.promptFeedback?.blockReason ? [{ content: { parts: [] }, finishReason: 'SAFETY', index: 0 }] : []
}

export function openAIAnswerFromGemini(text: string, model: string): Record<string, unknown> {
	const response = JSON.parse(text) as GeminiResponse
	const choices = candidatesOf(response).map((candidate, position) => {
		const { text: content, reasoning, toolCalls } = splitParts(candidate.content?.parts)
		return {
			index: candidate.index ?? position,
			message: {
				role: 'assistant',
				content: toolCalls.length > 0 && !content ? null : content,
				...(reasoning ? { reasoning_content: reasoning } : {}),
				...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
			},
			finish_reason: openAIFinishReason(candidate.finishReason ?? 'STOP', toolCalls.length > 0),
		}
	})
	return {
		id: answerId(response),
		object: 'chat.completion',
		created: nowSeconds(),
		model,
		choices,
		...(response.usageMetadata ? { usage: openAIUsageFromGemini(response.usageMetadata) } : {}),
	}
}

/**
 * Gemini's `alt=sse` stream: each event is a whole `GenerateContentResponse` holding the new parts;
 * usage metadata comes with the events and is complete in the last one, so it is sent once at the end.
 */
export function openAIStreamFromGemini(reader: BodyReader, model: string): EventReader {
	const events = readSseEvents(reader)
	const created = nowSeconds()
	let id: string | undefined
	let usage: GeminiResponse['usageMetadata']
	let ended = false
	const started = new Set<number>()
	const toolCallCounts = new Map<number, number>()
	return openAIChunkStream(async () => {
		if (ended) return undefined
		const event = await events.next()
		if (!event) {
			ended = true
			return usage ? [{ id: id ?? answerId({}), object: 'chat.completion.chunk', created, model, choices: [], usage: openAIUsageFromGemini(usage) }] : undefined
		}
		if (!event.data.trim()) return []
		const response = JSON.parse(event.data) as GeminiResponse & { error?: { message?: string } }
		if (response.error) throw new Error(`the upstream stream failed: ${response.error.message ?? 'unknown error'}`)
		id ??= answerId(response)
		if (response.usageMetadata) usage = response.usageMetadata
		const chunks: unknown[] = []
		candidatesOf(response).forEach((candidate, position) => {
			const index = candidate.index ?? position
			const { text, reasoning, toolCalls } = splitParts(candidate.content?.parts)
			const delta: Record<string, unknown> = {}
			if (!started.has(index)) {
				started.add(index)
				delta.role = 'assistant'
			}
			if (text) delta.content = text
			if (reasoning) delta.reasoning_content = reasoning
			const before = toolCallCounts.get(index) ?? 0
			// Gemini sends each function call whole, so one delta carries its name and all its arguments.
			if (toolCalls.length > 0) {
				delta.tool_calls = toolCalls.map((call, offset) => ({ index: before + offset, ...call }))
				toolCallCounts.set(index, before + toolCalls.length)
			}
			const finishReason = openAIFinishReason(candidate.finishReason, (toolCallCounts.get(index) ?? 0) > 0)
			if (Object.keys(delta).length === 0 && finishReason === null) return
			chunks.push({ id, object: 'chat.completion.chunk', created, model, choices: [{ index, delta, finish_reason: finishReason }] })
		})
		return chunks
	}, (reason) => events.cancel(reason))
}
