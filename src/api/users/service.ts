/** User administration by admins (docs/specification/accounts-and-settings.md#user-administration role rules) and the super admin. */
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { z } from 'zod'
import { isRowIdText, type Page, type PageQuery } from '@shared/api'
import { LOG_TYPE } from '@shared/log'
import { type UserAction, userActionRefusal } from '@shared/user-permissions'
import { ROLE, USER_MESSAGES, USER_STATUS, type createUserSchema, type manageUserSchema, type UserView, type updateUserSchema } from '@shared/user'
import { rows } from '@/db'
import type { Dependencies } from '@/dependencies'
import { setBalance } from '@/billing/ledger'
import { nowSeconds } from '@/lib/clock'
import { refused } from '../errors'
import { readPage } from '../paging'
import { findUser, type UserRecord } from '@/db/stores/users'
import { isUniqueViolation } from '@/db/unique-violation'
import { createAccount, signUpRewards, usernameTaken } from './repository'
import { assertSignInChangeable } from './demo-site'
import { toUserView } from './view'
import { adminActionWork, named, recordAdminAction, type AdminActor } from '../admin-audit'
import { logLine } from '@shared/messages/logs'
import type { BindingProvider } from '@shared/oauth'
import { PROVIDERS, unbindableUser, unbindRefusal } from '../oauth/identities'

/** The shared rule (`userActionRefusal`), which the console's row actions follow too. */
function assertMayTake(actor: AdminActor, target: UserRecord, action: UserAction) {
	const refusal = userActionRefusal(actor, target, action)
	if (refusal) throw refused(USER_MESSAGES[refusal])
}

async function requireTarget(dependencies: Dependencies, actor: AdminActor, id: number, action: UserAction) {
	const target = await findUser(dependencies.store, id)
	if (!target) throw refused(USER_MESSAGES.userNotFound)
	assertMayTake(actor, target, action)
	return target
}

async function listWhere(dependencies: Dependencies, where: SQL | undefined, query: PageQuery): Promise<Page<UserView>> {
	const { store } = dependencies
	const { users } = store.tables
	return readPage(query, (limit, offset) => store.db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(users).where(where), toUserView)
}

export function listUsers(dependencies: Dependencies, query: PageQuery) {
	return listWhere(dependencies, undefined, query)
}

/** Keyword matches the id exactly, or the username, display name or email in part. */
export function searchUsers(dependencies: Dependencies, { keyword, group }: { keyword: string; group: string }, query: PageQuery) {
	const { store } = dependencies
	const { users } = store.tables
	const conditions: SQL[] = []
	const text = keyword.trim()
	if (text) {
		const matches = [store.contains(users.username, text), store.contains(users.displayName, text), store.contains(users.email, text)]
		if (isRowIdText(text)) matches.push(eq(users.id, Number(text)))
		conditions.push(or(...matches)!)
	}
	if (group.trim()) conditions.push(eq(users.group, group.trim()))
	return listWhere(dependencies, conditions.length ? and(...conditions) : undefined, query)
}

export async function getUser(dependencies: Dependencies, actor: UserRecord, id: number): Promise<UserView> {
	return toUserView(await requireTarget(dependencies, actor, id, 'edit'))
}

export async function createUser(dependencies: Dependencies, actor: UserRecord, input: z.infer<typeof createUserSchema>) {
	if (input.role >= actor.role) throw refused(USER_MESSAGES.createEqualOrHigherRole)
	const { store } = dependencies
	if (await usernameTaken(store, input.username)) throw refused(USER_MESSAGES.usernameTaken)
	const password = await dependencies.passwords.hash(input.password)
	try {
		const created = await createAccount(store, {
			username: input.username,
			password,
			displayName: input.display_name || input.username,
			role: input.role,
		}, '', signUpRewards(dependencies))
		const target = named(created.id, created.username)
		await recordAdminAction(store, actor, { action: 'user.create', target, summary: `created user ${target} with role ${created.role}`, details: { role: created.role } })
		return toUserView(created)
	} catch (error) {
		if (isUniqueViolation(error)) throw refused(USER_MESSAGES.usernameTaken)
		throw error
	}
}

/**
 * Edits a user. A new quota is applied as a logged admin credit of the difference, atomically with
 * the other changes; a new password ends the user's sessions.
 */
