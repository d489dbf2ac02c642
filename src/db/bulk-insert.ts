/**
 * Many rows into one table, fast on both dialects: one raw multi-row INSERT per chunk, whose text
 * (and so its prepared statement) is the same for every full chunk. Building such inserts with the
 * query builder costs tens of microseconds a row, which an import of millions of log lines feels.
 * Rows are keyed by the table's property names, as the query builder takes them; a property a row
 * leaves out gets the column's database default only if every row of its chunk leaves it out.
 */
import { getTableColumns, getTableName, type Table } from 'drizzle-orm'
import { execute } from './transaction'

/** Rows per statement: 500 rows of 30 columns stay well inside both dialects' limits on bound parameters. */
const ROWS_PER_STATEMENT = 500

/** A unit of work (db/transaction.ts); answers the number of rows inserted. */
export function* insertRows(table: Table, rows: readonly object[]) {
	const columns = getTableColumns(table) as Record<string, { name: string }>
	const name = getTableName(table)
	// Rows that set the same properties go together, so no row gets a default it did not ask for.
	const groups = new Map<string, Record<string, unknown>[]>()
	for (const row of rows as readonly Record<string, unknown>[]) {
		const properties = Object.keys(row).filter((property) => row[property] !== undefined && property in columns).sort().join(',')
		const group = groups.get(properties)
		if (group) group.push(row)
		else groups.set(properties, [row])
	}
	let inserted = 0
	for (const [signature, group] of groups) {
		const properties = signature.split(',').filter(Boolean)
		const columnList = properties.map((property) => `"${columns[property]!.name}"`).join(', ')
		for (let start = 0; start < group.length; start += ROWS_PER_STATEMENT) {
			const chunk = group.slice(start, start + ROWS_PER_STATEMENT)
			const params: unknown[] = []
			const tuples = chunk.map((row) => `(${properties.map((property) => {
				params.push(row[property] ?? null)
				return `$${params.length}`
			}).join(', ')})`)
			inserted += yield* execute(`INSERT INTO "${name}" (${columnList}) VALUES ${tuples.join(', ')}`, params)
		}
	}
	return inserted
}
