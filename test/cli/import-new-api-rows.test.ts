/**
 * `ferry import new-api` and the rows it cannot bring as they are (issue 26): rows without a
 * positive id, names Ferry keeps once, amounts above Ferry's maximum, numbers too large to keep
 * exactly. Each is named in the report with its reason — the import never stops on them, and never
 * leaves one out silently — and the ledger is exact afterwards. And one user with 100 000 tokens
 * imports whole (the import is linear in the number of tokens a user has).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asc, count, eq } from 'drizzle-orm'
import { MAX_QUOTA } from '@shared/quota-limit'
import { auditLedger } from '@/billing/audit'
import { importNewApi } from '@/cli/import-new-api'
import { openSource } from '@/cli/import-new-api/source'
import type { Store } from '@/db'
import { createSecretBox, randomString } from '@/lib/crypto'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { newApiSchema, PUBLISHED_BCRYPT, type Rows, writeSqliteSource } from '../helpers/new-api-source'

/** new-api's tables with ids SQLite lets be NULL, zero or negative (a plain `bigint PRIMARY KEY`). */
const LOOSE_ID_SCHEMA = newApiSchema('sqlite').map((statement) => statement.replaceAll('integer PRIMARY KEY AUTOINCREMENT', 'bigint PRIMARY KEY'))
const LARGEST_ID = 2_147_483_647

const key = () => randomString(48)
/** Names past what Ferry keeps for a model (256) and a group (64); random, so Postgres cannot compress an index entry of them. */
const LONG_MODEL = randomString(3000)
const LONG_GROUP = randomString(3000)

async function importInto(store: Store, location: string) {
	const source = await openSource(location)
	try {
		const report = await importNewApi({
			source, target: { store, where: store.dialect }, withLogs: true, progress: () => {},
			secrets: createSecretBox(testConfig.cryptoSecret, testConfig.sessionSecret),
		})
		return report.lines()
	} finally {
		await source.close()
	}
}

