import { describe, expect, test } from 'bun:test'
import { getTableColumns, getTableName, getViewName, getViewSelectedFields, is, Table, View } from 'drizzle-orm'
import * as pgSchema from '@/db/schema.pg'
import * as sqliteSchema from '@/db/schema.sqlite'
import { embeddedMigrations } from '@/db/migrate'
import pgJournal from '../../drizzle/pg/meta/_journal.json'
import sqliteJournal from '../../drizzle/sqlite/meta/_journal.json'

function describeSchema(schema: Record<string, unknown>) {
	const tables: Record<string, Record<string, { name: string; notNull: boolean; hasDefault: boolean }>> = {}
	for (const [exportName, table] of Object.entries(schema)) {
		if (!is(table, Table)) continue
		const columns: Record<string, { name: string; notNull: boolean; hasDefault: boolean }> = {}
		for (const [property, column] of Object.entries(getTableColumns(table))) {
			columns[property] = { name: column.name, notNull: column.notNull, hasDefault: column.hasDefault || column.primary }
		}
		tables[`${exportName}:${getTableName(table)}`] = columns
	}
	return tables
}

describe('the twin schemas', () => {
	test('declare the same tables with the same properties, column names and nullability', () => {
		expect(describeSchema(pgSchema)).toEqual(describeSchema(sqliteSchema))
	})

	test('cover every entity of the specification plus the ledger (holds and their rolled-up totals, plans, subscriptions and their window periods, token window periods), lease, change-version, verification and key-cooldown tables', () => {
		const names = Object.keys(describeSchema(sqliteSchema)).map((key) => key.split(':')[1]).sort()
		expect(names).toEqual([
			'abilities', 'change_versions', 'channel_keys', 'channels', 'kept_responses', 'key_cooldowns', 'leases', 'logs', 'options', 'plans', 'quota_data', 'quota_hold_totals', 'quota_holds',
			'redemptions', 'subscription_periods', 'subscriptions', 'tasks', 'token_periods', 'tokens', 'top_ups', 'users', 'verifications',
		])
	})

	test('declare the same read-only views over the tables with the same columns: `midjourneys` over the drawing tasks', () => {
		const views = (schema: Record<string, unknown>) => Object.fromEntries(Object.entries(schema).filter(([, view]) => is(view, View)).map(([exportName, view]) => [
			`${exportName}:${getViewName(view as View)}`,
			Object.entries(getViewSelectedFields(view as View)).map(([property, column]) => `${property}:${(column as { name: string }).name}`),
		]))
		expect(views(pgSchema)).toEqual(views(sqliteSchema))
		expect(Object.keys(views(sqliteSchema))).toEqual(['midjourneys:midjourneys'])
	})

	test('have embedded migrations matching each dialect journal', () => {
		expect(embeddedMigrations('sqlite')).toHaveLength(sqliteJournal.entries.length)
		expect(embeddedMigrations('pg')).toHaveLength(pgJournal.entries.length)
		expect(sqliteJournal.entries.map((entry) => entry.tag)).toEqual(pgJournal.entries.map((entry) => entry.tag))
	})
})
