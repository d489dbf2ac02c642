/** The user record as stored, and the one read of it that every layer needs. */
import { and, eq, isNull } from 'drizzle-orm'
import type { Store, Tables } from '@/db'

export type UserRecord = Tables['users']['$inferSelect']

export async function findUser(store: Store, id: number, { includeDeleted = false } = {}): Promise<UserRecord | undefined> {
	const { users } = store.tables
	const condition = includeDeleted ? eq(users.id, id) : and(eq(users.id, id), isNull(users.deletedAt))
	const [user] = await store.db.select().from(users).where(condition).limit(1)
	return user
}
