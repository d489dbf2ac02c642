/** An OpenAI-format chat → a Dify `chat-messages` request. */
import { messageText } from '../shared/message-text'

type Message = { role?: unknown; content?: unknown }

/**
 * Dify keeps conversations itself and takes one `query`. A single message is sent as it is; a longer
 * conversation (system prompt, earlier turns) is written out as a transcript, one `role: text` line
 * each, so nothing the client sent is lost.
 */
function difyQuery(messages: unknown): string {
	const list = Array.isArray(messages) ? (messages as Message[]) : []
	if (list.length === 1) return messageText(list[0]!.content)
	return list.map((message) => `${String(message.role)}: ${messageText(message.content)}`).join('\n')
}

/** Dify requires a user identifier; calls without one share this. */
const DEFAULT_DIFY_USER = 'ferry'

export function difyBody(body: Record<string, unknown>) {
	return {
		inputs: {},
		query: difyQuery(body.messages),
		response_mode: body.stream === true ? 'streaming' : 'blocking',
		user: typeof body.user === 'string' && body.user ? body.user : DEFAULT_DIFY_USER,
	}
}
