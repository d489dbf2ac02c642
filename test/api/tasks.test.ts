/**
 * The drawing and async task lists (docs/specification/tasks.md#the-task-lists): `GET /api/mj/`, `/api/mj/self/`,
 * `GET /api/task/`, `/api/task/self`, with tasks made through the real relays.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { forgetResponse, rememberResponse } from '@/db/stores/kept-responses'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startTaskHarness, type TaskHarness } from '../helpers/task-relay'

const DRAWING_FIELDS = ['id', 'submit_time', 'finish_time', 'channel_id', 'action', 'mj_id', 'code', 'status', 'progress', 'image_url', 'prompt', 'prompt_en', 'fail_reason']
const TASK_FIELDS = ['id', 'submit_time', 'finish_time', 'progress', 'channel_id', 'platform', 'action', 'task_id', 'status', 'fail_reason']

for (const target of databaseTargets()) {
	describe(`the task lists on ${target.dialect}`, () => {
		let tasks: TaskHarness
		let aliceDrawing: string
		let bobDrawing: string
		let aliceSong: string
		beforeAll(async () => {
			tasks = await startTaskHarness(target)
			aliceDrawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'alice draws' } })).body.result
			bobDrawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.bob.key, body: { prompt: 'bob draws' } })).body.result
			aliceSong = (await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'alice sings' } })).body.data
			await tasks.call('POST', '/suno/submit/lyrics', { key: tasks.bob.key, body: { prompt: 'bob writes' } })
			tasks.midjourney.report(aliceDrawing, 'task-success.json')
			await tasks.poll()
		})
		afterAll(() => tasks?.close())

		const get = (path: string, as: Caller = tasks.alice) => tasks.harness.ferry.call('GET', path, { as })

		test('a user reads their own drawing tasks with the specified fields, and no channel', async () => {
			const answer = await get('/api/mj/self/')
			expect(answer.body.success).toBe(true)
			expect(answer.body.data).toMatchObject({ page: 1, page_size: 10, total: 1 })
			const [entry] = answer.body.data.items
			for (const field of DRAWING_FIELDS.filter((name) => name !== 'channel_id')) expect(entry).toHaveProperty(field)
			expect(entry).not.toHaveProperty('channel_id')
			expect(entry).toMatchObject({ mj_id: aliceDrawing, action: 'IMAGINE', code: 1, status: 'SUCCESS', progress: '100%', prompt: 'alice draws', fail_reason: '' })
			expect(entry.finish_time).toBeGreaterThan(0)
			expect(entry.image_url).toStartWith(`/mj/image/${aliceDrawing}?signature=`)
			expect(JSON.stringify(answer.body)).not.toContain('private')
		})

		test('an admin reads everyone\'s drawing tasks with the channel, and filters by channel, id and time', async () => {
			const all = await get('/api/mj/', tasks.harness.root)
			expect(all.body.data.total).toBe(2)
			for (const field of DRAWING_FIELDS) expect(all.body.data.items[0]).toHaveProperty(field)
			expect(all.body.data.items.map((entry: { mj_id: string }) => entry.mj_id)).toEqual([bobDrawing, aliceDrawing])
			expect(all.body.data.items[0].channel_id).toBe(tasks.mjChannelId)
			expect((await get(`/api/mj/?mj_id=${aliceDrawing}`, tasks.harness.root)).body.data.total).toBe(1)
			expect((await get(`/api/mj/?channel_id=${tasks.mjChannelId}`, tasks.harness.root)).body.data.total).toBe(2)
			expect((await get(`/api/mj/?channel_id=${tasks.sunoChannelId}`, tasks.harness.root)).body.data.total).toBe(0)
			const submitted = all.body.data.items[0].submit_time
			expect((await get(`/api/mj/?start_timestamp=${submitted + 3600}`, tasks.harness.root)).body.data.total).toBe(0)
			expect((await get(`/api/mj/?start_timestamp=${submitted - 60}&end_timestamp=${submitted + 60}&p=1&page_size=1`, tasks.harness.root)).body.data).toMatchObject({ total: 2, page_size: 1 })
		})

		test('a user\'s own list ignores the channel filter, and the admin list is refused to users', async () => {
			expect((await get(`/api/mj/self/?channel_id=${tasks.sunoChannelId}`)).body.data.total).toBe(1)
			expect((await get('/api/mj/')).status).toBe(403)
			expect((await get('/api/task/')).status).toBe(403)
		})

		test('async tasks list with the specified fields: the caller\'s own, or everyone\'s for admins, filtered by task id', async () => {
			const own = await get('/api/task/self')
			expect(own.body.data.total).toBe(1)
			const [entry] = own.body.data.items
			for (const field of TASK_FIELDS.filter((name) => name !== 'channel_id')) expect(entry).toHaveProperty(field)
			expect(entry).toMatchObject({ task_id: aliceSong, platform: 'suno', action: 'MUSIC', status: 'SUBMITTED', progress: '0%', fail_reason: '' })
			expect(entry).not.toHaveProperty('channel_id')
			expect(JSON.stringify(own.body)).not.toContain('upstream_id')
			const all = await get('/api/task/', tasks.harness.root)
			expect(all.body.data.total).toBe(2)
			for (const field of TASK_FIELDS) expect(all.body.data.items[0]).toHaveProperty(field)
			expect(all.body.data.items.map((task: { action: string }) => task.action)).toEqual(['LYRICS', 'MUSIC'])
			expect((await get(`/api/task/?task_id=${aliceSong}`, tasks.harness.root)).body.data.items.map((task: { task_id: string }) => task.task_id)).toEqual([aliceSong])
			expect((await get(`/api/task/?channel_id=${tasks.mjChannelId}`, tasks.harness.root)).body.data.total).toBe(0)
		})

		test('a record of which channel keeps a Responses API response is no task: neither list shows it', async () => {
			await rememberResponse(tasks.harness.ferry.dependencies.store, { responseId: 'resp_kept_by_openai', userId: tasks.alice.userId, channelId: tasks.mjChannelId, keyIndex: 0 })
			const own = await get('/api/task/self')
			const all = await get('/api/task/', tasks.harness.root)
			expect(own.body.data.items.map((task: { task_id: string }) => task.task_id)).toEqual([aliceSong])
			expect(all.body.data.total).toBe(2)
			expect(JSON.stringify(all.body)).not.toContain('resp_kept_by_openai')
			await forgetResponse(tasks.harness.ferry.dependencies.store, 'resp_kept_by_openai', tasks.alice.userId)
		})

		test('bad filters are a 400 in the envelope', async () => {
			const answer = await get('/api/mj/self/?start_timestamp=yesterday')
			expect(answer.status).toBe(400)
			expect(answer.body.success).toBe(false)
			expect((await get('/api/task/self?p=-1')).status).toBe(400)
		})
	})
}
