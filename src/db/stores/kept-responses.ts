/**
 * Which channel created which Responses API response (docs/architecture.md#the-relay): a response that an upstream keeps
 * (`store` not false, on a channel that speaks the API) can be continued (`previous_response_id`),
 * read, listed, cancelled and deleted only through that channel, on whichever node the call lands.
 * The record is a row of the `tasks` table — the table of objects an upstream keeps for a user, which
 * new-api's async tasks share — under its own platform name, found by its indexed `task_id`.
 */
import { and, eq } from 'drizzle-orm'
import type { Store } from '@/db'
import { nowSeconds } from '@/lib/clock'

/** The `tasks.platform` of these rows; any listing of async tasks leaves them out by it. */
export const KEPT_RESPONSE_PLATFORM = 'openai-responses'

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
	const now = nowSeconds()
	await store.db.insert(store.tables.tasks).values({
		taskId: response.responseId, platform: KEPT_RESPONSE_PLATFORM, userId: response.userId, channelId: response.channelId,
		action: 'response', status: 'SUCCESS', submitTime: now, finishTime: now, privateData: JSON.stringify({ key_index: response.keyIndex }),
	})
}

/** The key index a record keeps (`private_data`); 0 for records made before keys were recorded. */
function keyIndexOf(privateData: string): number {
	try {
		const index = (JSON.parse(privateData) as { key_index?: unknown }).key_index
		return typeof index === 'number' && Number.isSafeInteger(index) && index >= 0 ? index : 0
	} catch {
		return 0
	}
}

/** The channel and key that created the user's response, or undefined when Ferry knows no such response of this user's. */
export async function keptResponsePlace(store: Store, responseId: string, userId: number): Promise<KeptResponsePlace | undefined> {
	const { tasks } = store.tables
	const [row] = await store.db.select({ channelId: tasks.channelId, privateData: tasks.privateData }).from(tasks)
		.where(and(eq(tasks.taskId, responseId), eq(tasks.platform, KEPT_RESPONSE_PLATFORM), eq(tasks.userId, userId))).limit(1)
	return row && { channelId: row.channelId, keyIndex: keyIndexOf(row.privateData) }
}

export async function forgetResponse(store: Store, responseId: string, userId: number): Promise<void> {
	const { tasks } = store.tables
	await store.db.delete(tasks).where(and(eq(tasks.taskId, responseId), eq(tasks.platform, KEPT_RESPONSE_PLATFORM), eq(tasks.userId, userId)))
}
