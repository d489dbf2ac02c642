/**
 * A playground conversation (docs/specification/playground-and-chat.md#the-playground): each message has a role, content and a state. A reply
 * is `loading` until its first text, `incomplete` while it streams, then `complete` or `error`.
 */
import type { ChatMessage, ExchangeRecord } from '@ui/features/playground/stream'

export const MESSAGE_STATE = { loading: 'loading', incomplete: 'incomplete', complete: 'complete', error: 'error' } as const
type MessageState = (typeof MESSAGE_STATE)[keyof typeof MESSAGE_STATE]

/** What a reply cost, from its log entry: tokens both ways and the quota charged. */
export type ReplyUsage = { promptTokens: number; completionTokens: number; quota: number }

export type PlaygroundMessage = {
	id: number
	role: 'user' | 'assistant'
	content: string
	state: MessageState
	error?: string
	/** A reply's model and how long it took (seconds). */
	model?: string
	seconds?: number
	/** A reply's charge; null when its log entry could not be read. */
	usage?: ReplyUsage | null
	/** A reply's request and answer as they went over the wire. */
	exchange?: ExchangeRecord
}

export type PlaygroundSettings = { group: string; model: string; temperature: number; maxTokens: number; systemPrompt: string }

export const TEMPERATURE = { min: 0.1, max: 1, step: 0.1 } as const

/** What the upstream is sent: the system prompt, then the finished turns, then the new question. */
export function outgoingMessages(systemPrompt: string, history: PlaygroundMessage[]): ChatMessage[] {
	const turns = history
		.filter((message) => message.state === MESSAGE_STATE.complete && message.content !== '')
		.map((message) => ({ role: message.role, content: message.content }))
	return systemPrompt.trim() ? [{ role: 'system', content: systemPrompt.trim() }, ...turns] : turns
}

export function appendText(messages: PlaygroundMessage[], id: number, text: string): PlaygroundMessage[] {
	return messages.map((message) => message.id === id ? { ...message, content: message.content + text, state: MESSAGE_STATE.incomplete } : message)
}

export function finish(messages: PlaygroundMessage[], id: number, outcome: { error?: string } = {}): PlaygroundMessage[] {
	return messages.map((message) => {
		if (message.id !== id) return message
		if (outcome.error !== undefined) return { ...message, state: MESSAGE_STATE.error, error: outcome.error }
		return { ...message, state: MESSAGE_STATE.complete }
	})
}

/** Sets fields of one message (a reply's time, exchange or charge once they are known). */
export function annotate(messages: PlaygroundMessage[], id: number, fields: Partial<PlaygroundMessage>): PlaygroundMessage[] {
	return messages.map((message) => (message.id === id ? { ...message, ...fields } : message))
}

/** The turns a reply answered: every message before it (the last one the user's question). */
export function turnsBefore(messages: PlaygroundMessage[], id: number): PlaygroundMessage[] {
	const index = messages.findIndex((message) => message.id === id)
	return index < 0 ? messages : messages.slice(0, index)
}

/** The model the playground starts with: gpt-4o-mini when offered (docs/specification/playground-and-chat.md#the-playground), else the first. */
const DEFAULT_MODEL = 'gpt-4o-mini'
export function defaultModel(models: string[]) {
	return models.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : models[0] ?? ''
}
