/**
 * Drawing and music submits are routed by the key router, as any relayed call is, on every database: a
 * multi-key Midjourney channel's submits go to its keys by the channel's mode, a key disabled by
 * hand gets none, a follow-up and the polls go with the key that submitted the task (the fake
 * midjourney-proxy keeps each key's tasks apart, as separate accounts of a real one do), and a key
 * the upstream refuses with 401 is auto-disabled alone while the refused submit costs nothing; a
 * multi-key Suno channel's songs likewise, with a continuation on its song's key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CHANNEL_STATUS, CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { MJ_MODELS, PRICE, startTaskHarness, type TaskHarness } from '../../helpers/task-relay'
import { type FakeMidjourney, startFakeMidjourney } from '../../fixtures/providers/midjourney/fake-midjourney'
import { type FakeSuno, startFakeSuno } from '../../fixtures/providers/suno/fake-suno'

const KEYS = ['mj-pool-key-0', 'mj-pool-key-1']
const UNKNOWN_KEY = 'mj-pool-key-revoked'
const UPSCALE = 'MJ::JOB::upsample::1::2f4c5d3e-7d2a-4b9c-9e1f-3a6b8c0d1e2f'
const SUNO_KEYS = ['suno-pool-key-0', 'suno-pool-key-1']

for (const target of databaseTargets()) {
	describe(`the keys of Midjourney submits on ${target.dialect}`, () => {
		let tasks: TaskHarness
		let pool: FakeMidjourney
		let channelId: number
		const admin = () => ({ as: tasks.harness.root })
		beforeAll(async () => {
			tasks = await startTaskHarness(target)
			await tasks.harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
			// The harness's own single-key drawing channel takes no part: only the pool serves drawings.
			await tasks.harness.ferry.call('PUT', '/api/channel/', { ...admin(), body: { id: tasks.mjChannelId, status: CHANNEL_STATUS.manuallyDisabled } })
			pool = startFakeMidjourney({ key: KEYS })
			channelId = await tasks.harness.createChannel({
				type: CHANNEL_TYPE.midjourney, name: 'drawing pool', mode: 'multi_key', multi_key_mode: 'polling', key: KEYS.join('\n'), base_url: pool.url, models: MJ_MODELS,
			})
		})
		afterAll(async () => {
			await tasks?.close()
			await pool?.stop()
		})

		const imagine = (prompt: string) => tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt } })
		/** The key each submit since `from` was sent with, in order. */
		const submitKeys = (from: number) => pool.requests.slice(from).filter((request) => request.path.includes('/submit/')).map((request) => request.headers['mj-api-secret'])
		const keyStatuses = async (id: number) => {
			const { channelKeys } = tasks.harness.ferry.store.tables
			const rows = await tasks.harness.ferry.store.db.select().from(channelKeys).where(eq(channelKeys.channelId, id))
			return Object.fromEntries(rows.map((row) => [row.position, row.status]))
		}

		test('a two-key channel in polling mode spreads submits over both keys, and each task is polled with the key that submitted it', async () => {
			const before = await tasks.account(tasks.alice)
			const since = pool.requests.length
			const answers = []
			for (let submit = 0; submit < 4; submit++) answers.push(await imagine(`a lighthouse, take ${submit}`))
			expect(answers.map((answer) => answer.body.code)).toEqual([1, 1, 1, 1])
			const used = submitKeys(since)
			expect(used.filter((key) => key === KEYS[0])).toHaveLength(2)
			expect(used.filter((key) => key === KEYS[1])).toHaveLength(2)
			const ids: string[] = answers.map((answer) => answer.body.result)
			expect(ids.map((id) => pool.ownerOf(id))).toEqual(used)
			// The fake lists a task only to the key that submitted it: every task finishing proves its poll used that key.
			for (const id of ids) pool.report(id, 'task-success.json')
			await tasks.poll()
			for (const id of ids) expect((await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.alice.key })).body).toMatchObject({ id, status: 'SUCCESS' })
			expect((await tasks.account(tasks.alice)).used - before.used).toBe(4 * PRICE.mj_imagine)
			// Each task's consume log names, for admins, the key that took its submit.
			const { logs } = tasks.harness.ferry.store.tables
			const entries = await tasks.harness.ferry.store.db.select().from(logs).where(eq(logs.userId, tasks.alice.userId)).orderBy(logs.id)
			const keyOfTask = new Map(entries.map((entry) => JSON.parse(entry.other || '{}')).filter((other) => ids.includes(other.task_id)).map((other) => [other.task_id, other.admin_info.key_index]))
			expect(ids.map((id) => keyOfTask.get(id))).toEqual(used.map((key) => KEYS.indexOf(key!)))
		})

		test('a follow-up goes to the key that submitted its original task', async () => {
			const since = pool.requests.length
			const first = await imagine('a harbour at dawn')
			const second = await imagine('a harbour at dusk')
			const [firstKey, secondKey] = submitKeys(since)
			expect(new Set([firstKey, secondKey])).toEqual(new Set(KEYS))
			for (const original of [first, second]) {
				pool.report(original.body.result, 'task-success.json')
				await tasks.poll()
				const followed = pool.requests.length
				// Twice each, so that a key chosen by the channel's turn alone could not match both times.
				for (let repeat = 0; repeat < 2; repeat++) {
					const upscale = await tasks.call('POST', '/mj/submit/action', { key: tasks.alice.key, body: { taskId: original.body.result, customId: UPSCALE } })
					expect(upscale.body.code).toBe(1)
				}
				expect(submitKeys(followed)).toEqual([pool.ownerOf(original.body.result)!, pool.ownerOf(original.body.result)!])
			}
		})

		test('a key disabled by hand is never used', async () => {
			expect((await tasks.harness.ferry.call('PUT', `/api/channel/${channelId}/keys/1`, { ...admin(), body: { status: CHANNEL_STATUS.manuallyDisabled } })).body.success).toBe(true)
			const since = pool.requests.length
			for (let submit = 0; submit < 4; submit++) expect((await imagine(`a quiet street, take ${submit}`)).body.code).toBe(1)
			expect(submitKeys(since)).toEqual([KEYS[0], KEYS[0], KEYS[0], KEYS[0]])
			expect((await tasks.harness.ferry.call('PUT', `/api/channel/${channelId}/keys/1`, { ...admin(), body: { status: CHANNEL_STATUS.enabled } })).body.success).toBe(true)
		})

		test('a key the upstream refuses with 401 is disabled alone, the refused submit costs nothing, and the next submits go to the other key', async () => {
			await tasks.harness.ferry.call('PUT', '/api/channel/', { ...admin(), body: { id: channelId, status: CHANNEL_STATUS.manuallyDisabled } })
			const revoked = await tasks.harness.createChannel({
				type: CHANNEL_TYPE.midjourney, name: 'drawing pool with a revoked key', mode: 'multi_key', multi_key_mode: 'polling', key: `${KEYS[0]}\n${UNKNOWN_KEY}`, base_url: pool.url, models: MJ_MODELS,
			})
			const before = await tasks.account(tasks.alice)
			const since = pool.requests.length
			const answers = [await imagine('a red kite'), await imagine('a blue kite')]
			expect(submitKeys(since).sort()).toEqual([KEYS[0], UNKNOWN_KEY].sort())
			const refused = answers.find((answer) => answer.status === 401)!
			expect(refused.body).toMatchObject({ code: 4, description: 'Unauthorized' })
			expect(answers.filter((answer) => answer.body.code === 1)).toHaveLength(1)
			expect(await keyStatuses(revoked)).toEqual({ 0: CHANNEL_STATUS.enabled, 1: CHANNEL_STATUS.autoDisabled })
			const { channels } = tasks.harness.ferry.store.tables
			const [channel] = await tasks.harness.ferry.store.db.select().from(channels).where(eq(channels.id, revoked))
			expect(channel!.status).toBe(CHANNEL_STATUS.enabled)
			// Only the submit the upstream took is held; the refused one's hold came back in full.
			expect(before.quota - (await tasks.account(tasks.alice)).quota).toBe(PRICE.mj_imagine)
			const after = pool.requests.length
			for (let submit = 0; submit < 3; submit++) expect((await imagine(`a green kite, take ${submit}`)).body.code).toBe(1)
			expect(submitKeys(after)).toEqual([KEYS[0], KEYS[0], KEYS[0]])
		})
	})
}

