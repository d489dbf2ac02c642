import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { exemptFromLedgerAudit } from '../helpers/ledger-audit'

for (const target of databaseTargets()) {
	describe(`log cleanup on ${target.dialect}`, () => {
		let ferry: TestApp
		beforeEach(async () => {
			ferry = await createTestApp(target)
		})
		afterEach(() => ferry.close())

		test('removes entries created before the target time and answers how many', async () => {
			const root = await ferry.loginRoot()
			const { logs } = ferry.store.tables
			await ferry.store.db.insert(logs).values([
				{ userId: 1, type: LOG_TYPE.consume, createdAt: 1_000 },
				{ userId: 1, type: LOG_TYPE.consume, createdAt: 2_000 },
				{ userId: 1, type: LOG_TYPE.consume, createdAt: 3_000 },
			])
			const answer = await ferry.call('DELETE', '/api/log/?target_timestamp=2500', { as: root })
			expect(answer.body).toEqual({ success: true, message: '', data: 2 })
			const left = await ferry.store.db.select({ createdAt: logs.createdAt }).from(logs)
			expect(left.map((row) => row.createdAt).filter((time) => time < 1_000_000)).toEqual([3_000])
		})

		test('keeps the credits the ledger audit relies on and the admin audit trail, and adds its own line to it', async () => {
			const root = await ferry.loginRoot()
			const { logs } = ferry.store.tables
			await ferry.store.db.insert(logs).values([
				{ userId: 1, type: LOG_TYPE.manage, quota: 0, content: 'admin root created channel #1', createdAt: 1_000 },
				{ userId: 1, type: LOG_TYPE.system, quota: 0, content: 'note without money', createdAt: 1_000 },
				{ userId: 1, type: LOG_TYPE.consume, quota: 20, createdAt: 1_000 },
			])
			const answer = await ferry.call('DELETE', `/api/log/?target_timestamp=${nowSeconds() + 10}`, { as: root })
			expect(answer.body.data).toBe(2)
			const left = await ferry.store.db.select({ type: logs.type, quota: logs.quota, content: logs.content }).from(logs).orderBy(logs.id)
			expect(left).toEqual([
				{ type: LOG_TYPE.system, quota: 100_000_000, content: expect.any(String) },
				{ type: LOG_TYPE.manage, quota: 0, content: 'admin root created channel #1' },
				{ type: LOG_TYPE.manage, quota: 0, content: expect.stringMatching(/^super admin root deleted 2 log entries created before /) },
			])
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('asks for a time when none is given', async () => {
			const root = await ferry.loginRoot()
			const answer = await ferry.call('DELETE', '/api/log/', { as: root })
			expect(answer.status).toBe(400)
			expect(answer.body.message).toBe('please choose log time')
		})
	})
}

for (const target of databaseTargets()) {
	describe(`log reading on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let alice: Caller
		let bob: Caller
		let now: number
		const other = JSON.stringify({ model_ratio: 2.5, frt: 800, admin_info: { use_channel: ['3', '5'] } })

		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
			alice = await ferry.createUser('alice')
			bob = await ferry.createUser('bob')
			now = nowSeconds()
			// Older first, so ids grow with time; the sign-up and bootstrap logs come before these.
			exemptFromLedgerAudit(ferry.store, 'log rows written as listing fixtures, with no balance behind them')
			await ferry.store.db.insert(ferry.store.tables.logs).values([
				{ userId: alice.userId, username: 'alice', type: LOG_TYPE.consume, createdAt: now - 7200, tokenName: 'laptop', modelName: 'gpt-4o', channelId: 3, channelName: 'openai-main', group: 'default', quota: 1000, promptTokens: 100, completionTokens: 100, requestId: 'r1', other },
				{ userId: alice.userId, username: 'alice', type: LOG_TYPE.consume, createdAt: now - 10, tokenName: 'laptop', modelName: 'claude-sonnet-4', channelId: 5, channelName: 'anthropic', group: 'vip', quota: 100, promptTokens: 10, completionTokens: 5, isStream: true, requestId: 'r2', other },
				{ userId: alice.userId, username: 'alice', type: LOG_TYPE.consume, createdAt: now - 5, tokenName: 'server', modelName: 'gpt-4o', channelId: 3, channelName: 'openai-main', group: 'default', quota: 200, promptTokens: 20, completionTokens: 5, requestId: 'r3', other: 'not json' },
				{ userId: alice.userId, username: 'alice', type: LOG_TYPE.topUp, createdAt: now - 4, content: 'top-up', quota: 5000 },
				{ userId: bob.userId, username: 'bob', type: LOG_TYPE.consume, createdAt: now - 3, tokenName: 'laptop', modelName: 'gpt-4o', channelId: 3, channelName: 'openai-main', group: 'default', quota: 7, promptTokens: 1, completionTokens: 2, requestId: 'r5', other },
			])
		})
		afterEach(() => ferry.close())

		const requestIds = async (as: Caller, path: string) => {
			const answer = await ferry.call('GET', path, { as })
			if (!answer.body.success) throw new Error(`${path}: ${answer.body.message}`)
			return answer.body.data.items.filter((entry: { request_id: string }) => entry.request_id).map((entry: { request_id: string }) => entry.request_id)
		}

		test('an admin lists every user\'s entries newest first, with the channel and the admin details', async () => {
			const answer = await ferry.call('GET', '/api/log/?page_size=100', { as: root })
			const entries = answer.body.data.items as Record<string, any>[]
			expect(entries.map((entry) => entry.request_id).filter(Boolean)).toEqual(['r5', 'r3', 'r2', 'r1'])
			expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort((first, second) => second - first))
			expect(entries.find((entry) => entry.request_id === 'r2')).toEqual({
				id: expect.any(Number), created_at: now - 10, type: LOG_TYPE.consume, content: '', username: 'alice', token_name: 'laptop',
				model_name: 'claude-sonnet-4', quota: 100, prompt_tokens: 10, completion_tokens: 5, use_time: 0, is_stream: true,
				channel: 5, channel_name: 'anthropic', user_id: alice.userId, group: 'vip', request_id: 'r2', cost: null, subscription_id: 0,
				other: { model_ratio: 2.5, frt: 800, admin_info: { use_channel: ['3', '5'] } },
			})
			expect(answer.body.data.total).toBe(entries.length)
		})

		test('one call\'s entries are found by its request id, and only among the caller\'s own', async () => {
			expect(await requestIds(alice, '/api/log/self?request_id=r2')).toEqual(['r2'])
			expect(await requestIds(alice, '/api/log/self?request_id=r5')).toEqual([])
			expect(await requestIds(root, '/api/log/?request_id=r5')).toEqual(['r5'])
		})

		test('a user sees only their own entries, without the channel or the admin details', async () => {
			const answer = await ferry.call('GET', '/api/log/self?page_size=100', { as: alice })
			const entries = answer.body.data.items as Record<string, any>[]
			expect(entries.every((entry) => entry.user_id === alice.userId)).toBe(true)
			expect(entries.map((entry) => entry.request_id).filter(Boolean)).toEqual(['r3', 'r2', 'r1'])
			for (const entry of entries) {
				expect(entry).not.toContainKey('channel')
				expect(entry).not.toContainKey('channel_name')
				expect(entry.other).not.toContainKey('admin_info')
			}
			expect(entries.find((entry) => entry.request_id === 'r2')!.other).toEqual({ model_ratio: 2.5, frt: 800 })
			expect(entries.find((entry) => entry.request_id === 'r3')!.other).toEqual({})
		})

		test('a user cannot widen their view with the admin-only filters', async () => {
			expect(await requestIds(alice, '/api/log/self?username=bob')).toEqual(['r3', 'r2', 'r1'])
			expect(await requestIds(alice, '/api/log/self?channel=5')).toEqual(['r3', 'r2', 'r1'])
			expect((await ferry.call('GET', '/api/log/', { as: alice })).status).toBe(403)
			expect((await ferry.call('GET', '/api/log/stat', { as: alice })).status).toBe(403)
		})

		test('each filter narrows the list', async () => {
			const filtered = (query: string) => requestIds(root, `/api/log/?page_size=100&${query}`)
			expect(await filtered('username=bob')).toEqual(['r5'])
			expect(await filtered('token_name=server')).toEqual(['r3'])
			expect(await filtered('model_name=claude-sonnet-4')).toEqual(['r2'])
			expect(await filtered('channel=5')).toEqual(['r2'])
			expect(await filtered('group=vip')).toEqual(['r2'])
			expect(await filtered(`start_timestamp=${now - 60}`)).toEqual(['r5', 'r3', 'r2'])
			expect(await filtered(`end_timestamp=${now - 60}`)).toEqual(['r1'])
			expect(await filtered(`start_timestamp=${now - 6}&end_timestamp=${now - 4}`)).toEqual(['r3'])
			expect(await filtered('username=alice&model_name=gpt-4o&token_name=laptop')).toEqual(['r1'])
			expect(await filtered('token_name=lap')).toEqual([])
			const topUps = await ferry.call('GET', `/api/log/self?type=${LOG_TYPE.topUp}`, { as: alice })
			expect(topUps.body.data.items.map((entry: { content: string }) => entry.content)).toEqual(['top-up'])
			expect((await requestIds(alice, '/api/log/self?type=0&channel=&start_timestamp='))).toEqual(['r3', 'r2', 'r1'])
		})

		test('pages the list and counts every match', async () => {
			const first = await ferry.call('GET', `/api/log/?type=${LOG_TYPE.consume}&p=1&page_size=3`, { as: root })
			expect(first.body.data).toMatchObject({ page: 1, page_size: 3, total: 4 })
			expect(first.body.data.items.map((entry: { request_id: string }) => entry.request_id)).toEqual(['r5', 'r3', 'r2'])
			const second = await ferry.call('GET', `/api/log/?type=${LOG_TYPE.consume}&p=2&size=3`, { as: root })
			expect(second.body.data.items.map((entry: { request_id: string }) => entry.request_id)).toEqual(['r1'])
		})

		test('stat sums the quota of matching consume entries and counts the last minute\'s requests and tokens', async () => {
			const stat = async (as: Caller, path: string) => (await ferry.call('GET', path, { as })).body.data
			expect(await stat(root, '/api/log/stat')).toEqual({ quota: 1307, rpm: 3, tpm: 43 })
			expect(await stat(root, '/api/log/stat?username=alice')).toEqual({ quota: 1300, rpm: 2, tpm: 40 })
			expect(await stat(root, '/api/log/stat?model_name=gpt-4o')).toEqual({ quota: 1207, rpm: 2, tpm: 28 })
			expect(await stat(root, '/api/log/stat?channel=5')).toEqual({ quota: 100, rpm: 1, tpm: 15 })
			// The time range narrows the quota; rpm and tpm always look at the last minute.
			expect(await stat(root, `/api/log/stat?start_timestamp=${now - 60}`)).toEqual({ quota: 307, rpm: 3, tpm: 43 })
			expect(await stat(root, `/api/log/stat?type=${LOG_TYPE.topUp}`)).toEqual({ quota: 1307, rpm: 3, tpm: 43 })
			expect(await stat(alice, '/api/log/self/stat')).toEqual({ quota: 1300, rpm: 2, tpm: 40 })
			expect(await stat(alice, '/api/log/self/stat?username=bob')).toEqual({ quota: 1300, rpm: 2, tpm: 40 })
			expect(await stat(bob, `/api/log/self/stat?end_timestamp=${now - 60}`)).toEqual({ quota: 0, rpm: 1, tpm: 3 })
		})
	})
}
