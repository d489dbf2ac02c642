/**
 * Claude's message → OpenAI's chat completion. Text blocks join into `content`, `tool_use` blocks
 * become `tool_calls` (arguments as a JSON string), thinking text becomes `reasoning_content` and
 * the blocks themselves ride along for Claude-format clients (formats/claude/NOTES.md). The call of
 * the structured-output fallback tool the request added (structured-output.ts) is the answer's text.
 */
import { finishReasonFromClaude } from '../../formats/claude/stop-reason'
import { isThinkingBlock, THINKING_BLOCKS_FIELD, type ThinkingBlock } from '../../formats/claude/thinking'
import { openAIUsageFromClaude, type ClaudeUsage } from '../../formats/claude/usage'
import { fallbackAnswerText, fallbackToolOf } from './structured-output'

type Json = Record<string, unknown>

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** `request` is the OpenAI-format body the upstream request was built from (its model the upstream's). */
export function openAIAnswerFromClaude(text: string, model: string, request?: Json): Json {
	const message = JSON.parse(text) as Json
	if (typeof message !== 'object' || message === null || !Array.isArray(message.content)) throw new SyntaxError('not a Claude message')
	const fallback = fallbackToolOf(request)
	let answeredByTool = false
	const texts: string[] = []
	const reasoning: string[] = []
	const thinking: ThinkingBlock[] = []
	const toolCalls: Json[] = []
	for (const block of message.content as Json[]) {
		if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
		else if (block.type === 'tool_use' && fallback && block.name === fallback.name) {
			// The answer itself: text before the call was the model thinking aloud.
			texts.length = 0
			texts.push(fallbackAnswerText(block.input, fallback))
			answeredByTool = true
		} else if (block.type === 'tool_use') {
			toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } })
		} else if (isThinkingBlock(block)) {
			thinking.push(block)
			if (block.type === 'thinking') reasoning.push(block.thinking)
		}
	}
	const answerMessage: Json = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null }
	if (reasoning.length > 0) answerMessage.reasoning_content = reasoning.join('')
	if (thinking.length > 0) answerMessage[THINKING_BLOCKS_FIELD] = thinking
	if (toolCalls.length > 0) answerMessage.tool_calls = toolCalls
	return {
		id: message.id,
		object: 'chat.completion',
		created: nowSeconds(),
		model,
		choices: [{ index: 0, message: answerMessage, logprobs: null, finish_reason: answeredByTool && toolCalls.length === 0 ? 'stop' : finishReasonFromClaude(message.stop_reason) ?? 'stop' }],
		usage: openAIUsageFromClaude((message.usage ?? {}) as ClaudeUsage),
	}
}
