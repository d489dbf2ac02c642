/**
 * Whether an answer calls a tool, in each wire format: OpenAI's `tool_calls` (or the finish reason
 * `tool_calls`), Claude's `tool_use` blocks, Gemini's `functionCall` parts, the Responses API's call
 * items. The response cache keeps no such answer: a tool's result is the caller's world, which a
 * replay cannot know.
 */
import type { Json, WireFormat } from './events'
import { isObject } from './json'

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** Responses API output items that are calls: functions, custom tools, hosted tools and the like. */
const isCallItem = (item: unknown) => isObject(item) && typeof item.type === 'string' && (item.type.endsWith('_call') || item.type === 'function_call')

function openAICalls(answer: Json): boolean {
	return list(answer.choices).some((choice) => {
		if (!isObject(choice)) return false
		const part = isObject(choice.message) ? choice.message : isObject(choice.delta) ? choice.delta : {}
		return list(part.tool_calls).length > 0 || isObject(part.function_call) || choice.finish_reason === 'tool_calls' || choice.finish_reason === 'function_call'
	})
}

function claudeCalls(answer: Json): boolean {
	if (list(answer.content).some((block) => isObject(block) && (block.type === 'tool_use' || block.type === 'server_tool_use'))) return true
	if (answer.stop_reason === 'tool_use') return true
	// Stream events: a block that starts a tool call, or the stop reason in message_delta.
	if (isObject(answer.content_block) && (answer.content_block.type === 'tool_use' || answer.content_block.type === 'server_tool_use')) return true
	return isObject(answer.delta) && answer.delta.stop_reason === 'tool_use'
}

function geminiCalls(answer: Json): boolean {
	return list(answer.candidates).some((candidate) => isObject(candidate) && isObject(candidate.content)
		&& list(candidate.content.parts).some((part) => isObject(part) && isObject(part.functionCall)))
}

function responsesCalls(answer: Json): boolean {
	if (list(answer.output).some(isCallItem)) return true
	// Stream events carry their item, or the whole response at its end.
	if (isCallItem(answer.item)) return true
	return isObject(answer.response) && list(answer.response.output).some(isCallItem)
}

const READERS: Record<WireFormat, (answer: Json) => boolean> = { openai: openAICalls, claude: claudeCalls, gemini: geminiCalls, responses: responsesCalls }

/** Whether a whole answer, or one stream event, in `wire` calls a tool. */
export function callsTool(wire: WireFormat, answer: Json): boolean {
	return READERS[wire](answer)
}
