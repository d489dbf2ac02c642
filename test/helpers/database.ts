/**
 * The databases every store and API suite runs on: SQLite always, Postgres when
 * TEST_DATABASE_URL is set. Each opened Postgres store lives in a schema of its own, dropped on close.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { openStore, type Dialect, type Store } from '@/db'
import { randomString } from '@/lib/crypto'
import { watchLedger } from './ledger-audit'
import { postgresUrl } from './services'

export interface DatabaseTarget {
	dialect: Dialect
	open(): Promise<Store>
	/** Two stores on one database, as two Ferry nodes would have; closing the first drops it. */
	openTwo(): Promise<[Store, Store]>
}

const sqliteTarget: DatabaseTarget = {
	dialect: 'sqlite',
	open: async () => watchLedger(await openStore({ databaseUrl: '', dataDir: ':memory:' })),
	async openTwo() {
		const dataDir = mkdtempSync(join(tmpdir(), 'ferry-nodes-'))
		const first = await openStore({ databaseUrl: '', dataDir })
		const second = await openStore({ databaseUrl: '', dataDir })
		return [watchLedger({
			...first,
			async close() {
				await second.close()
				await first.close()
				rmSync(dataDir, { recursive: true, force: true })
			},
		}), second]
	},
}

function pgTarget(url: string): DatabaseTarget {
	const dropSchema = async (schema: string) => {
		const admin = postgres(url, { max: 1, onnotice: () => {} })
		await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
		await admin.end({ timeout: 5 })
	}
	const newSchema = () => `test_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
	return {
		dialect: 'pg',
		async open() {
			const schema = newSchema()
			const store = await openStore({ databaseUrl: url, dataDir: '', pgSchema: schema })
			return watchLedger({
				...store,
				async close() {
					await store.close()
					await dropSchema(schema)
				},
			})
		},
		async openTwo() {
			const schema = newSchema()
			const first = await openStore({ databaseUrl: url, dataDir: '', pgSchema: schema })
			const second = await openStore({ databaseUrl: url, dataDir: '', pgSchema: schema })
			return [watchLedger({
				...first,
				async close() {
					await second.close()
					await first.close()
					await dropSchema(schema)
				},
			}), second]
		},
	}
}

export function databaseTargets(): DatabaseTarget[] {
	const url = postgresUrl()
	return url ? [sqliteTarget, pgTarget(url)] : [sqliteTarget]
}
