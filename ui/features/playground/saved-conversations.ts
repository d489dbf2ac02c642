/**
 * Conversations kept in this browser (localStorage), newest first: a reload or a later visit finds
 * them again. What a reply left behind for the raw view is cut short when saved, and the oldest
 * conversations go first, so the storage stays small.
 */
import { MESSAGE_STATE, type PlaygroundMessage } from '@ui/features/playground/conversation'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

export type SavedConversation = { id: string; title: string; updatedAt: number; messages: PlaygroundMessage[] }

const MAX_CONVERSATIONS = 20
const MAX_SAVED_RAW_CHARS = 4_000
const TITLE_CHARS = 40

function isConversation(value: unknown): value is SavedConversation {
	const candidate = value as SavedConversation
	return typeof candidate?.id === 'string' && typeof candidate.title === 'string' && Array.isArray(candidate.messages)
}

export function readConversations(): SavedConversation[] {
	try {
		const parsed: unknown = JSON.parse(readStorage(storageKeys.playgroundConversations) ?? '[]')
		return Array.isArray(parsed) ? parsed.filter(isConversation) : []
	} catch {
		return []
	}
}

/** A conversation's name in the list: its first question. */
export const titleOf = (messages: PlaygroundMessage[]) => (messages.find((message) => message.role === 'user')?.content ?? '').slice(0, TITLE_CHARS)

const cut = (text: string) => (text.length > MAX_SAVED_RAW_CHARS ? `${text.slice(0, MAX_SAVED_RAW_CHARS)}…` : text)

/** Saved as they stand; a reply still streaming is saved as stopped (a reload ends it). */
function forStorage(message: PlaygroundMessage): PlaygroundMessage {
	const settled = message.state === MESSAGE_STATE.loading || message.state === MESSAGE_STATE.incomplete ? { ...message, state: MESSAGE_STATE.complete } : message
	return settled.exchange ? { ...settled, exchange: { ...settled.exchange, request: cut(settled.exchange.request), answer: cut(settled.exchange.answer) } } : settled
}

export function saveConversation(id: string, messages: PlaygroundMessage[], now = Date.now()) {
	const others = readConversations().filter((conversation) => conversation.id !== id)
	const list = messages.length === 0 ? others : [{ id, title: titleOf(messages), updatedAt: now, messages: messages.map(forStorage) }, ...others]
	writeStorage(storageKeys.playgroundConversations, JSON.stringify(list.slice(0, MAX_CONVERSATIONS)))
}

export function forgetConversations() {
	writeStorage(storageKeys.playgroundConversations, null)
}

export const newConversationId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
