/**
 * Applies the migrations embedded in the binary (drizzle/<dialect>/embedded.ts). Drizzle's own
 * `migrate()` reads a folder from disk, which a compiled binary does not have, so this rebuilds
 * the same migration list from the embedded text and hands it to the dialect's migrator; the
 * hashes match drizzle's, so a database migrated by drizzle-kit is recognised.
 */
import { createHash } from 'node:crypto'
import type { MigrationMeta } from 'drizzle-orm/migrator'

type Embedded = { journal: { entries: { tag: string; when: number; breakpoints: boolean }[] }; sql: Record<string, string> }

export function embeddedMigrations(dialect: 'sqlite' | 'pg'): MigrationMeta[] {
	// Required here, not imported at the top: a node loads only its own dialect's SQL text.
	const embedded: Embedded = dialect === 'sqlite' ? require('../../drizzle/sqlite/embedded').default : require('../../drizzle/pg/embedded').default
	return embedded.journal.entries.map((entry) => {
		const text = embedded.sql[entry.tag]
		if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded`)
		return {
			sql: text.split('--> statement-breakpoint'),
			bps: entry.breakpoints,
			folderMillis: entry.when,
			hash: createHash('sha256').update(text).digest('hex'),
		}
	})
}

/** Drizzle keeps its migrator on internal members; this is the one place that touches them. */
type Migratable = {
	dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: object): unknown }
	session: unknown
}

export async function applyMigrations(database: unknown, dialect: 'sqlite' | 'pg', migrationsSchema?: string) {
	const { dialect: driver, session } = database as Migratable
	await driver.migrate(embeddedMigrations(dialect), session, { migrationsFolder: '(embedded)', migrationsSchema })
}
