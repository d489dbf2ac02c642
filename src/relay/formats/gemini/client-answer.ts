/**
 * OpenAI-format answers of the pipeline in Gemini's shape, for Gemini-format clients: whole answers,
 * and streams as `alt=sse` events or, without `alt=sse`, as one JSON array written piece by piece
 * (what Google's API answers).
 */
import type { BodyReader } from '@/lib/outbound'
import { readSseEvents } from '../sse'
import { geminiErrorBody } from './errors'
import { geminiFinishReason } from './finish-reason'
import type { GeminiCandidate, GeminiPart, GeminiResponse } from './types'
import { geminiUsageFromOpenAI } from './usage'

interface OpenAIToolCall {
	index?: number
	id?: string
	function?: { name?: string; arguments?: string }
	extra_content?: { google?: { thought_signature?: string } }
}

interface OpenAIChoice {
	index?: number
	message?: { content?: unknown; reasoning_content?: unknown; tool_calls?: OpenAIToolCall[] }
	delta?: OpenAIChoice['message']
	finish_reason?: string | null
}

interface OpenAIAnswer {
	id?: string
	model?: string
	choices?: OpenAIChoice[]
	usage?: Parameters<typeof geminiUsageFromOpenAI>[0]
	error?: { message?: string; code?: unknown }
}

function parseArguments(text: string | undefined): Record<string, unknown> {
	try {
		const parsed = JSON.parse(text || '{}')
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { value: parsed }
	} catch {
		return {}
	}
}

function functionCallPart(call: OpenAIToolCall): GeminiPart {
	const signature = call.extra_content?.google?.thought_signature
	return {
		functionCall: { ...(call.id ? { id: call.id } : {}), name: call.function?.name ?? '', args: parseArguments(call.function?.arguments) },
		...(signature ? { thoughtSignature: signature } : {}),
	}
}

function partsOf(message: OpenAIChoice['message']): GeminiPart[] {
	const parts: GeminiPart[] = []
	if (typeof message?.reasoning_content === 'string' && message.reasoning_content) parts.push({ text: message.reasoning_content, thought: true })
	if (typeof message?.content === 'string' && message.content) parts.push({ text: message.content })
	for (const call of message?.tool_calls ?? []) parts.push(functionCallPart(call))
	return parts
}

export function geminiAnswerFromOpenAI(answer: OpenAIAnswer, model: string): GeminiResponse {
	const candidates: GeminiCandidate[] = (answer.choices ?? []).map((choice, position) => {
		const parts = partsOf(choice.message)
		return {
			content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
			finishReason: geminiFinishReason(choice.finish_reason) ?? 'STOP',
			index: choice.index ?? position,
		}
	})
	return {
		candidates,
		...(answer.usage ? { usageMetadata: geminiUsageFromOpenAI(answer.usage) } : {}),
		modelVersion: model,
		...(answer.id ? { responseId: answer.id } : {}),
	}
}

type GeminiStreamFraming = 'sse' | 'json-array'

/** A stream that failed upstream ends with an error typed as this status is (UNAVAILABLE). */
const UPSTREAM_ERROR_STATUS = 502

const encoder = new TextEncoder()

/**
 * Text and reasoning are passed on as they come; function calls (whose arguments OpenAI streams in
 * pieces) are gathered and sent whole, with the finish reason and the usage, in the last event.
 */
export function geminiStreamFromOpenAI(reader: BodyReader, model: string, framing: GeminiStreamFraming): ReadableStream<Uint8Array> {
	const events = readSseEvents(reader)
	const calls = new Map<number, Map<number, OpenAIToolCall & { arguments: string }>>()
	const finishes = new Map<number, string>()
	let usage: GeminiResponse['usageMetadata']
	let responseId: string | undefined
	let written = 0
	let closed = false

	const frame = (value: unknown) => {
		const json = JSON.stringify(value)
		const text = framing === 'sse' ? `data: ${json}\r\n\r\n` : `${written === 0 ? '[' : ',\r\n'}${json}`
		written++
		return encoder.encode(text)
	}
	const response = (candidates: GeminiCandidate[]): GeminiResponse => ({ candidates, modelVersion: model, ...(responseId ? { responseId } : {}) })
	const finalEvent = () => {
		const indexes = new Set([...finishes.keys(), ...calls.keys()])
		if (indexes.size === 0) indexes.add(0)
		const candidates = [...indexes].sort().map((index) => {
			const parts = [...(calls.get(index)?.values() ?? [])].map((call) => functionCallPart({ ...call, function: { name: call.function?.name, arguments: call.arguments } }))
			return { content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] }, finishReason: geminiFinishReason(finishes.get(index)) ?? 'STOP', index }
		})
		return { ...response(candidates), ...(usage ? { usageMetadata: usage } : {}) }
	}
	const close = (controller: ReadableStreamDefaultController<Uint8Array>, last: unknown) => {
		closed = true
		controller.enqueue(frame(last))
		if (framing === 'json-array') controller.enqueue(encoder.encode(']'))
		controller.close()
	}

	/** One pull: enqueues the next event with content, or closes the stream at its end. */
	const step = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
		for (;;) {
			if (closed) return
			const event = await events.next()
			if (!event || event.data === '[DONE]') {
				void events.cancel().catch(() => {})
				return close(controller, finalEvent())
			}
			if (!event.data.trim()) continue
			const chunk = JSON.parse(event.data) as OpenAIAnswer
			if (chunk.error) {
				void events.cancel().catch(() => {})
				return close(controller, geminiErrorBody(UPSTREAM_ERROR_STATUS, chunk.error.message ?? 'the upstream stream failed'))
			}
			responseId ??= chunk.id
			if (chunk.usage) usage = geminiUsageFromOpenAI(chunk.usage)
			const candidates: GeminiCandidate[] = []
			for (const [position, choice] of (chunk.choices ?? []).entries()) {
				const index = choice.index ?? position
				const delta = choice.delta ?? {}
				for (const call of delta.tool_calls ?? []) {
					const gathered = calls.get(index) ?? new Map()
					calls.set(index, gathered)
					const callIndex = call.index ?? gathered.size
					const known = gathered.get(callIndex) ?? { arguments: '' }
					gathered.set(callIndex, {
						...known,
						id: call.id ?? known.id,
						function: { name: call.function?.name ?? known.function?.name },
						extra_content: call.extra_content ?? known.extra_content,
						arguments: known.arguments + (call.function?.arguments ?? ''),
					})
				}
				if (choice.finish_reason) finishes.set(index, choice.finish_reason)
				const parts = partsOf({ content: delta.content, reasoning_content: delta.reasoning_content })
				if (parts.length > 0) candidates.push({ content: { role: 'model', parts }, index })
			}
			if (candidates.length > 0) {
				controller.enqueue(frame(response(candidates)))
				return
			}
		}
	}

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				await step(controller)
			} catch (error) {
				// Like an error chunk: the stream ends with an error in Gemini's shape, never with a broken body.
				if (closed) return
				void events.cancel().catch(() => {})
				const message = error instanceof SyntaxError ? 'the upstream sent a malformed stream event' : 'the upstream connection was lost'
				close(controller, geminiErrorBody(UPSTREAM_ERROR_STATUS, message))
			}
		},
		async cancel(reason) {
			closed = true
			await events.cancel(reason)
		},
	})
}
