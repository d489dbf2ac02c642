/**
 * After rows were inserted with their ids given (an import keeps the source's ids), the next id a
 * table hands out must come after them. SQLite's AUTOINCREMENT follows the largest id by itself;
 * a Postgres identity column draws from a sequence that has to be moved.
 */
import type { Store } from './index'

export async function advanceIdSequences(store: Store, tables: readonly string[]) {
	if (store.dialect !== 'pg') return
	for (const table of tables) {
		// `table` is one of the schema's own table names, never input.
		await store.read(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), COALESCE((SELECT max(id) FROM "${table}"), 0) + 1, false)`)
	}
}
