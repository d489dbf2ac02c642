/** An OpenAI-format chat → an AI Proxy Library question. */
type Message = { role?: unknown; content?: unknown }

function textOf(content: unknown): string {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	return content
		.filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
		.map((part) => part.text)
		.join('\n')
}

/**
 * The library answers one question against its documents and keeps no conversation: the question
 * is the last user message (earlier turns and system prompts have no field to go in).
 */
export function libraryQuery(messages: unknown): string {
	const list = Array.isArray(messages) ? (messages as Message[]) : []
	const lastUser = [...list].reverse().find((message) => message.role === 'user')
	return textOf(lastUser?.content)
}

export function libraryBody(body: Record<string, unknown>, libraryId: string) {
	return { model: body.model, query: libraryQuery(body.messages), libraryId, stream: body.stream === true }
}
