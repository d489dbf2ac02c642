/**
 * OpenAI chat body → Zhipu v3 `model-api` body. v3 knows only `user` and `assistant` turns: a system
 * prompt becomes a user turn acknowledged by an assistant turn, so the alternation holds.
 */

type OpenAIMessage = { role?: string; content?: unknown }

/** The assistant turn that follows a system prompt sent as a user turn. */
const SYSTEM_ACKNOWLEDGEMENT = 'Okay'

function text(content: unknown): string {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	return (content as { type?: string; text?: string }[]).filter((part) => part.type === 'text').map((part) => part.text ?? '').join('\n')
}

export function zhipuV3Request(body: Record<string, unknown>): Record<string, unknown> {
	const prompt = ((body.messages ?? []) as OpenAIMessage[]).flatMap((message) => {
		if (message.role === 'system' || message.role === 'developer') {
			return [{ role: 'user', content: text(message.content) }, { role: 'assistant', content: SYSTEM_ACKNOWLEDGEMENT }]
		}
		return [{ role: message.role === 'assistant' ? 'assistant' : 'user', content: text(message.content) }]
	})
	return {
		prompt,
		...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
		...(typeof body.top_p === 'number' ? { top_p: body.top_p } : {}),
		...(body.stream === true ? { incremental: true } : {}),
	}
}
