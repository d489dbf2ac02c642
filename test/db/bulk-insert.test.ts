/** `insertRows`: many rows per raw statement, on both dialects, each row getting exactly what it set. */
import { describe, expect, test } from 'bun:test'
import { asc } from 'drizzle-orm'
import { insertRows } from '@/db/bulk-insert'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`insertRows on ${target.dialect}`, () => {
		test('rows that leave a column out get its default, rows that set it keep their value, across several statements', async () => {
			const store = await target.open()
			try {
				const codes = Array.from({ length: 1201 }, (_, index) => ({
					id: index + 1, key: `code-${index}`, name: index % 2 ? 'odd' : 'even',
					// Every other row sets the quota; the others leave it to the column's default (100000).
					...(index % 2 ? { quota: index } : {}),
					deletedAt: index === 7 ? 1_700_000_000 : null,
					status: 1,
				}))
				const inserted = await store.transaction(function* (_tx, tables) {
					return yield* insertRows(tables.redemptions, codes)
				})
				expect(inserted).toBe(1201)
				const { redemptions } = store.tables
				const stored = await store.db.select({ id: redemptions.id, key: redemptions.key, quota: redemptions.quota, deletedAt: redemptions.deletedAt })
					.from(redemptions).orderBy(asc(redemptions.id))
				expect(stored).toHaveLength(1201)
				expect(stored.slice(0, 3)).toEqual([
					{ id: 1, key: 'code-0', quota: 100_000, deletedAt: null },
					{ id: 2, key: 'code-1', quota: 1, deletedAt: null },
					{ id: 3, key: 'code-2', quota: 100_000, deletedAt: null },
				])
				expect(stored[7]).toEqual({ id: 8, key: 'code-7', quota: 7, deletedAt: 1_700_000_000 })
				expect(stored.at(-1)).toEqual({ id: 1201, key: 'code-1200', quota: 100_000, deletedAt: null })
			} finally {
				await store.close()
			}
		})
	})
}
