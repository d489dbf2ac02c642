/**
 * Which channel created which Responses API response (docs/architecture.md#the-relay): a response that an upstream keeps
 * (`store` not false, on a channel that speaks the API) can be continued (`previous_response_id`),
 * read, listed, cancelled and deleted only through that channel, on whichever node the call lands.
 * The records are the `kept_responses` table's (they shared the `tasks` table until migration 0012
 * moved them out), found by their indexed response id and owner.
 */
import { and, eq } from 'drizzle-orm'
import type { Store } from '@/db'
import { equalsText } from '@/db/stored-text'

interface KeptResponse {
	responseId: string
	userId: number
	channelId: number
	/** The key (`#index`) that created it: an upstream keeps a response for the key's organisation only. */
	keyIndex: number
}

/** Where a kept response lives: its channel and key. */
export interface KeptResponsePlace {
	channelId: number
	keyIndex: number
}

export async function rememberResponse(store: Store, response: KeptResponse): Promise<void> {
	await store.db.insert(store.tables.keptResponses).values(response)
}

/** The channel and key that created the user's response, or undefined when Ferry knows no such response of this user's. */
export async function keptResponsePlace(store: Store, responseId: string, userId: number): Promise<KeptResponsePlace | undefined> {
	const { keptResponses } = store.tables
	const [row] = await store.db.select({ channelId: keptResponses.channelId, keyIndex: keptResponses.keyIndex }).from(keptResponses)
		.where(and(equalsText(keptResponses.responseId, responseId), eq(keptResponses.userId, userId))).limit(1)
	return row
}

export async function forgetResponse(store: Store, responseId: string, userId: number): Promise<void> {
	const { keptResponses } = store.tables
	await store.db.delete(keptResponses).where(and(equalsText(keptResponses.responseId, responseId), eq(keptResponses.userId, userId)))
}
