/**
 * The store functions the relay's key router calls: auto-disabling one key (and the channel when
 * none is left), enabling an auto-disabled key again (and the channel it took out), and recording
 * a key's outcome — at once for a test, coalesced for real traffic.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { CHANNEL_STATUS, CHANNEL_TYPE } from '@shared/channel-type'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { nested } from '@shared/messages'
import { statusReason } from '@shared/messages/channel-status'
import { ROLE } from '@shared/user'
import { enableAutoDisabledKey, markKeyAutoDisabled } from '@/db/stores/channel-keys'
import { loadRoutableChannels } from '@/db/stores/channels'
import { createKeyOutcomeRecorder, recordKeyOutcome } from '@/db/stores/key-outcomes'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'

const KEYS = ['sk-store-zero-000000000000000', 'sk-store-one-1111111111111111', 'sk-store-two-2222222222222222']
const UNAUTHORIZED = statusReason('upstream.unauthorized', { message: 'invalid api key' })

for (const target of databaseTargets()) {
	describe(`channel keys in the store on ${target.dialect}`, () => {
		let ferry: TestApp
		let admin: Caller
		let notifications: number
		beforeEach(async () => {
			ferry = await createTestApp(target)
			admin = await ferry.createUser('admin', ROLE.admin)
			notifications = 0
			ferry.dependencies.changes.subscribe('channels', () => notifications++)
		})
		afterEach(() => ferry.close())

		async function createChannel(fields: Record<string, unknown>): Promise<number> {
			const answer = await ferry.call('POST', '/api/channel/', { as: admin, body: { type: CHANNEL_TYPE.openai, name: 'pool', models: 'gpt-4o', group: 'default,vip', ...fields } })
			if (!answer.body.success) throw new Error(`creating a channel failed: ${answer.body.message}`)
			return answer.body.data[0].id
		}
		const createPool = () => createChannel({ mode: 'multi_key', key: KEYS.join('\n') })
		const detail = async (id: number, language = 'en') => (await ferry.call('GET', `/api/channel/${id}`, { as: admin, headers: { 'accept-language': language } })).body.data
		async function channelRow(id: number) {
			const { channels } = ferry.store.tables
			const [row] = await ferry.store.db.select().from(channels).where(eq(channels.id, id))
			return row!
		}
		async function keyRows(id: number) {
			const { channelKeys } = ferry.store.tables
			return ferry.store.db.select().from(channelKeys).where(eq(channelKeys.channelId, id)).orderBy(asc(channelKeys.position))
		}
		async function abilitiesEnabled(id: number) {
			const { abilities } = ferry.store.tables
			return (await ferry.store.db.select({ enabled: abilities.enabled }).from(abilities).where(eq(abilities.channelId, id))).map((row) => row.enabled)
		}
		const routable = async (id: number) => (await loadRoutableChannels(ferry.store, ferry.dependencies.secrets)).find((channel) => channel.id === id)
		const feed = () => ferry.dependencies.changes

		describe('auto-disabling a key', () => {
			test('takes that key out with its reason and time, leaves the channel and its other keys serving, and tells the routing table', async () => {
				const id = await createPool()
				notifications = 0
				expect(await markKeyAutoDisabled(ferry.store, { channelId: id, index: 1 }, UNAUTHORIZED, feed())).toEqual({ key: true, channel: false })
				expect(notifications).toBe(1)
				const key = (await detail(id)).keys[1]
				expect(key).toMatchObject({ index: 1, status: CHANNEL_STATUS.autoDisabled, status_reason: 'upstream answered 401: invalid api key' })
				expect(Math.abs(key.status_time - Date.now() / 1000)).toBeLessThan(60)
				expect((await detail(id, 'zh')).keys[1].status_reason).toBe('上游返回 401：invalid api key')
				expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.enabled)
				expect((await routable(id))!.keys.map((entry) => entry.index)).toEqual([0, 2])
				// Once is enough: a key that is not enabled changes nothing.
				expect(await markKeyAutoDisabled(ferry.store, { channelId: id, index: 1 }, UNAUTHORIZED, feed())).toEqual({ key: false, channel: false })
				expect(await markKeyAutoDisabled(ferry.store, { channelId: id, index: 7 }, UNAUTHORIZED, feed())).toEqual({ key: false, channel: false })
				expect(notifications).toBe(1)
			})

			test('auto-disables the channel, saying all its keys are, when the last enabled key goes', async () => {
				const id = await createPool()
				await ferry.call('PUT', `/api/channel/${id}/keys/0`, { as: admin, body: { status: 2 } })
				await markKeyAutoDisabled(ferry.store, { channelId: id, index: 1 }, UNAUTHORIZED, feed())
				expect(await markKeyAutoDisabled(ferry.store, { channelId: id, index: 2 }, UNAUTHORIZED, feed())).toEqual({ key: true, channel: true })
				const channel = await detail(id)
				expect(channel.status).toBe(CHANNEL_STATUS.autoDisabled)
				expect(JSON.parse(channel.other_info).status_reason).toBe('all keys are auto-disabled (the last, #2: upstream answered 401: invalid api key)')
				expect(JSON.parse((await detail(id, 'zh')).other_info).status_reason).toBe('所有密钥均已自动禁用（最后一个是 #2：上游返回 401：invalid api key）')
				expect(await abilitiesEnabled(id)).toEqual([false, false])
				expect(await routable(id)).toBeUndefined()
			})

			test('two keys failing at the same moment still take the channel out when they were its last', async () => {
				for (let round = 0; round < 5; round++) {
					const id = await createChannel({ mode: 'multi_key', key: `sk-race-a-${round}-000000000\nsk-race-b-${round}-000000000` })
					const changes = await Promise.all([0, 1].map((index) => markKeyAutoDisabled(ferry.store, { channelId: id, index }, UNAUTHORIZED, feed())))
					expect(changes.map((change) => change.key)).toEqual([true, true])
					expect(changes.filter((change) => change.channel)).toHaveLength(1)
					expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.autoDisabled)
				}
			})

			test('acts on the channel itself for a single-key channel, index 0', async () => {
				const id = await createChannel({ key: 'sk-single-store-00000000000' })
				expect(await markKeyAutoDisabled(ferry.store, { channelId: id, index: 1 }, UNAUTHORIZED, feed())).toEqual({ key: false, channel: false })
				expect(await markKeyAutoDisabled(ferry.store, { channelId: id, index: 0 }, UNAUTHORIZED, feed())).toEqual({ key: true, channel: true })
				expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.autoDisabled)
				expect(await abilitiesEnabled(id)).toEqual([false, false])
				expect(await enableAutoDisabledKey(ferry.store, { channelId: id, index: 0 }, feed())).toEqual({ key: true, channel: true })
				expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.enabled)
				expect((await channelRow(id)).otherInfo).toBe('')
			})
		})

		describe('enabling an auto-disabled key', () => {
			test('brings the key back, and the channel when it was out because all its keys were', async () => {
				const id = await createPool()
				for (const index of [0, 1, 2]) await markKeyAutoDisabled(ferry.store, { channelId: id, index }, UNAUTHORIZED, feed())
				expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.autoDisabled)
				notifications = 0
				expect(await enableAutoDisabledKey(ferry.store, { channelId: id, index: 2 }, feed())).toEqual({ key: true, channel: true })
				expect(notifications).toBe(1)
				expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.enabled)
				expect((await channelRow(id)).otherInfo).toBe('')
				expect(await abilitiesEnabled(id)).toEqual([true, true])
				expect((await routable(id))!.keys).toEqual([{ index: 2, key: KEYS[2]! }])
				expect((await detail(id)).keys[2]).toMatchObject({ status: 1, status_reason: '', status_time: 0 })
				// The next one comes back alone: the channel already serves.
				expect(await enableAutoDisabledKey(ferry.store, { channelId: id, index: 0 }, feed())).toEqual({ key: true, channel: false })
			})

			test('leaves a key disabled by hand, and a channel auto-disabled for another reason, as they are', async () => {
				const id = await createPool()
				await ferry.call('PUT', `/api/channel/${id}/keys/0`, { as: admin, body: { status: 2 } })
				expect(await enableAutoDisabledKey(ferry.store, { channelId: id, index: 0 }, feed())).toEqual({ key: false, channel: false })
				expect((await keyRows(id))[0]!.status).toBe(CHANNEL_STATUS.manuallyDisabled)
				await markKeyAutoDisabled(ferry.store, { channelId: id, index: 1 }, UNAUTHORIZED, feed())
				const { channels } = ferry.store.tables
				await ferry.store.db.update(channels).set({ status: CHANNEL_STATUS.autoDisabled, otherInfo: JSON.stringify({ status_reason: 'channel test failed' }) }).where(eq(channels.id, id))
				expect(await enableAutoDisabledKey(ferry.store, { channelId: id, index: 1 }, feed())).toEqual({ key: true, channel: false })
				expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.autoDisabled)
			})
		})

		describe('recording outcomes', () => {
			test('a test is written at once: response time and test time on the key and channel, the error worded in the reader\'s language', async () => {
				const id = await createPool()
				await recordKeyOutcome(ferry.store, { channelId: id, index: 1 }, { responseTime: 420, tested: true, error: nested(CHANNEL_TOOL_MESSAGES.requestFailed) })
				const key = (await detail(id)).keys[1]
				expect(key).toMatchObject({ response_time: 420, last_error: 'the request to the upstream failed' })
				expect(key.test_time).toBeGreaterThan(0)
				expect((await detail(id, 'zh')).keys[1].last_error).toBe('向上游的请求失败')
				const channel = await channelRow(id)
				expect([channel.responseTime, channel.testTime > 0]).toEqual([420, true])
				await recordKeyOutcome(ferry.store, { channelId: id, index: 1 }, { responseTime: 90, tested: true, error: null })
				expect((await detail(id)).keys[1]).toMatchObject({ response_time: 90, last_error: '' })
			})

			test('an upstream\'s error is kept in its words, masked of the key and cut to 500 characters', async () => {
				const id = await createPool()
				await recordKeyOutcome(ferry.store, { channelId: id, index: 0 }, { error: `401 Incorrect API key provided: ${KEYS[0]} ${'x'.repeat(900)}`, secret: KEYS[0] })
				const lastError: string = (await detail(id)).keys[0].last_error
				expect(lastError.startsWith('401 Incorrect API key provided: *** xxx')).toBe(true)
				expect(lastError).toHaveLength(500)
				expect((await keyRows(id))[0]!.lastError).not.toContain(KEYS[0])
			})

			test('an upstream\'s error quoting a NUL or a lone surrogate is kept without them, and the other keys\' outcomes written with it are kept too', async () => {
				// Upstreams quote what a client sent ("Invalid value: '…'"); a NUL failed the write of every key's outcome on Postgres.
				const id = await createPool()
				const recorder = createKeyOutcomeRecorder(ferry.store, { intervalMs: 60_000 })
				recorder.record({ channelId: id, index: 0 }, { responseTime: 10, error: 'Invalid value: \'a\u0000b\' in x\ud800' })
				recorder.record({ channelId: id, index: 1 }, { responseTime: 20, error: 'upstream answered 503' })
				await recorder.flush()
				expect((await keyRows(id)).map((row) => [row.responseTime, row.lastError])).toEqual([[10, 'Invalid value: \'ab\' in x\ufffd'], [20, 'upstream answered 503'], [0, '']])
				expect((await channelRow(id)).responseTime).toBe(20)
			})

			test('real traffic is coalesced: the latest outcome of each key is written when the recorder flushes, not per call', async () => {
				const id = await createPool()
				const recorder = createKeyOutcomeRecorder(ferry.store, { intervalMs: 60_000 })
				for (let call = 1; call <= 50; call++) recorder.record({ channelId: id, index: call % 2 }, { responseTime: call * 10 })
				recorder.record({ channelId: id, index: 0 }, { error: 'upstream answered 503' })
				expect((await keyRows(id)).map((row) => row.responseTime)).toEqual([0, 0, 0])
				await recorder.flush()
				const rows = await keyRows(id)
				expect(rows.map((row) => [row.responseTime, row.lastError])).toEqual([[500, 'upstream answered 503'], [490, ''], [0, '']])
				// A later success leaves the last error for the admin to see.
				recorder.record({ channelId: id, index: 0 }, { responseTime: 30 })
				await recorder.close()
				expect((await keyRows(id))[0]).toMatchObject({ responseTime: 30, lastError: 'upstream answered 503' })
				expect((await channelRow(id)).responseTime).toBe(30)
			})

			test('writes by itself once the interval has passed', async () => {
				const id = await createChannel({ key: 'sk-single-store-00000000000' })
				const recorder = createKeyOutcomeRecorder(ferry.store, { intervalMs: 20 })
				recorder.record({ channelId: id, index: 0 }, { responseTime: 777 })
				await eventually(async () => (await channelRow(id)).responseTime === 777)
				await recorder.close()
			})
		})
	})
}
