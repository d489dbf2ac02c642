/** An OpenAI-format chat request → a Cohere v2 `/v2/chat` request. */
type OpenAIMessage = { role?: string; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown }

/** Cohere takes text and image parts in OpenAI's own shape; other parts are dropped. */
function contentOf(content: unknown): unknown {
	if (typeof content === 'string' || !Array.isArray(content)) return content ?? ''
	return content.filter((part: { type?: unknown }) => part?.type === 'text' || part?.type === 'image_url')
}

function cohereMessage(message: OpenAIMessage) {
	const role = message.role === 'developer' ? 'system' : message.role
	if (role === 'tool') return { role, tool_call_id: message.tool_call_id, content: contentOf(message.content) }
	if (role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
		return { role, tool_calls: message.tool_calls, ...(message.content ? { content: contentOf(message.content) } : {}) }
	}
	return { role, content: contentOf(message.content) }
}

/** OpenAI's `tool_choice` → Cohere's; a named function cannot be forced at Cohere, so it becomes "required". */
function toolChoice(choice: unknown): string | undefined {
	if (choice === 'none') return 'NONE'
	if (choice === 'required' || (typeof choice === 'object' && choice !== null)) return 'REQUIRED'
	return undefined
}

function responseFormat(format: unknown): unknown {
	const requested = format as { type?: string; json_schema?: { schema?: unknown } } | undefined
	if (requested?.type === 'json_object') return { type: 'json_object' }
	if (requested?.type === 'json_schema') return { type: 'json_object', json_schema: requested.json_schema?.schema }
	return undefined
}

export function cohereChatBody(body: Record<string, unknown>): Record<string, unknown> {
	const stop = typeof body.stop === 'string' ? [body.stop] : body.stop
	const fields: Record<string, unknown> = {
		model: body.model,
		messages: (Array.isArray(body.messages) ? (body.messages as OpenAIMessage[]) : []).map(cohereMessage),
		stream: body.stream === true,
		tools: body.tools,
		tool_choice: toolChoice(body.tool_choice),
		max_tokens: body.max_completion_tokens ?? body.max_tokens,
		temperature: body.temperature,
		p: body.top_p,
		stop_sequences: stop,
		seed: body.seed,
		frequency_penalty: body.frequency_penalty,
		presence_penalty: body.presence_penalty,
		response_format: responseFormat(body.response_format),
	}
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null))
}
