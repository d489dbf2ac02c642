/** Reads and small writes of `users` shared by the account and administration services. */
import { and, eq, isNull, sql } from 'drizzle-orm'
import { rows, type Store, type Tables } from '@/db'
import { randomString } from '@/lib/crypto'
import type { UserRecord } from './view'

export async function findUser(store: Store, id: number, { includeDeleted = false } = {}): Promise<UserRecord | undefined> {
	const { users } = store.tables
	const condition = includeDeleted ? eq(users.id, id) : and(eq(users.id, id), isNull(users.deletedAt))
	const [user] = await store.db.select().from(users).where(condition).limit(1)
	return user
}

export async function usernameTaken(store: Store, username: string, exceptId = 0): Promise<boolean> {
	const { users } = store.tables
	const [row] = await store.db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1)
	return row !== undefined && row.id !== exceptId
}

/** Ends every session of the user (design §6). */
export async function endSessions(store: Store, userId: number) {
	const { users } = store.tables
	const [row] = await store.db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, userId)).returning({ sessionVersion: users.sessionVersion })
	return row?.sessionVersion
}

export const newAffCode = () => randomString(8)

/** Unique-constraint violations look different on each dialect; both mention "unique". */
export function isUniqueViolation(error: unknown): boolean {
	const text = `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`
	return /unique|23505/i.test(text)
}

export type NewAccount = Omit<Tables['users']['$inferInsert'], 'affCode' | 'inviterId'>

/**
 * Creates an account, crediting the invitation to the owner of `invitationCode` (an unknown or
 * stale code is ignored, so an old link never blocks a sign-up). The invitation count moves in the
 * same transaction as the insert.
 */
export async function createAccount(store: Store, account: NewAccount, invitationCode = ''): Promise<UserRecord> {
	const { users } = store.tables
	const [inviter] = invitationCode
		? await store.db.select({ id: users.id }).from(users).where(and(eq(users.affCode, invitationCode), isNull(users.deletedAt))).limit(1)
		: []
	return store.transaction(function* (tx, tables) {
		const [created] = yield* rows(tx.insert(tables.users).values({ ...account, affCode: newAffCode(), inviterId: inviter?.id ?? 0 }).returning())
		if (inviter) {
			yield* rows(tx.update(tables.users).set({ affCount: sql`${tables.users.affCount} + 1` }).where(eq(tables.users.id, inviter.id)).returning({ id: tables.users.id }))
		}
		return created!
	})
}
