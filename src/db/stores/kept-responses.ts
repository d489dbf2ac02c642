/**
 * Which channel created which Responses API response (design §5): a response that an upstream keeps
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
}

export async function rememberResponse(store: Store, response: KeptResponse): Promise<void> {
	const now = nowSeconds()
	await store.db.insert(store.tables.tasks).values({
		taskId: response.responseId, platform: KEPT_RESPONSE_PLATFORM, userId: response.userId, channelId: response.channelId,
		action: 'response', status: 'SUCCESS', submitTime: now, finishTime: now,
	})
}

/** The channel that created the user's response, or undefined when Ferry knows no such response of this user's. */
export async function keptResponseChannel(store: Store, responseId: string, userId: number): Promise<number | undefined> {
	const { tasks } = store.tables
	const [row] = await store.db.select({ channelId: tasks.channelId }).from(tasks)
		.where(and(eq(tasks.taskId, responseId), eq(tasks.platform, KEPT_RESPONSE_PLATFORM), eq(tasks.userId, userId))).limit(1)
	return row?.channelId
}

export async function forgetResponse(store: Store, responseId: string, userId: number): Promise<void> {
	const { tasks } = store.tables
	await store.db.delete(tasks).where(and(eq(tasks.taskId, responseId), eq(tasks.platform, KEPT_RESPONSE_PLATFORM), eq(tasks.userId, userId)))
}
