/**
 * `isUniqueViolation` reads the driver's code through drizzle's wrapper (issue 26: on Postgres the
 * wrapper hid code 23505, and every lost race on a unique name answered 500).
 */
import { describe, expect, test } from 'bun:test'
import { rows } from '@/db'
import { isUniqueViolation } from '@/db/unique-violation'
import { databaseTargets } from '../helpers/database'

const failure = (write: Promise<unknown>) => write.then(() => undefined, (error: unknown) => error)

for (const target of databaseTargets()) {
	describe(`unique violations on ${target.dialect}`, () => {
		test('a second row with a taken unique value or key is one, through the query builder and inside a transaction', async () => {
			const store = await target.open()
			try {
				const { redemptions } = store.tables
				await store.db.insert(redemptions).values({ id: 1, key: 'taken', name: 'first' })
				expect(isUniqueViolation(await failure(store.db.insert(redemptions).values({ id: 2, key: 'taken', name: 'second' })))).toBe(true)
				expect(isUniqueViolation(await failure(store.db.insert(redemptions).values({ id: 1, key: 'other', name: 'same id' })))).toBe(true)
				const inTransaction = await failure(store.transaction(function* (tx, tables) {
					yield* rows(tx.insert(tables.redemptions).values({ id: 3, key: 'taken', name: 'third' }).returning())
				}))
				expect(isUniqueViolation(inTransaction)).toBe(true)
			} finally {
				await store.close()
			}
		})

		test('other failures are not, even when the values written mention "unique"', async () => {
			const store = await target.open()
			try {
				const { redemptions } = store.tables
				const missingName = await failure(store.db.insert(redemptions).values({ key: 'unique 23505', name: null as unknown as string }))
				expect(missingName).toBeInstanceOf(Error)
				expect(isUniqueViolation(missingName)).toBe(false)
				expect(isUniqueViolation(new Error('UNIQUE constraint failed'))).toBe(false)
				expect(isUniqueViolation(undefined)).toBe(false)
			} finally {
				await store.close()
			}
		})
	})
}
