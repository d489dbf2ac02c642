/**
 * `ferry import new-api` (issue 19): a new-api installation — SQLite file or Postgres database —
 * imported into a fresh Ferry database keeps working: the same passwords, the same `sk-` keys
 * through the official OpenAI SDK, charged exactly; limits, codes and channels as they were; and
 * the ledger audit exact right after the import and after traffic.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { eq, ne } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { TASK_PLATFORM } from '@shared/task-constants'
import { auditLedger } from '@/billing/audit'
import { createSecretBox } from '@/lib/crypto'
import type { Store } from '@/db'
import { importNewApi } from '@/cli/import-new-api'
import { openSource, type SourceDatabase } from '@/cli/import-new-api/source'
import { createTestApp, testConfig, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets, type DatabaseTarget } from '../helpers/database'
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai'
import { newApiFixture, writePostgresSource, writeSqliteSource, type NewApiFixture } from '../helpers/new-api-source'
import { postgresUrl } from '../helpers/services'

/** The fake upstream's usage for every call, and what a gpt-4o-mini call costs at the imported prices:
 * (prompt + completion × CompletionRatio 3) × ModelRatio 2 × GroupRatio 1. */
const USAGE = { promptTokens: 10, completionTokens: 5 }
const GPT_4O_MINI_CALL_PRICE = (10 + 5 * 3) * 2
/** The suite signs in several users; the login rate limit is another suite's subject. */
const allowAll = { hit: () => true }

type SourceKind = 'SQLite' | 'Postgres'

async function createSource(kind: SourceKind, fixture: NewApiFixture, directory: string): Promise<{ location: string; drop(): Promise<void> }> {
	if (kind === 'SQLite') {
		const location = join(directory, 'one-api.db')
		writeSqliteSource(location, fixture.rows)
		return { location, drop: async () => {} }
	}
	const { sourceUrl, drop } = await writePostgresSource(postgresUrl()!, fixture.rows)
	return { location: sourceUrl, drop }
}

const sourceKinds: SourceKind[] = postgresUrl() ? ['SQLite', 'Postgres'] : ['SQLite']