for (const target of databaseTargets()) {
	describe(`rows a new-api database holds that Ferry cannot take as they are, imported into ${target.dialect}`, () => {
		let directory: string
		let store: Store
		let lines: string[]
		const keys = { alice: key(), whale: key(), spender: key(), nullId: key(), capped: key() }

		beforeAll(async () => {
			directory = mkdtempSync(join(tmpdir(), 'ferry-import-rows-'))
			const user = (fields: Record<string, unknown>) => ({ password: PUBLISHED_BCRYPT.hash, role: 1, status: 1, quota: 0, used_quota: 0, ...fields })
			const token = (fields: Record<string, unknown>) => ({ status: 1, name: 'token', expired_time: -1, unlimited_quota: true, used_quota: 0, ...fields })
			const consume = (fields: Record<string, unknown>) => ({ user_id: 2, type: 2, quota: 5, created_at: 1_710_000_000, model_name: 'gpt-4o-mini', ...fields })
			const rows: Rows = {
				users: [
					user({ id: 1, username: 'root', role: 100, quota: 1_000 }),
					user({ id: 2, username: 'alice', quota: 500 }),
					user({ id: 3, username: ' alice', quota: 700 }),
					user({ id: 4, username: 'alice_3', quota: 1 }),
					user({ id: 5, username: 'whale', quota: 2 * MAX_QUOTA }),
					user({ id: 6, username: 'spender', quota: 10, used_quota: 5 * MAX_QUOTA }),
					user({ id: 0, username: 'zero' }),
					user({ id: -2, username: 'negative' }),
					user({ id: null, username: 'nullid' }),
					user({ id: LARGEST_ID + 1, username: 'bigid' }),
				],
				tokens: [
					token({ id: 1, user_id: 2, key: keys.alice }),
					token({ id: 2, user_id: 5, key: keys.whale }),
					token({ id: 3, user_id: 3, key: `sk-${keys.alice}` }),
					token({ id: null, user_id: 2, key: keys.nullId }),
					token({ id: 4, user_id: 6, key: keys.spender, used_quota: 1e19 }),
					token({ id: 5, user_id: 2, key: keys.capped, unlimited_quota: false, remain_quota: 1e300 }),
				],
				channels: [
					{ id: -1, type: 1, key: 'sk-upstream', name: 'negative', status: 1, models: 'gpt-4o-mini', group: 'default' },
					{ id: 7, type: 1, key: 'sk-upstream', name: 'long names', status: 1, base_url: 'https://api.openai.com', models: `gpt-4o-mini,${LONG_MODEL}`, group: `default,${LONG_GROUP}` },
					{ id: 8, type: 1, key: 'sk-upstream', name: 'unparsable', status: 1, base_url: 'api.openai.com/v1', models: 'gpt-4o-mini', group: 'default' },
					{ id: 9, type: 1, key: 'sk-upstream', name: 'ftp', status: 1, base_url: 'ftp://files.example.com', models: 'gpt-4o-mini', group: 'default' },
					{ id: 10, type: 1, key: 'sk-upstream', name: 'ipv6', status: 1, base_url: 'http://[::1]:8080/v1/', models: 'gpt-4o-mini', group: 'default' },
				],
				redemptions: [
					{ id: 0, user_id: 1, key: randomString(32), status: 1, name: 'zero', quota: 100 },
					{ id: 1, user_id: 1, key: randomString(32), status: 1, name: 'huge', quota: 1e20 },
				],
				logs: [consume({ id: 1, quota: 1e20 }), consume({ id: 0 }), consume({ id: 2 })],
			}
			const location = join(directory, 'one-api.db')
			writeSqliteSource(location, rows, LOOSE_ID_SCHEMA)
			store = await target.open()
			lines = await importInto(store, location)
		})

		afterAll(async () => {
			await store?.close()
			rmSync(directory, { recursive: true, force: true })
		})

		test('rows with a NULL, zero or negative id are counted and named as skipped in every table', () => {
			const reason = "  skipped — no positive id (NULL, zero or below): Ferry keeps the source's ids"
			expect(lines).toContain('users: 10 read, 5 imported, 5 skipped')
			expect(lines).toContain(`${reason} (3 rows)`)
			expect(lines).toContain('tokens: 6 read, 3 imported, 3 skipped')
			expect(lines).toContain('channels: 5 read, 2 imported, 3 skipped')
			expect(lines).toContain('redemption codes: 2 read, 0 imported, 2 skipped')
			expect(lines).toContain('logs: 3 read, 1 imported, 2 skipped')
			expect(lines.filter((line) => line.startsWith(reason))).toHaveLength(5)
		})

		test('a second user with the same name (once trimmed) comes over under a name of its own, and the report says which', async () => {
			const { users } = store.tables
			const names = await store.db.select({ id: users.id, username: users.username }).from(users).orderBy(asc(users.id))
			expect(names).toEqual([
				{ id: 1, username: 'root' }, { id: 2, username: 'alice' }, { id: 3, username: 'alice_3_2' }, { id: 4, username: 'alice_3' }, { id: 6, username: 'spender' },
			])
			expect(lines).toContain('  note — username already used by another user: imported with its id appended: 3 (alice → alice_3_2)')
		})

		test('a balance above the maximum leaves the user and its tokens out, reported; used quotas above it are capped and noted', async () => {
			expect(lines).toContain(`  skipped — balance above Ferry's maximum of ${MAX_QUOTA} quota: lower it in new-api and import again: 5`)
			expect(lines).toContain('  skipped — its user does not exist or was not imported: 2')
			expect(lines).toContain(`  note — used quota above Ferry's maximum: imported as ${MAX_QUOTA}: 6`)
			expect(lines).toContain(`  note — used quota above Ferry's maximum: imported as ${MAX_QUOTA}: 4`)
			expect(lines).toContain(`  note — remaining quota above Ferry's maximum: imported as ${MAX_QUOTA}: 5`)
			const { users, tokens } = store.tables
			const [spender] = await store.db.select({ quota: users.quota, usedQuota: users.usedQuota }).from(users).where(eq(users.id, 6))
			expect(spender).toEqual({ quota: 10, usedQuota: MAX_QUOTA })
			const imported = await store.db.select({ id: tokens.id }).from(tokens).orderBy(asc(tokens.id))
			expect(imported.map((row) => row.id)).toEqual([1, 4, 5])
		})

		test('ids Ferry cannot keep, a key already taken and numbers too large to keep exactly are skipped with their reason', () => {
			expect(lines).toContain(`  skipped — id above ${LARGEST_ID}, the largest Ferry keeps: ${LARGEST_ID + 1}`)
			expect(lines).toContain('  skipped — key already used by another token: 3')
			expect(lines).toContain(`  skipped — quota outside 0…${MAX_QUOTA}: 1`)
			expect(lines).toContain('  skipped — a number too large to keep exactly (quota): 1')
		})

		test('model and group names longer than a channel keeps are dropped from the channel it imports, and the report says how many', async () => {
			expect(lines).toContain('  note — 1 model name(s) longer than 256 characters dropped: 7 "long names"')
			expect(lines).toContain('  note — 1 group name(s) longer than 64 characters dropped: 7 "long names"')
			const { channels, abilities } = store.tables
			const [channel] = await store.db.select({ models: channels.models, group: channels.group }).from(channels).where(eq(channels.id, 7))
			expect(channel).toEqual({ models: 'gpt-4o-mini', group: 'default' })
			const [abilityCount] = await store.db.select({ value: count() }).from(abilities).where(eq(abilities.channelId, 7))
			expect(abilityCount?.value).toBe(1)
		})

		test('a channel whose base URL does not parse, or is not http(s), is skipped with its reason; an IPv6 base URL with a port comes over', async () => {
			expect(lines).toContain('  skipped — base URL is not a full http(s) or ws(s) address: 8 "unparsable", 9 "ftp"')
			const { channels } = store.tables
			const kept = await store.db.select({ id: channels.id, baseUrl: channels.baseUrl }).from(channels).orderBy(asc(channels.id))
			expect(kept).toEqual([{ id: 7, baseUrl: 'https://api.openai.com' }, { id: 10, baseUrl: 'http://[::1]:8080/v1' }])
		})

		test('the ledger audit is exact', async () => {
			expect(await auditLedger(store)).toEqual([])
		})
	})

	describe(`one user with 100 000 tokens, imported into ${target.dialect}`, () => {
		const TOKENS = 100_000
		let directory: string
		let store: Store
		let lines: string[]

		beforeAll(async () => {
			directory = mkdtempSync(join(tmpdir(), 'ferry-import-scale-'))
			const rows: Rows = {
				users: [{ id: 1, username: 'busy', password: PUBLISHED_BCRYPT.hash, role: 1, status: 1, quota: 1_000_000, used_quota: TOKENS }],
				tokens: Array.from({ length: TOKENS }, (_, index) => ({
					id: index + 1, user_id: 1, key: key(), status: 1, name: `token-${index}`, expired_time: -1,
					unlimited_quota: index % 2 === 0, remain_quota: 1_000, used_quota: index % 2,
				})),
			}
			const location = join(directory, 'one-api.db')
			writeSqliteSource(location, rows)
			store = await target.open()
			lines = await importInto(store, location)
		}, 120_000)

		afterAll(async () => {
			await store?.close()
			rmSync(directory, { recursive: true, force: true })
		})

		test('every token arrives, each used quota is opened in the ledger (one settled charge per token that used any, one for the rest), and the audit is exact', async () => {
			expect(lines).toContain(`tokens: ${TOKENS} read, ${TOKENS} imported`)
			const { tokens, quotaHolds } = store.tables
			expect((await store.db.select({ total: count() }).from(tokens))[0]!.total).toBe(TOKENS)
			expect((await store.db.select({ total: count() }).from(quotaHolds))[0]!.total).toBe(TOKENS / 2 + 1)
			expect(await auditLedger(store)).toEqual([])
		}, 60_000)
	})
}
