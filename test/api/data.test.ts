import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { LOG_TYPE } from '@shared/log'
import { QUOTA_DATA_MESSAGES, type QuotaData } from '@shared/quota-data'
import { ROLE } from '@shared/user'
import { exportQuotaData } from '@/api/data/export'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

const EXPORT_WORKER_URL = new URL('../../src/workers/data-export.ts', import.meta.url)

const HOUR = 3600
const DAY = 24 * HOUR

/**
 * Every database, and SQLite twice: in memory (the live hours are summed in the database, as on
 * Postgres) and on a file, where they are summed on a reading thread of their own.
 */
const dashboardTargets = databaseTargets().flatMap((target) => target.dialect === 'sqlite'
	? [{ ...target, name: 'an in-memory SQLite' }, { ...target, name: 'a SQLite file', open: async () => (await target.openTwo())[0] }]
	: [{ ...target, name: 'Postgres' }])

for (const target of dashboardTargets) {
	describe(`API usage dashboard data on ${target.name}`, () => {
		let ferry: TestApp
		let alice: Caller
		let bob: Caller
		let admin: Caller
		// The current hour's start: buckets are placed whole hours before it.
		const thisHour = Math.floor(nowSeconds() / HOUR) * HOUR

		async function consume(as: Caller, username: string, model: string, at: number, quota: number) {
			await ferry.store.db.insert(ferry.store.tables.logs).values({
				userId: as.userId, username, modelName: model, createdAt: at, type: LOG_TYPE.consume, promptTokens: 10, completionTokens: 5, quota,
			})
		}

		beforeEach(async () => {
			ferry = await createTestApp(target)
			alice = await ferry.createUser('alice')
			bob = await ferry.createUser('bob')
			admin = await ferry.createUser('harbour', ROLE.admin)
			await consume(alice, 'alice', 'gpt-4o-mini', thisHour - 2 * HOUR + 5, 100)
			await consume(alice, 'alice', 'gpt-4o-mini', thisHour - 2 * HOUR + 9, 50)
			await consume(alice, 'alice', 'claude-3-haiku', thisHour - 3 * DAY, 70)
			await consume(alice, 'alice', 'gpt-4o', thisHour - 8 * DAY, 999)
			await consume(bob, 'bob', 'gpt-4o-mini', thisHour - HOUR + 1, 20)
			await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
		})
		afterEach(() => ferry.close())

		const get = (path: string, as?: Caller) => ferry.call<QuotaData[]>('GET', path, { as })
		const summary = (rows: QuotaData[] | undefined) => (rows ?? []).map((row) => `${row.username}:${row.model_name}:${row.count}:${row.quota}`)

		test('a user reads only their own buckets, over the last seven days by default, whatever username they name', async () => {
			const answer = await get('/api/data/self?username=bob', alice)
			expect(answer.body.success).toBe(true)
			expect(summary(answer.body.data)).toEqual(['alice:claude-3-haiku:1:70', 'alice:gpt-4o-mini:2:150'])
			const [bucket] = answer.body.data!.filter((row) => row.model_name === 'gpt-4o-mini')
			expect(bucket).toMatchObject({ user_id: alice.userId, created_at: thisHour - 2 * HOUR, token_used: 30, count: 2, quota: 150 })
			expect(Object.keys(bucket!).sort()).toEqual(['count', 'created_at', 'id', 'model_name', 'quota', 'token_used', 'user_id', 'username'])
		})

		test('the time range picks buckets by the start of their hour, both bounds included', async () => {
			const range = (start: number, end: number) => get(`/api/data/self?start_timestamp=${start}&end_timestamp=${end}`, alice)
			expect(summary((await range(thisHour - 9 * DAY, thisHour)).body.data)).toEqual(['alice:gpt-4o:1:999', 'alice:claude-3-haiku:1:70', 'alice:gpt-4o-mini:2:150'])
			expect(summary((await range(thisHour - 2 * HOUR, thisHour - 2 * HOUR)).body.data)).toEqual(['alice:gpt-4o-mini:2:150'])
			expect(summary((await range(thisHour - 2 * HOUR + 1, thisHour)).body.data)).toEqual([])
		})

		test('admins read every user\'s buckets on /api/data/ and may pick one username; users may not', async () => {
			const all = await get('/api/data/', admin)
			expect(summary(all.body.data)).toEqual(['alice:claude-3-haiku:1:70', 'alice:gpt-4o-mini:2:150', 'bob:gpt-4o-mini:1:20'])
			expect(summary((await get('/api/data/?username=bob', admin)).body.data)).toEqual(['bob:gpt-4o-mini:1:20'])
			expect(summary((await get('/api/data/?username=nobody', admin)).body.data)).toEqual([])
			// The admin's own dashboard holds only their own (no) calls.
			expect((await get('/api/data/self', admin)).body.data).toEqual([])

			expect((await get('/api/data/', alice)).status).toBe(403)
			expect((await get('/api/data/')).status).toBe(401)
			expect((await get('/api/data/self')).status).toBe(401)
		})

		test('calls made since the last roll-up show from the log in their hour, the newest exported hour included, until the next roll-up writes them', async () => {
			// The last run exported bob's bucket of the previous hour; later calls are only in the log.
			await consume(alice, 'alice', 'gpt-4o-mini', nowSeconds(), 40)
			await consume(bob, 'bob', 'gpt-4o-mini', thisHour - HOUR + 30, 5)
			const range = `start_timestamp=${thisHour - HOUR}&end_timestamp=${nowSeconds()}`
			const live = await get(`/api/data/?${range}`, admin)
			expect(summary(live.body.data)).toEqual(['bob:gpt-4o-mini:2:25', 'alice:gpt-4o-mini:1:40'])
			expect(live.body.data!.find((row) => row.username === 'alice')!.created_at).toBe(thisHour)
			expect(summary((await get(`/api/data/self?${range}`, alice)).body.data)).toEqual(['alice:gpt-4o-mini:1:40'])
			// The next roll-up writes the same buckets.
			await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
			const exported = await get(`/api/data/?${range}`, admin)
			expect(summary(exported.body.data)).toEqual(['bob:gpt-4o-mini:2:25', 'alice:gpt-4o-mini:1:40'])
			expect(exported.body.data!.every((row) => row.id > 0)).toBe(true)
		})

		test('channel tests are not usage: the roll-up, the live hours and the log totals leave them out', async () => {
			const test = { channel_test: true, not_charged: true, model_ratio: 1 }
			await ferry.store.db.insert(ferry.store.tables.logs).values({
				userId: alice.userId, username: 'alice', modelName: 'gpt-4o-mini', createdAt: thisHour - 2 * HOUR + 20, type: LOG_TYPE.consume,
				promptTokens: 10, completionTokens: 5, quota: 30, tokenName: 'channel test', other: JSON.stringify(test),
			})
			await ferry.store.db.insert(ferry.store.tables.logs).values({
				userId: alice.userId, username: 'alice', modelName: 'gpt-4o-mini', createdAt: nowSeconds(), type: LOG_TYPE.consume,
				promptTokens: 10, completionTokens: 5, quota: 30, tokenName: 'channel test', other: JSON.stringify(test),
			})
			await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
			const answer = await get(`/api/data/self?start_timestamp=${thisHour - 2 * HOUR}&end_timestamp=${nowSeconds()}`, alice)
			expect(summary(answer.body.data)).toEqual(['alice:gpt-4o-mini:2:150'])
			const stat = await ferry.call('GET', `/api/log/self/stat?start_timestamp=${thisHour - 2 * HOUR}`, { as: alice })
			expect(stat.body.data.quota).toBe(150)
		})

		test('bad time ranges are refused with a clear message', async () => {
			const reversed = await get(`/api/data/self?start_timestamp=${thisHour}&end_timestamp=${thisHour - HOUR}`, alice)
			expect(reversed.status).toBe(400)
			expect(reversed.body).toMatchObject({ success: false, message: inEnglish(QUOTA_DATA_MESSAGES.badRange) })
			const tooLong = await get(`/api/data/?start_timestamp=1&end_timestamp=${thisHour}`, admin)
			expect(tooLong.status).toBe(400)
			expect(tooLong.body).toMatchObject({ success: false, message: inEnglish(QUOTA_DATA_MESSAGES.rangeTooLong) })
			const notNumber = await get('/api/data/self?start_timestamp=yesterday', alice)
			expect(notNumber.status).toBe(400)
			expect(notNumber.body.success).toBe(false)
		})

		test('with DataExportEnabled off the calls say the dashboard is not enabled', async () => {
			await ferry.dependencies.options.set('DataExportEnabled', 'false')
			for (const [path, as] of [['/api/data/self', alice], ['/api/data/', admin]] as const) {
				const answer = await get(path, as)
				expect(answer.body).toEqual({ success: false, message: inEnglish(QUOTA_DATA_MESSAGES.disabled) })
			}
		})

		test('the status flags follow the options: data export, its interval and default granularity, online top-up', async () => {
			const status = async () => (await ferry.call('GET', '/api/status')).body.data
			expect(await status()).toMatchObject({ enable_data_export: true, data_export_interval: 5, data_export_default_time: 'hour', enable_online_topup: false })
			await ferry.dependencies.options.set('DataExportEnabled', 'false')
			await ferry.dependencies.options.set('DataExportInterval', '15')
			await ferry.dependencies.options.set('DataExportDefaultTime', 'week')
			expect(await status()).toMatchObject({ enable_data_export: false, data_export_interval: 15, data_export_default_time: 'week' })

			// Online top-up needs the epay id, key and address together (the server address comes first).
			await ferry.dependencies.options.set('ServerAddress', 'https://gateway.example')
			await ferry.dependencies.options.set('EpayId', '1001')
			await ferry.dependencies.options.set('EpayKey', 'epay-secret')
			expect((await status()).enable_online_topup).toBe(false)
			await ferry.dependencies.options.set('PayAddress', 'https://epay.example')
			expect((await status()).enable_online_topup).toBe(true)
			await ferry.dependencies.options.set('EpayKey', '')
			expect((await status()).enable_online_topup).toBe(false)
		})
	})
}
