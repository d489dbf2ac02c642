/**
 * OpenAI chat body → Wenxin chat body. Baidu takes the system prompt as a `system` field, tools as
 * `functions`, and tool results as `function` messages carrying the function's name.
 */

type OpenAIToolCall = { id?: string; function?: { name?: string; arguments?: string } }
type OpenAIMessage = { role?: string; content?: unknown; name?: string; tool_calls?: OpenAIToolCall[]; tool_call_id?: string }
type OpenAITool = { function?: { name?: string; description?: string; parameters?: unknown } }

function text(content: unknown): string {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	return (content as { type?: string; text?: string }[]).filter((part) => part.type === 'text').map((part) => part.text ?? '').join('\n')
}

export function wenxinRequest(body: Record<string, unknown>): Record<string, unknown> {
	const source = (body.messages ?? []) as OpenAIMessage[]
	const system = source.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => text(message.content))
	const functionNames = new Map<string, string>()
	const messages = source.filter((message) => message.role !== 'system' && message.role !== 'developer').map((message) => {
		const call = message.tool_calls?.[0]
		if (message.role === 'assistant' && call) {
			for (const each of message.tool_calls!) if (each.id) functionNames.set(each.id, each.function?.name ?? '')
			return { role: 'assistant', content: text(message.content), function_call: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' } }
		}
		if (message.role === 'tool') {
			return { role: 'function', name: functionNames.get(message.tool_call_id ?? '') ?? message.name ?? '', content: text(message.content) }
		}
		return { role: message.role, content: text(message.content) }
	})
	const tools = Array.isArray(body.tools) ? body.tools as OpenAITool[] : []
	const maxTokens = body.max_completion_tokens ?? body.max_tokens
	return {
		messages,
		stream: body.stream === true,
		...(system.length ? { system: system.join('\n') } : {}),
		...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
		...(typeof body.top_p === 'number' ? { top_p: body.top_p } : {}),
		...(typeof maxTokens === 'number' ? { max_output_tokens: maxTokens } : {}),
		...(body.stop !== undefined ? { stop: Array.isArray(body.stop) ? body.stop : [body.stop] } : {}),
		...(typeof body.user === 'string' ? { user_id: body.user } : {}),
		...(tools.length ? {
			functions: tools.map((tool) => ({ name: tool.function?.name ?? '', description: tool.function?.description ?? '', parameters: tool.function?.parameters ?? {} })),
		} : {}),
	}
}
