/** An OpenAI-format chat → an AI Proxy Library question. */
import { messageText } from '../shared/message-text'

type Message = { role?: unknown; content?: unknown }

/**
 * The library answers one question against its documents and keeps no conversation: the question
 * is the last user message (earlier turns and system prompts have no field to go in).
 */
function libraryQuery(messages: unknown): string {
	const list = Array.isArray(messages) ? (messages as Message[]) : []
	const lastUser = [...list].reverse().find((message) => message.role === 'user')
	return messageText(lastUser?.content)
}

export function libraryBody(body: Record<string, unknown>, libraryId: string) {
	return { model: body.model, query: libraryQuery(body.messages), libraryId, stream: body.stream === true }
}
