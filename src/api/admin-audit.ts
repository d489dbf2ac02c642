/**
 * Writes the admin audit trail (issue 17): one log line of type 3 per change an admin makes,
 * naming who (the line's user and username are the admin's), what (`other.admin_action.action`)
 * and the target, with an English sentence as its content. Callers pass names, ids and field
 * names, never a secret's value (keys, passwords, secret options).
 *
 * `adminActionWork` is a unit of work to compose into the change's own transaction, so the change
 * and its line commit together; `recordAdminAction` is for changes made by a single statement.
 * Type 3 lines are also the ledger's admin credits (billing/audit.ts sums their quota): these lines
 * carry quota 0 and so leave the audit alone.
 */
import { LOG_TYPE } from '@shared/log'
import { ROLE } from '@shared/user-constants'
import type { AdminActionDetails, AdminActionName, AdminActionRecord } from '@shared/admin-action-constants'
import { rows, type Database, type Store, type Tables } from '@/db'
import type { UserRecord } from '@/db/stores/users'

export type AdminActor = Pick<UserRecord, 'id' | 'username' | 'role'>

export interface AdminAction {
	action: AdminActionName
	/**
	 * The changed thing, without its kind (the action names it), so the console can word it in its
	 * language: `#3 "openai-main"`, `#1 "a", #2 "b"`, `"team"` (a tag), `SMTPServer` (an option).
	 */
	target: string
	/** The sentence of the log line's content, after "<admin> ". */
	summary: string
	details?: AdminActionDetails
}

/** A short, quoted name for targets: `#3 "name"`. */
export const named = (id: number, name?: string) => `#${id}${name ? ` "${name}"` : ''}`

/** Past this many, a list of targets names the first ones and counts the rest. */
const LISTED_TARGETS = 20

/** `#1 "a", #2 "b"` by id, or the first LISTED_TARGETS of them and `… (+N)`: the same in every language (the log words the line around it). */
export function namedList(items: readonly { id: number; name?: string }[]) {
	const sorted = [...items].sort((first, second) => first.id - second.id)
	const listed = sorted.slice(0, LISTED_TARGETS).map((item) => named(item.id, item.name)).join(', ')
	return items.length > LISTED_TARGETS ? `${listed} … (+${items.length - LISTED_TARGETS})` : listed
}

function logValues(actor: AdminActor, { action, target, summary, details }: AdminAction) {
	const record: AdminActionRecord = { ...details, action, target }
	return {
		userId: actor.id,
		username: actor.username,
		type: LOG_TYPE.manage,
		quota: 0,
		content: `${actor.role >= ROLE.root ? 'super admin' : 'admin'} ${actor.username} ${summary}`,
		other: JSON.stringify({ admin_action: record }),
	}
}

export function* adminActionWork(tx: Database, tables: Tables, actor: AdminActor, action: AdminAction) {
	yield* rows(tx.insert(tables.logs).values(logValues(actor, action)).returning({ id: tables.logs.id }))
}

export async function recordAdminAction(store: Store, actor: AdminActor, action: AdminAction): Promise<void> {
	await store.transaction((tx, tables) => adminActionWork(tx, tables, actor, action))
}
