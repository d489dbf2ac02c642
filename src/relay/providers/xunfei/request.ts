/** OpenAI chat body → the one request frame Spark expects (`header`, `parameter.chat`, `payload`). */

import { messageText } from '../shared/message-text'

type OpenAIMessage = { role?: string; content?: unknown }
type OpenAITool = { type?: string; function?: { name?: string; description?: string; parameters?: unknown } }

/** `header.uid` is at most 32 characters; longer OpenAI `user` values are left out. */
const UID_LIMIT = 32

/**
 * Spark knows `system`, `user` and `assistant`. A tool result has no documented role: it goes
 * back as a user message, so the conversation stays valid.
 */
function role(source: string | undefined) {
	if (source === 'system' || source === 'developer') return 'system'
	if (source === 'assistant') return 'assistant'
	return 'user'
}

export function sparkFrame(body: Record<string, unknown>, appId: string, domain: string): Record<string, unknown> {
	const tools = Array.isArray(body.tools) ? body.tools as OpenAITool[] : []
	const maxTokens = body.max_completion_tokens ?? body.max_tokens
	const user = typeof body.user === 'string' && body.user.length <= UID_LIMIT ? body.user : undefined
	return {
		header: { app_id: appId, ...(user ? { uid: user } : {}) },
		parameter: {
			chat: {
				domain,
				...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
				...(typeof maxTokens === 'number' ? { max_tokens: maxTokens } : {}),
			},
		},
		payload: {
			message: { text: ((body.messages ?? []) as OpenAIMessage[]).map((message) => ({ role: role(message.role), content: messageText(message.content) /* Spark reads text only */ })) },
			...(tools.length ? {
				functions: {
					text: tools.map((tool) => ({ name: tool.function?.name ?? '', description: tool.function?.description ?? '', parameters: tool.function?.parameters ?? {} })),
				},
			} : {}),
		},
	}
}
