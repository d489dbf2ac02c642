/** Spark frames → OpenAI's whole answer and stream chunks. */
import { openAIUsage } from '../shared/openai-usage'
import { isFailure, isLast, failureMessage, SparkStreamError, type SparkFrame, type SparkFunctionCall } from './frames'

/** Spark gives a call no id: the answer's `sid` names it. */
function openAIToolCall(call: SparkFunctionCall, sid: string) {
	return {
		id: `call_${sid}`,
		type: 'function',
		function: { name: call.name ?? '', arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}) },
	}
}

const pieces = (frame: SparkFrame) => frame.payload?.choices?.text ?? []

export function wholeAnswer(frames: SparkFrame[], model: string, created: number): Record<string, unknown> {
	const sid = frames[0]?.header?.sid ?? ''
	const content = frames.flatMap(pieces).map((piece) => piece.content ?? '').join('')
	const call = frames.flatMap(pieces).findLast((piece) => piece.function_call)?.function_call
	const usage = frames.findLast((frame) => frame.payload?.usage?.text)?.payload?.usage?.text ?? {}
	return {
		id: sid,
		object: 'chat.completion',
		created,
		model,
		choices: [{
			index: 0,
			message: { role: 'assistant', content, ...(call ? { tool_calls: [openAIToolCall(call, sid)] } : {}) },
			finish_reason: call ? 'tool_calls' : 'stop',
		}],
		usage: openAIUsage(usage),
	}
}

/** Turns frames into chunks one at a time; remembers the id, the role sent and whether a tool was called. */
export function chunkWriter(model: string, created: number) {
	let id = ''
	let roleSent = false
	let called = false
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return (frame: SparkFrame): unknown[] => {
		if (isFailure(frame)) throw new SparkStreamError(failureMessage(frame))
		id ||= frame.header?.sid ?? ''
		const chunks: unknown[] = pieces(frame).map((piece) => {
			const delta: Record<string, unknown> = { ...(roleSent ? {} : { role: 'assistant' }), content: piece.content ?? '' }
			roleSent = true
			if (piece.function_call) {
				called = true
				delta.tool_calls = [{ index: 0, ...openAIToolCall(piece.function_call, id) }]
			}
			return chunk([{ index: 0, delta, finish_reason: null }])
		})
		if (!isLast(frame)) return chunks
		chunks.push(chunk([{ index: 0, delta: {}, finish_reason: called ? 'tool_calls' : 'stop' }]))
		const usage = frame.payload?.usage?.text
		if (usage) chunks.push(chunk([], { usage: openAIUsage(usage) }))
		return chunks
	}
}