for (const target of databaseTargets()) {
	describe(`the keys of Suno submits on ${target.dialect}`, () => {
		let tasks: TaskHarness
		let pool: FakeSuno
		beforeAll(async () => {
			tasks = await startTaskHarness(target)
			await tasks.harness.ferry.call('PUT', '/api/channel/', { as: tasks.harness.root, body: { id: tasks.sunoChannelId, status: CHANNEL_STATUS.manuallyDisabled } })
			pool = startFakeSuno({ key: SUNO_KEYS })
			await tasks.harness.createChannel({
				type: CHANNEL_TYPE.suno, name: 'music pool', mode: 'multi_key', multi_key_mode: 'polling', key: SUNO_KEYS.join('\n'), base_url: pool.url, models: 'suno_music,suno_lyrics',
			})
		})
		afterAll(async () => {
			await tasks?.close()
			await pool?.stop()
		})

		const submit = (body: Record<string, unknown>) => tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body })
		const keyOfRequest = (index: number) => pool.requests[index]!.headers.authorization!.slice('Bearer '.length)

		test('a two-key channel spreads songs over both keys, polls each with its key, and a continuation goes to its song\'s key', async () => {
			const songs: { id: string; key: string; upstreamId: string }[] = []
			for (let song = 0; song < 2; song++) {
				const answer = await submit({ prompt: `verse ${song}` })
				expect(answer.body.code).toBe('success')
				songs.push({ id: answer.body.data, key: keyOfRequest(pool.requests.length - 1), upstreamId: pool.taskIds.at(-1)! })
			}
			expect(new Set(songs.map((song) => song.key))).toEqual(new Set(SUNO_KEYS))
			// The fake fetches a song only for the key that submitted it: both finishing proves each poll used its key.
			for (const song of songs) pool.report(song.upstreamId, 'task-success.json')
			expect(await tasks.poll()).toMatchObject({ succeeded: 2 })
			for (const song of songs) {
				expect((await tasks.call('GET', `/suno/fetch/${song.id}`, { key: tasks.alice.key })).body.data).toMatchObject({ task_id: song.id, status: 'SUCCESS' })
				for (let repeat = 0; repeat < 2; repeat++) {
					const continued = await submit({ prompt: 'more', continue_clip_id: 'c2cb2b55', task_id: song.id, continue_at: 60 })
					expect(continued.body.code).toBe('success')
					expect(keyOfRequest(pool.requests.length - 1)).toBe(song.key)
					expect(pool.requests.at(-1)!.body).toMatchObject({ task_id: song.upstreamId })
				}
			}
		})
	})
}