for (const kind of sourceKinds) {
	for (const target of databaseTargets()) {
		describe(`a new-api ${kind} database imported into Ferry on ${target.dialect}`, () => {
			let directory: string
			let upstream: FakeOpenAI
			let fixture: NewApiFixture
			let dropSource: () => Promise<void>
			let store: Store
			let ferry: TestApp
			let baseUrl: string
			let lines: string[]
			let auditAfterImport: unknown[]

			beforeAll(async () => {
				directory = mkdtempSync(join(tmpdir(), 'ferry-import-'))
				upstream = startFakeOpenAI(USAGE)
				fixture = await newApiFixture(upstream.url)
				const created = await createSource(kind, fixture, directory)
				dropSource = created.drop
				store = await (target as DatabaseTarget).open()
				const source: SourceDatabase = await openSource(created.location)
				try {
					const report = await importNewApi({
						source, target: { store, where: target.dialect }, withLogs: true, progress: () => {},
						secrets: createSecretBox(testConfig.cryptoSecret, testConfig.sessionSecret),
					})
					lines = report.lines()
				} finally {
					await source.close()
				}
				auditAfterImport = await auditLedger(store)
				ferry = await createTestApp({ open: async () => store }, { rateLimiter: allowAll })
				// The fake upstream listens on loopback: a private address the super admin must allow.
				await ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
				ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
				baseUrl = `http://127.0.0.1:${ferry.app.server!.port}/v1`
			})

			afterAll(async () => {
				await ferry?.app.stop(true)
				await ferry?.close()
				await upstream?.stop()
				await dropSource?.()
				rmSync(directory, { recursive: true, force: true })
			})

			const client = (key: string) => new OpenAI({ apiKey: `sk-${key}`, baseURL: baseUrl, maxRetries: 0 })
			const chat = (key: string, model = 'gpt-4o-mini') => client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })
			const balanceOf = async (userId: number) => {
				const { users } = store.tables
				const [user] = await store.db.select({ quota: users.quota, usedQuota: users.usedQuota }).from(users).where(eq(users.id, userId))
				return user!
			}
			const tokenOf = async (tokenId: number) => {
				const { tokens } = store.tables
				const [token] = await store.db.select({ remainQuota: tokens.remainQuota, usedQuota: tokens.usedQuota }).from(tokens).where(eq(tokens.id, tokenId))
				return token!
			}
			const refusal = async (call: Promise<unknown>) => {
				const error = await call.then(() => undefined, (thrown: unknown) => thrown)
				expect(error).toBeInstanceOf(OpenAI.APIError)
				return error as InstanceType<typeof OpenAI.APIError>
			}

			test('the ledger audit is exact right after the import', () => {
				expect(auditAfterImport).toEqual([])
			})

			test('before any traffic, the channel list shows the channel as it was, with its abilities rebuilt', async () => {
				const root = await ferry.login('root', fixture.passwords.root)
				const answer = await ferry.call('GET', '/api/channel/?p=1&page_size=100', { as: root })
				const channels: { id: number; [field: string]: unknown }[] = answer.body.data.items
				expect(channels.find((channel) => channel.id === 1)).toMatchObject({
					type: 1, name: 'main', key: '', base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o,my-alias', group: 'default,vip',
					model_mapping: '{"my-alias": "gpt-4o-mini"}', status_code_mapping: '{"429":"503"}', priority: 5, weight: 3, tag: 'primary',
					setting: '{"force_format":true}', other_info: '{"source":"new-api"}', balance: 12.5, balance_updated_time: 1_705_000_000,
					test_model: 'gpt-4o-mini', openai_organization: 'org-test', status: 1, auto_ban: 1, response_time: 321,
					test_time: 1_706_000_000, created_time: 1_700_000_000, used_quota: 123_456,
				})
				expect(channels.map((channel) => [channel.id, channel.name, channel.type, channel.status]).sort()).toEqual([
					[1, 'main', 1, 1], [3, 'router', 1, 2], [4, 'pool', 1, 2],
				])
				const { abilities } = store.tables
				const routed = await store.db.select({ group: abilities.group, model: abilities.model }).from(abilities).where(eq(abilities.channelId, 1))
				expect(routed.map((row) => `${row.group}/${row.model}`).sort()).toEqual(
					['default/gpt-4o', 'default/gpt-4o-mini', 'default/my-alias', 'vip/gpt-4o', 'vip/gpt-4o-mini', 'vip/my-alias'],
				)
			})

			test('every user signs in with the password they had in new-api', async () => {
				for (const [username, password] of [['root', fixture.passwords.root], ['alice', fixture.passwords.alice], ['bob', fixture.passwords.bob]] as const) {
					const answer = await ferry.call('POST', '/api/user/login', { body: { username, password } })
					expect({ username, success: answer.body.success }).toEqual({ username, success: true })
				}
				const wrong = await ferry.call('POST', '/api/user/login', { body: { username: 'alice', password: 'not-her-password' } })
				expect(wrong.body.success).toBe(false)
				const deleted = await ferry.call('POST', '/api/user/login', { body: { username: 'carol', password: fixture.passwords.carol } })
				expect(deleted.body.success).toBe(false)
			})

			test('users keep their role, group, balance, used quota, request count, invitation fields and GitHub and OIDC bindings', async () => {
				const root = await ferry.login('root', fixture.passwords.root)
				const alice = await ferry.call('GET', '/api/user/2', { as: root })
				expect(alice.body.data).toMatchObject({
					id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, email: 'alice@example.com', group: 'default',
					request_count: 42, aff_code: 'alice001', aff_count: 2, aff_quota: 7_000, aff_history_quota: 9_000, inviter_id: 1, github_id: 'gh-alice',
					oidc_id: 'oidc-sub-alice',
				})
				const bob = await ferry.call('GET', '/api/user/3', { as: root })
				// Alice's GitHub account was bound to Bob too in new-api; one live account keeps it.
				expect(bob.body.data).toMatchObject({ role: 10, github_id: '' })
			})

			test("new-api's system access token still authenticates scripts", async () => {
				const answer = await ferry.call('GET', '/api/user/self', { as: { userId: 1, accessToken: fixture.accessToken } })
				expect(answer.body).toMatchObject({ success: true, data: { username: 'root' } })
			})

			test('every old key works as sk-<key> through the OpenAI SDK and is charged exactly', async () => {
				const before = { alice: await balanceOf(2), limited: await tokenOf(2), unlimited: await tokenOf(1) }
				const answer = await chat(fixture.keys.limited)
				expect(answer.choices[0]!.message.content).toBe('Hello from fake-openai')
				await chat(fixture.keys.unlimited)
				const rootAnswer = await chat(fixture.keys.root)
				expect(rootAnswer.choices[0]!.message.content).toBe('Hello from fake-openai')
				expect(await balanceOf(2)).toEqual({ quota: before.alice.quota - 2 * GPT_4O_MINI_CALL_PRICE, usedQuota: before.alice.usedQuota + 2 * GPT_4O_MINI_CALL_PRICE })
				expect(await tokenOf(2)).toEqual({ remainQuota: before.limited.remainQuota - GPT_4O_MINI_CALL_PRICE, usedQuota: before.limited.usedQuota + GPT_4O_MINI_CALL_PRICE })
				expect(await tokenOf(1)).toEqual({ remainQuota: before.unlimited.remainQuota, usedQuota: before.unlimited.usedQuota + GPT_4O_MINI_CALL_PRICE })
				expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer sk-upstream-main')
			})

			test('the owner still reads the same key in the token list', async () => {
				const alice = await ferry.login('alice', fixture.passwords.alice)
				const answer = await ferry.call('GET', '/api/token/?p=1&page_size=100', { as: alice })
				const limited = answer.body.data.items.find((token: { id: number }) => token.id === 2)
				expect(limited.key).toBe(`sk-${fixture.keys.limited}`)
			})

			test('a model-limited token is still limited, and the channel still maps its alias', async () => {
				const limited = await refusal(chat(fixture.keys.modelLimited, 'gpt-4o'))
				expect(limited.status).toBe(403)
				await chat(fixture.keys.modelLimited, 'gpt-4o-mini')
				await chat(fixture.keys.unlimited, 'my-alias')
				expect(upstream.requests.at(-1)!.body.model).toBe('gpt-4o-mini')
			})

			test('expired, disabled, deleted and ownerless keys are refused', async () => {
				for (const key of [fixture.keys.expired, fixture.keys.disabled, fixture.keys.deleted, fixture.keys.orphan]) {
					expect((await refusal(chat(key))).status).toBe(401)
				}
			})

			test("an admin's key still pins a channel with sk-<key>-<channel>", async () => {
				const answer = await client(`${fixture.keys.root}-1`).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
				expect(answer.choices[0]!.message.content).toBe('Hello from fake-openai')
			})

			test('the unused code redeems once, the used and deleted ones never', async () => {
				const bob: Caller = await ferry.login('bob', fixture.passwords.bob)
				const before = await balanceOf(3)
				const first = await ferry.call('POST', '/api/user/topup', { as: bob, body: { key: fixture.codes.unused } })
				expect(first.body).toMatchObject({ success: true, data: 1_000_000 })
				expect((await balanceOf(3)).quota).toBe(before.quota + 1_000_000)
				for (const key of [fixture.codes.unused, fixture.codes.used, fixture.codes.deleted]) {
					const again = await ferry.call('POST', '/api/user/topup', { as: bob, body: { key } })
					expect(again.body.success).toBe(false)
				}
				expect((await balanceOf(3)).quota).toBe(before.quota + 1_000_000)
			})

			test('a channel\'s setting comes over without its proxy, which Ferry does not support, and the report says so', () => {
				expect(lines.some((line) => line.startsWith('  note — setting.proxy dropped (Ferry has no channel proxy)'))).toBe(true)
			})

			test('options Ferry knows come over; other options and tables of features Ferry lacks are listed as skipped', async () => {
				expect(ferry.dependencies.options.get('SystemName')).toBe('Old Gateway')
				expect(ferry.dependencies.options.get('ModelRatio')).toEqual({ 'gpt-4o-mini': 2, 'gpt-4o': 5, 'my-alias': 2 })
				expect(ferry.dependencies.options.get('RetryTimes')).toBe(0)
				expect(lines).toContain('  skipped — not a Ferry option: general_setting.docs_link')
				expect(lines).toContain('  skipped — two-factor sign-in (Ferry has none: these users sign in with their password alone): table two_fas')
				expect(lines.some((line) => line.includes('RetryTimes please enter a number'))).toBe(true)
			})

			test('consume logs keep their ids; credit lines stay behind; opening lines come after them', async () => {
				const { logs } = store.tables
				const all = await store.db.select({ id: logs.id, type: logs.type, quota: logs.quota, userId: logs.userId, channelName: logs.channelName }).from(logs)
				const imported = all.filter((line) => line.id < 15)
				expect(imported).toEqual([10, 11, 12].map((id) => ({ id, type: LOG_TYPE.consume, quota: 50, userId: 2, channelName: 'main' })))
				const opening = all.filter((line) => line.type === LOG_TYPE.system)
				expect(opening.length).toBeGreaterThan(0)
				expect(opening.every((line) => line.id >= 15)).toBe(true)
			})

			test('finished tasks come over without the upstream key; unfinished ones stay behind', async () => {
				const { tasks, midjourneys } = store.tables
				const importedTasks = await store.db.select({ taskId: tasks.taskId, privateData: tasks.privateData }).from(tasks).where(ne(tasks.platform, TASK_PLATFORM.midjourney))
				expect(importedTasks).toEqual([{ taskId: 'task_done', privateData: '{"result_url":"https://cdn.example.com/song.mp3"}' }])
				const drawings = await store.db.select({ mjId: midjourneys.mjId, submitTime: midjourneys.submitTime }).from(midjourneys)
				expect(drawings).toEqual([{ mjId: 'mj-1', submitTime: 1_710_000_000 }])
			})

			test('paid and failed orders come over as wallet history; a pending order stays behind', async () => {
				const { topUps } = store.tables
				const orders = await store.db.select({ id: topUps.id, tradeNo: topUps.tradeNo, status: topUps.status, money: topUps.money }).from(topUps)
				expect(orders).toEqual([{ id: 1, tradeNo: 'USR2NOpaid', status: 'success', money: 73 }])
				expect(lines).toContain('  skipped — pending: settle or cancel it in new-api before the move (its credit is not carried): 2')
			})

			test('rows created after the import get ids after the imported ones', async () => {
				const alice = await ferry.login('alice', fixture.passwords.alice)
				const created = await ferry.call('POST', '/api/token/', { as: alice, body: { name: 'after the move', remain_quota: 0, unlimited_quota: true } })
				expect(created.body.success).toBe(true)
				expect(created.body.data[0].id).toBeGreaterThan(8)
				const root = await ferry.login('root', fixture.passwords.root)
				const user = await ferry.call('POST', '/api/user/', { as: root, body: { username: 'newcomer', password: 'password123', display_name: 'newcomer' } })
				expect(user.body.success).toBe(true)
				expect(user.body.data.id).toBeGreaterThan(5)
			})

			test('the ledger audit is still exact after the traffic', async () => {
				expect(await auditLedger(store)).toEqual([])
			})
		})
	}
}
