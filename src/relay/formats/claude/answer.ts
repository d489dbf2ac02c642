/** An OpenAI chat completion → Claude's message object. */
import { parseGeneratedJson } from '../json'
import { stopReasonFromOpenAI } from './stop-reason'
import { thinkingBlocksOf, type ThinkingBlock } from './thinking'
import { claudeUsageFromOpenAI } from './usage'

type Json = Record<string, any>

const MESSAGE_ID_PREFIX = 'msg_'

export function claudeMessageId(openAIId: unknown) {
	const id = typeof openAIId === 'string' && openAIId ? openAIId : crypto.randomUUID()
	return id.startsWith(MESSAGE_ID_PREFIX) ? id : `${MESSAGE_ID_PREFIX}${id}`
}

/** Tool arguments are JSON text in OpenAI's form and an object in Claude's; malformed or too deeply nested text is passed on as text. */
function toolInput(text: unknown): unknown {
	if (typeof text !== 'string' || text.trim() === '') return {}
	const parsed = parseGeneratedJson(text)
	if (!parsed) return { arguments: text }
	return typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : { value: parsed.value }
}

/** Thinking blocks of an answer: Claude's own when an Anthropic upstream sent them, else the reasoning text unsigned. */
function thinkingOf(message: Json): ThinkingBlock[] {
	const blocks = thinkingBlocksOf(message)
	if (blocks.length > 0) return blocks
	return typeof message.reasoning_content === 'string' && message.reasoning_content
		? [{ type: 'thinking', thinking: message.reasoning_content, signature: '' }]
		: []
}

export function claudeMessageFromOpenAI(answer: Json, model: string) {
	const choice = Array.isArray(answer.choices) ? answer.choices[0] ?? {} : {}
	const message: Json = choice.message ?? {}
	const content: Json[] = [...thinkingOf(message)]
	if (typeof message.content === 'string' && message.content) content.push({ type: 'text', text: message.content })
	if (Array.isArray(message.tool_calls)) {
		for (const call of message.tool_calls) {
			content.push({ type: 'tool_use', id: call.id, name: call.function?.name, input: toolInput(call.function?.arguments) })
		}
	}
	return {
		id: claudeMessageId(answer.id),
		type: 'message',
		role: 'assistant',
		model,
		content,
		stop_reason: stopReasonFromOpenAI(choice.finish_reason) ?? 'end_turn',
		stop_sequence: null,
		usage: claudeUsageFromOpenAI(answer.usage),
	}
}
