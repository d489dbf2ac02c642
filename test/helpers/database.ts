/**
 * The databases every store and API suite runs on: SQLite always, Postgres when
 * TEST_DATABASE_URL is set. Each opened Postgres store lives in a schema of its own, dropped on close.
 */
import postgres from 'postgres'
import { openStore, type Dialect, type Store } from '@/db'
import { randomString } from '@/lib/crypto'
import { postgresUrl } from './services'

export interface DatabaseTarget {
	dialect: Dialect
	open(): Promise<Store>
}

const sqliteTarget: DatabaseTarget = {
	dialect: 'sqlite',
	open: () => openStore({ databaseUrl: '', dataDir: ':memory:' }),
}

function pgTarget(url: string): DatabaseTarget {
	return {
		dialect: 'pg',
		async open() {
			const schema = `test_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
			const store = await openStore({ databaseUrl: url, dataDir: '', pgSchema: schema })
			return {
				...store,
				async close() {
					await store.close()
					const admin = postgres(url, { max: 1, onnotice: () => {} })
					await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
					await admin.end({ timeout: 5 })
				},
			}
		},
	}
}

export function databaseTargets(): DatabaseTarget[] {
	const url = postgresUrl()
	return url ? [sqliteTarget, pgTarget(url)] : [sqliteTarget]
}
