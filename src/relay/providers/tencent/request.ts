/** OpenAI chat body → Hunyuan `ChatCompletions` body (PascalCase fields, tools as JSON strings). */

type OpenAIPart = { type?: string; text?: string; image_url?: { url?: string } | string }
type OpenAIToolCall = { id?: string; type?: string; function?: { name?: string; arguments?: string } }
type OpenAIMessage = { role?: string; content?: unknown; tool_calls?: OpenAIToolCall[]; tool_call_id?: string }
type OpenAITool = { type?: string; function?: { name?: string; description?: string; parameters?: unknown } }

function contentFields(content: unknown): Record<string, unknown> {
	if (!Array.isArray(content)) return { Content: typeof content === 'string' ? content : '' }
	return {
		Contents: (content as OpenAIPart[]).map((part) => part.type === 'image_url'
			? { Type: 'image_url', ImageUrl: { Url: typeof part.image_url === 'string' ? part.image_url : part.image_url?.url ?? '' } }
			: { Type: 'text', Text: part.text ?? '' }),
	}
}

function message(source: OpenAIMessage) {
	return {
		Role: source.role === 'developer' ? 'system' : source.role,
		...contentFields(source.content),
		...(source.tool_calls?.length ? {
			ToolCalls: source.tool_calls.map((call) => ({
				Id: call.id, Type: 'function', Function: { Name: call.function?.name ?? '', Arguments: call.function?.arguments ?? '' },
			})),
		} : {}),
		...(source.tool_call_id ? { ToolCallId: source.tool_call_id } : {}),
	}
}

/** OpenAI's `tool_choice` as Hunyuan's `ToolChoice` (+ `CustomTool` for a named function). */
function toolChoice(choice: unknown, tools: OpenAITool[]) {
	if (choice === 'none' || choice === 'auto') return { ToolChoice: choice }
	if (choice === 'required') return { ToolChoice: 'auto' }
	const name = (choice as { function?: { name?: string } } | undefined)?.function?.name
	const chosen = name ? tools.find((tool) => tool.function?.name === name) : undefined
	return chosen ? { ToolChoice: 'custom', CustomTool: hunyuanTool(chosen) } : {}
}

function hunyuanTool(tool: OpenAITool) {
	return {
		Type: 'function',
		Function: { Name: tool.function?.name ?? '', Description: tool.function?.description ?? '', Parameters: JSON.stringify(tool.function?.parameters ?? {}) },
	}
}

export function hunyuanRequest(body: Record<string, unknown>): Record<string, unknown> {
	const tools = Array.isArray(body.tools) ? body.tools as OpenAITool[] : []
	return {
		Model: body.model,
		Messages: ((body.messages ?? []) as OpenAIMessage[]).map(message),
		Stream: body.stream === true,
		...(typeof body.temperature === 'number' ? { Temperature: body.temperature } : {}),
		...(typeof body.top_p === 'number' ? { TopP: body.top_p } : {}),
		...(tools.length ? { Tools: tools.map(hunyuanTool), ...toolChoice(body.tool_choice, tools) } : {}),
	}
}
