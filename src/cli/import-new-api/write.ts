/**
 * Stores a plan in the Ferry database in one transaction — all of it or, on any error, nothing —
 * so a failed import can simply be run again. The target must hold no user data: an import never
 * merges into a running installation.
 */
import { count } from 'drizzle-orm'
import { run, type Store, type Tables } from '@/db'
import { insertRows } from '@/db/bulk-insert'
import { advanceIdSequences } from '@/db/id-sequences'
import { rebuildAllAbilities } from '@/db/stores/abilities'
import { bookOpeningBalances } from '@/billing/opening-balance'
import type { ImportPlan } from './plan'

/** Tables whose rows the import gives ids: their id sequences move past them afterwards (Postgres). */
export const TABLES_WITH_IMPORTED_IDS = ['users', 'tokens', 'channels', 'redemptions', 'top_ups', 'logs', 'tasks'] as const

export class TargetNotEmptyError extends Error {}

/** Refuses a target that already holds users, tokens, channels, codes or logs, naming what it found. */
export async function requireEmptyTarget(store: Store, where: string) {
	const { users, tokens, channels, redemptions, logs } = store.tables
	const found: string[] = []
	for (const [name, table] of [['users', users], ['tokens', tokens], ['channels', channels], ['redemption codes', redemptions], ['log lines', logs]] as const) {
		const [row] = await store.db.select({ value: count() }).from(table)
		if (Number(row?.value ?? 0) > 0) found.push(`${row!.value} ${name}`)
	}
	if (found.length) {
		throw new TargetNotEmptyError(`the Ferry database (${where}) already holds data (${found.join(', ')}): an import goes only into an empty database. `
			+ 'Point DATA_DIR or DATABASE_URL at a new one (and run the import before Ferry first starts there, which creates the root user).')
	}
}

export interface WriteContext {
	source: string
	time: number
	progress(line: string): void
}

export async function writePlan(store: Store, plan: ImportPlan, { source, time, progress }: WriteContext) {
	await store.transaction(function* (tx, tables: Tables) {
		yield* insertRows(tables.users, plan.users)
		progress(`wrote users: ${plan.users.length}`)
		yield* insertRows(tables.tokens, plan.tokens)
		progress(`wrote tokens: ${plan.tokens.length}`)
		yield* insertRows(tables.channels, plan.channels)
		yield* insertRows(tables.channelKeys, plan.channels.flatMap((channel) => channel.keys ?? []))
		const channelCount = yield* rebuildAllAbilities(tx, tables)
		progress(`wrote channels: ${channelCount}, abilities rebuilt`)
		for (const option of plan.options) {
			yield* run(tx.insert(tables.options).values(option).onConflictDoUpdate({ target: tables.options.key, set: { value: option.value } }))
		}
		progress(`wrote options: ${plan.options.length}`)
		yield* insertRows(tables.redemptions, plan.redemptions)
		progress(`wrote redemption codes: ${plan.redemptions.length}`)
		yield* insertRows(tables.topUps, plan.topUps)
		progress(`wrote top-up orders: ${plan.topUps.length}`)
		const lines = yield* bookOpeningBalances(tx, tables, plan.accounts, { source, time, firstLogId: plan.firstLogId })
		progress(`opened balances: ${plan.accounts.length} users, ${lines} log lines`)
	})
	await advanceIdSequences(store, TABLES_WITH_IMPORTED_IDS)
}