export async function updateUser(dependencies: Dependencies, actor: UserRecord, input: z.infer<typeof updateUserSchema>) {
	const { store } = dependencies
	const target = await requireTarget(dependencies, actor, input.id, 'edit')
	const changes: Partial<UserRecord> = {}
	if (input.username !== undefined && input.username !== target.username) {
		if (await usernameTaken(store, input.username, target.id)) throw refused(USER_MESSAGES.usernameTaken)
		changes.username = input.username
	}
	if (input.display_name !== undefined) changes.displayName = input.display_name
	if (input.group !== undefined) changes.group = input.group
	if (input.email !== undefined) changes.email = input.email
	if (input.rpm_limit !== undefined) changes.rpmLimit = input.rpm_limit
	if (input.tpm_limit !== undefined) changes.tpmLimit = input.tpm_limit
	if (input.rpd_limit !== undefined) changes.rpdLimit = input.rpd_limit
	if (input.concurrency_limit !== undefined) changes.concurrencyLimit = input.concurrency_limit
	assertSignInChangeable(dependencies.options, target, { username: changes.username !== undefined, password: Boolean(input.password) })
	const newPassword = input.password ? await dependencies.passwords.hash(input.password) : undefined
	// The relay's token cache holds the owner's name, group and limits; a quota, display name, email
	// or password edit leaves it as it is (a notice would empty every node's token cache).
	const limitsChange = (['rpmLimit', 'tpmLimit', 'rpdLimit', 'concurrencyLimit'] as const).some((field) => changes[field] !== undefined && changes[field] !== target[field])
	const cachedFieldsChange = changes.username !== undefined || (changes.group !== undefined && changes.group !== target.group) || limitsChange
	try {
		return await store.transaction(function* (tx, tables) {
			const { users } = tables
			const targetName = named(target.id, target.username)
			if (input.quota !== undefined) {
				// The credit's own line (the ledger's record, on the user's account) is the audit line of a quota change.
				const to = input.quota
				yield* setBalance(tx, tables, {
					userId: target.id, quota: to, type: LOG_TYPE.manage,
					line: (from) => ({
						content: logLine('user.quota_changed', { admin: actor.username, from, to }).content,
						other: { admin_action: { action: 'user.quota', target: targetName, from, to, admin: actor.username, admin_id: actor.id } },
					}),
				})
			}
			if (newPassword) Object.assign(changes, { password: newPassword, passwordChangeRequired: false, passwordSet: true, sessionVersion: sql`${users.sessionVersion} + 1` })
			if (Object.keys(changes).length > 0) yield* rows(tx.update(users).set(changes).where(eq(users.id, target.id)).returning({ id: users.id }))
			const fields = editedUserFields(target, changes, Boolean(newPassword))
			if (fields.length > 0) {
				yield* adminActionWork(tx, tables, actor, { action: 'user.update', target: targetName, summary: `edited user ${targetName}: ${fields.join(', ')}`, details: { fields: fields.join(',') } })
			}
			const [updated] = yield* rows(tx.select().from(users).where(eq(users.id, target.id)))
			return toUserView(updated!)
		}).finally(() => {
			if (cachedFieldsChange) dependencies.changes.notify('users')
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw refused(USER_MESSAGES.usernameTaken)
		throw error
	}
}

/** The edited fields by name; a password only as "password". */
function editedUserFields(target: UserRecord, changes: Partial<UserRecord>, newPassword: boolean) {
	const fields: string[] = []
	if (changes.username !== undefined) fields.push('username')
	if (changes.displayName !== undefined && changes.displayName !== target.displayName) fields.push('display_name')
	if (changes.group !== undefined && changes.group !== target.group) fields.push('group')
	if (changes.email !== undefined && changes.email !== target.email) fields.push('email')
	for (const [field, column] of [['rpm_limit', 'rpmLimit'], ['tpm_limit', 'tpmLimit'], ['rpd_limit', 'rpdLimit'], ['concurrency_limit', 'concurrencyLimit']] as const) {
		if (changes[column] !== undefined && changes[column] !== target[column]) fields.push(field)
	}
	if (newPassword) fields.push('password')
	return fields
}

const MANAGE_SUMMARIES = { promote: 'promoted user {target} to admin', demote: 'demoted user {target} to user', disable: 'disabled user {target}', enable: 'enabled user {target}', delete: 'deleted user {target}' } as const

export async function manageUser(dependencies: Dependencies, actor: AdminActor, { id, action }: z.infer<typeof manageUserSchema>) {
	const target = await requireTarget(dependencies, actor, id, action)
	const { users } = dependencies.store.tables
	const endSessions = { sessionVersion: sql`${users.sessionVersion} + 1` }
	let changes: SQLiteUpdateSetSource<typeof users>
	switch (action) {
		case 'promote':
			changes = { role: ROLE.admin, ...endSessions }
			break
		case 'demote':
			changes = { role: ROLE.user, ...endSessions }
			break
		case 'disable':
			changes = { status: USER_STATUS.disabled, ...endSessions }
			break
		case 'enable':
			changes = { status: USER_STATUS.enabled }
			break
		case 'delete':
			changes = { deletedAt: nowSeconds(), accessTokenHash: null, accessTokenCipher: null, ...endSessions }
			break
	}
	const targetName = named(target.id, target.username)
	const updated = await dependencies.store.transaction(function* (tx, tables) {
		const [row] = yield* rows(tx.update(tables.users).set(changes).where(eq(tables.users.id, target.id)).returning({ status: tables.users.status, role: tables.users.role }))
		yield* adminActionWork(tx, tables, actor, { action: `user.${action}`, target: targetName, summary: MANAGE_SUMMARIES[action].replace('{target}', targetName) })
		return row
	})
	dependencies.changes.notify('users')
	return { status: updated!.status, role: updated!.role }
}

export async function deleteUser(dependencies: Dependencies, actor: AdminActor, id: number) {
	await manageUser(dependencies, actor, { id, action: 'delete' })
}

/** An admin unbinds a sign-in service from a user they may edit; refused, as for the user, when it is the last way in. */
export async function unbindUserIdentity(dependencies: Dependencies, actor: AdminActor, id: number, providerName: BindingProvider) {
	const target = await requireTarget(dependencies, actor, id, 'edit')
	const provider = PROVIDERS[providerName]
	const targetName = named(target.id, target.username)
	const cleared = await dependencies.store.transaction(function* (tx, tables) {
		const changed = yield* rows(tx.update(tables.users).set({ [provider.column]: '' }).where(unbindableUser(tables.users, provider, target.id)).returning({ id: tables.users.id }))
		if (changed.length === 0) return false
		yield* adminActionWork(tx, tables, actor, { action: 'user.unbind', target: targetName, summary: `unbound ${provider.label} from user ${targetName}`, details: { provider: provider.label } })
		return true
	})
	if (!cleared) throw await unbindRefusal(dependencies.store, provider, target.id)
}
