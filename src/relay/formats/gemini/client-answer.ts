/**
 * Answers in Gemini's shape, for Gemini-format clients: OpenAI-format answers of the relay
 * converted, Gemini's own passed on; whole answers, and streams as `alt=sse` events or, without
 * `alt=sse`, as one JSON array written piece by piece (what Google's API answers).
 */
import type { BodyReader } from '@/lib/outbound'
import { encodedStream, readSseAnswerEvents, type StreamEncoder, type WireFormat } from '../events'
import { parseGeneratedJson } from '../json'
import { dataOf } from '../sse'
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

/** Malformed or too deeply nested arguments become no arguments. */
function parseArguments(text: string | undefined): Record<string, unknown> {
	const parsed = parseGeneratedJson(text || '{}')
	if (!parsed) return {}
	return typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) ? parsed.value as Record<string, unknown> : { value: parsed.value }
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

export type GeminiStreamFraming = 'sse' | 'json-array'

/** A stream that failed upstream ends with an error typed as this status is (UNAVAILABLE). */
const UPSTREAM_ERROR_STATUS = 502

/**
 * Writes Gemini stream events in the client's framing: `alt=sse` events, or the elements of one JSON
 * array written piece by piece (what Google's API answers without `alt=sse`).
 */
function framer(framing: GeminiStreamFraming) {
	let written = 0
	return {
		/** `json` is one event's JSON text. */
		frame(json: string) {
			const text = framing === 'sse' ? `data: ${json}\r\n\r\n` : `${written === 0 ? '[' : ',\r\n'}${json}`
			written++
			return text
		},
		close: () => (framing === 'json-array' ? (written === 0 ? '[]' : ']') : ''),
	}
}

/** The stream encoder for a Gemini client: Gemini's own events passed on, OpenAI chunks converted. */
export function geminiStreamEncoder(wire: WireFormat, model: string, framing: GeminiStreamFraming): StreamEncoder {
	return wire === 'gemini' ? geminiEvents(framing) : geminiEventsFromOpenAI(model, framing)
}

/** Gemini's own events, each event's JSON text as the upstream sent it, in the client's framing. */
function geminiEvents(framing: GeminiStreamFraming): StreamEncoder {
	const frames = framer(framing)
	let finished = false
	return {
		encode(event) {
			if (finished) return ''
			if (event.type === 'data') return frames.frame(event.raw !== undefined ? dataOf(event.raw) : JSON.stringify(event.data))
			if (event.type !== 'failed') return ''
			finished = true
			return frames.frame(JSON.stringify(geminiErrorBody(UPSTREAM_ERROR_STATUS, event.error.message)))
		},
		end: frames.close,
	}
}

/**
 * OpenAI chunks → Gemini events. Text and reasoning are passed on as they come; function calls (whose
 * arguments OpenAI streams in pieces) are gathered and sent whole, with the finish reason and the
 * usage, in the last event. A failure ends the stream with Gemini's error as its last event.
 */
function geminiEventsFromOpenAI(model: string, framing: GeminiStreamFraming): StreamEncoder {
	const frames = framer(framing)
	const calls = new Map<number, Map<number, OpenAIToolCall & { arguments: string }>>()
	const finishes = new Map<number, string>()
	let usage: GeminiResponse['usageMetadata']
	let responseId: string | undefined
	let finished = false

	const frame = (value: unknown) => frames.frame(JSON.stringify(value))
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
	const finish = (last: unknown) => {
		if (finished) return ''
		finished = true
		return frame(last)
	}

	const onChunk = (chunk: OpenAIAnswer): string => {
		if (chunk.error) return finish(geminiErrorBody(UPSTREAM_ERROR_STATUS, chunk.error.message ?? 'the upstream stream failed'))
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
		return candidates.length > 0 ? frame(response(candidates)) : ''
	}

	return {
		encode(event) {
			if (finished) return ''
			switch (event.type) {
				case 'data':
					return onChunk(event.data as OpenAIAnswer)
				case 'done':
					return finish(finalEvent())
				case 'failed':
					return finish(geminiErrorBody(UPSTREAM_ERROR_STATUS, event.error.message))
				case 'other':
					return ''
			}
		},
		end: () => finish(finalEvent()) + frames.close(),
	}
}

/** An OpenAI-format SSE body as a Gemini stream (for callers holding bytes rather than events). */
export function geminiStreamFromOpenAI(reader: BodyReader, model: string, framing: GeminiStreamFraming): ReadableStream<Uint8Array> {
	return encodedStream(readSseAnswerEvents(reader), geminiEventsFromOpenAI(model, framing))
}
