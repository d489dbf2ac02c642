/**
 * one-api (songquanpeng/one-api, new-api's ancestor) databases import the same way where their
 * columns agree (issue 19 item 4); where they differ the importer reads one-api's own columns: the
 * token's `models` and `subnet`, the channel's `config` (API version, region, AK/SK) and one-api's
 * channel type numbers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { auditLedger } from '@/billing/audit'
import { createSecretBox } from '@/lib/crypto'
import type { Store } from '@/db'
import { importNewApi } from '@/cli/import-new-api'
import { openSource } from '@/cli/import-new-api/source'
import { createTestApp, testConfig, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai'
import { oneApiFixture, oneApiSchema, writeSqliteSource, type OneApiFixture } from '../helpers/new-api-source'

const secrets = createSecretBox(testConfig.cryptoSecret, testConfig.sessionSecret)
/** (10 prompt + 5 completion × 3) × model ratio 2. */
const CALL_PRICE = 50

for (const target of databaseTargets()) {
	describe(`a one-api SQLite database imported into Ferry on ${target.dialect}`, () => {
		let directory: string
		let upstream: FakeOpenAI
		let fixture: OneApiFixture
		let store: Store
		let ferry: TestApp
		let baseUrl: string
		let lines: string[]

		beforeAll(async () => {
			directory = mkdtempSync(join(tmpdir(), 'ferry-one-api-'))
			upstream = startFakeOpenAI({ promptTokens: 10, completionTokens: 5 })
			fixture = await oneApiFixture(upstream.url)
			const file = join(directory, 'one-api.db')
			writeSqliteSource(file, fixture.rows, oneApiSchema())
			store = await target.open()
			const source = await openSource(file)
			try {
				lines = (await importNewApi({ source, target: { store, where: target.dialect }, secrets, withLogs: true, progress: () => {} })).lines()
			} finally {
				await source.close()
			}
			ferry = await createTestApp({ open: async () => store })
			await ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
			ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
			baseUrl = `http://127.0.0.1:${ferry.app.server!.port}/v1`
		})

		afterAll(async () => {
			await ferry?.app.stop(true)
			await ferry?.close()
			await upstream?.stop()
			rmSync(directory, { recursive: true, force: true })
		})

		const chat = (model: string) => new OpenAI({ apiKey: `sk-${fixture.key}`, baseURL: baseUrl, maxRetries: 0 })
			.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })

		test("the key works with one-api's model list and subnet as its limits, charged exactly", async () => {
			const { users } = store.tables
			const before = (await store.db.select({ quota: users.quota }).from(users).where(eq(users.id, 2)))[0]!.quota
			expect((await chat('gpt-4o-mini')).choices[0]!.message.content).toBe('Hello from fake-openai')
			expect((await store.db.select({ quota: users.quota }).from(users).where(eq(users.id, 2)))[0]!.quota).toBe(before - CALL_PRICE)
			const refused = await chat('gpt-4o').then(() => undefined, (error: unknown) => error)
			expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError)
			const { tokens } = store.tables
			const [token] = await store.db.select({ allowIps: tokens.allowIps, modelLimits: tokens.modelLimits }).from(tokens)
			expect(token).toEqual({ allowIps: '127.0.0.0/8\n::1/128', modelLimits: 'gpt-4o-mini' })
		})

		test("an account one-api deleted (status 3) comes over deleted", async () => {
			const { users } = store.tables
			const [gone] = await store.db.select({ status: users.status, deletedAt: users.deletedAt }).from(users).where(eq(users.id, 3))
			expect(gone!.status).toBe(2)
			expect(gone!.deletedAt).toBeGreaterThan(0)
		})

		test('the user signs in with the one-api password and redeems the unused code', async () => {
			const erin = await ferry.login('erin', fixture.password)
			const redeemed = await ferry.call('POST', '/api/user/topup', { as: erin, body: { key: fixture.code } })
			expect(redeemed.body).toMatchObject({ success: true, data: 300_000 })
		})

		test("channels get Ferry's type numbers and their config moves to Ferry's fields", async () => {
			const { channels } = store.tables
			const rows = await store.db.select().from(channels).orderBy(channels.id)
			const shown = rows.map((channel) => ({ id: channel.id, type: channel.type, other: channel.other, baseUrl: channel.baseUrl, key: secrets.decrypt(channel.key) }))
			expect(shown).toEqual([
				{ id: 1, type: 1, other: '', baseUrl: upstream.url, key: 'sk-upstream-main' },
				{ id: 2, type: 43, other: '', baseUrl: '', key: 'sk-deepseek' },
				{ id: 3, type: 3, other: '2024-02-01', baseUrl: 'https://example.openai.azure.com', key: 'azure-key' },
				{ id: 4, type: 33, other: '', baseUrl: '', key: 'AKIAEXAMPLE|secret-example|us-east-1' },
				{ id: 6, type: 1, other: '', baseUrl: 'https://api.groq.com/openai', key: 'gsk-groq' },
			])
			expect(lines).toContain('  skipped — Ferry does not serve Coze channels: 5 "coze"')
			expect(lines).toContain('  note — system prompt not carried (one-api; Ferry has none): 4 "bedrock"')
			expect(lines).toContain('  note — Lark binding not carried (Ferry has no Lark sign-in): these users sign in with their password: 2')
		})

		test("a log line's elapsed milliseconds become its use time in seconds", async () => {
			const { logs } = store.tables
			const [line] = await store.db.select({ useTime: logs.useTime, quota: logs.quota }).from(logs).where(eq(logs.id, 1))
			expect(line).toEqual({ useTime: 2, quota: 200 })
		})

		test('the ledger audit is exact', async () => {
			expect(await auditLedger(store)).toEqual([])
		})
	})
}
