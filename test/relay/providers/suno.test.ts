/**
 * The Suno task relay end to end, on every database: songs and lyrics submitted through Ferry with
 * an API token to a fake Suno API on loopback, polled to their end, billed to the unit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { readFetch, readSubmit } from '@/relay/providers/suno/wire'
import { databaseTargets } from '../../helpers/database'
import { PRICE, startTaskHarness, type TaskHarness } from '../../helpers/task-relay'
import { sunoFixture } from '../../fixtures/providers/suno/fake-suno'

describe('the Suno API\'s wire format', () => {
	const text = (value: unknown) => JSON.stringify(value)

	test('a submit is taken only as code "success" with a task id; otherwise its message is the reason', () => {
		expect(readSubmit(200, text(sunoFixture('submit-success.json')))).toMatchObject({ accepted: true, upstreamId: '736a6f88-bd29-4b1e-b110-37132a5325ac' })
		expect(readSubmit(200, text(sunoFixture('submit-refused.json')))).toEqual({ accepted: false, status: 400, code: 'fail', description: 'Insufficient credits in the Suno account', properties: {} })
		expect(readSubmit(401, text({ code: 'unauthorized', message: 'invalid key', data: null }))).toMatchObject({ accepted: false, status: 401, description: 'invalid key' })
		expect(readSubmit(200, '<html>')).toMatchObject({ accepted: false, status: 502 })
		expect(readSubmit(200, text({ ...sunoFixture('submit-success.json'), data: '736a6f88\u0000bd29' }))).toMatchObject({ accepted: false, status: 502, code: 'upstream_error' })
	})

	test('fetch answers are read in either case of status, with times in seconds or milliseconds', () => {
		const [song] = readFetch(text({ code: 'success', data: [{ ...sunoFixture('task-success.json'), status: 'success', finish_time: 1716192212000 }] }))
		expect(song).toMatchObject({ id: '736a6f88-bd29-4b1e-b110-37132a5325ac', status: 'SUCCESS', submitTime: 1716192124, finishTime: 1716192212 })
		expect(JSON.parse(song!.data!)[0].title).toBe('Harbour Lights')
		expect(() => readFetch(text({ code: 'error', data: [] }))).toThrow(SyntaxError)
		expect(() => readFetch(text({ code: 'success' }))).toThrow(SyntaxError)
	})
})

for (const target of databaseTargets()) {
	describe(`the Suno relay on ${target.dialect}`, () => {
		let tasks: TaskHarness
		beforeAll(async () => {
			tasks = await startTaskHarness(target)
		})
		afterAll(() => tasks?.close())
		beforeEach(() => {
			tasks.suno.requests.length = 0
		})

		const submit = (action: string, body: Record<string, unknown>, key = tasks.alice.key) => tasks.call('POST', `/suno/submit/${action}`, { key, body })
		const rowOf = async (taskId: string) => {
			const { tasks: table } = tasks.harness.ferry.store.tables
			const [row] = await tasks.harness.ferry.store.db.select().from(table).where(eq(table.taskId, taskId))
			return row!
		}

		test('a song is held at submit, polled to SUCCESS and charged its per-call price exactly once', async () => {
			const before = await tasks.account(tasks.alice)
			const submitted = await submit('music', { prompt: '[Verse]\nLanterns on the water', tags: 'folk, acoustic', title: 'Harbour Lights' })
			expect(submitted.status).toBe(200)
			expect(submitted.body).toMatchObject({ code: 'success', message: '' })
			const taskId: string = submitted.body.data
			expect(taskId).toMatch(/^task_\w{28}$/)
			const sent = tasks.suno.requests.at(-1)!
			expect(sent.path).toBe('/suno/submit/music')
			expect(sent.headers.authorization).toBe('Bearer suno-upstream-key')
			// A music task that names no model version gets new-api's default.
			expect(sent.body).toEqual({ prompt: '[Verse]\nLanterns on the water', tags: 'folk, acoustic', title: 'Harbour Lights', mv: 'chirp-v3-0' })
			const upstreamId = tasks.suno.taskIds.at(-1)!
			expect(await tasks.account(tasks.alice)).toEqual({ ...before, quota: before.quota - PRICE.suno_music, remain: before.remain - PRICE.suno_music })
			expect(await rowOf(taskId)).toMatchObject({ platform: 'suno', action: 'MUSIC', status: 'SUBMITTED', quota: PRICE.suno_music, channelId: tasks.sunoChannelId })

			tasks.suno.report(upstreamId, 'task-in-progress.json')
			expect(await tasks.poll()).toMatchObject({ updated: 1 })
			expect((await tasks.call('GET', `/suno/fetch/${taskId}`, { key: tasks.alice.key })).body.data).toMatchObject({ task_id: taskId, status: 'IN_PROGRESS', progress: '40%' })

			tasks.suno.report(upstreamId, 'task-success.json')
			expect(await tasks.poll()).toMatchObject({ succeeded: 1 })
			expect(await tasks.poll()).toMatchObject({ succeeded: 0 })
			const success = sunoFixture('task-success.json')
			const fetched = await tasks.call('GET', `/suno/fetch/${taskId}`, { key: tasks.alice.key })
			expect(fetched.body).toEqual({
				code: 'success', message: '',
				data: { task_id: taskId, action: 'MUSIC', status: 'SUCCESS', fail_reason: '', submit_time: expect.any(Number), start_time: success.start_time, finish_time: success.finish_time, progress: '100%', data: success.data },
			})
			const listed = await tasks.call('POST', '/suno/fetch', { key: tasks.alice.key, body: { ids: [taskId] } })
			expect(listed.body).toEqual({ code: 'success', message: '', data: [fetched.body.data] })
			const row = await rowOf(taskId)
			expect(await tasks.account(tasks.alice)).toEqual({ quota: before.quota - PRICE.suno_music, used: before.used + PRICE.suno_music, remain: before.remain - PRICE.suno_music, tokenUsed: before.tokenUsed + PRICE.suno_music })
			expect((await tasks.logs(tasks.alice)).filter((log) => log.requestId === row.requestId)).toEqual([
				{ type: LOG_TYPE.consume, quota: PRICE.suno_music, modelName: 'suno_music', content: '', requestId: row.requestId },
			])
		})

		test('lyrics are priced as suno_lyrics, and a failed task is refunded in full with a log line', async () => {
			const before = await tasks.account(tasks.alice)
			const taskId = (await submit('LYRICS', { prompt: 'a song about ferries' })).body.data
			expect(tasks.suno.requests.at(-1)!.path).toBe('/suno/submit/lyrics')
			expect((await tasks.account(tasks.alice)).quota).toBe(before.quota - PRICE.suno_lyrics)
			tasks.suno.report(tasks.suno.taskIds.at(-1)!, 'task-failure.json')
			expect(await tasks.poll()).toMatchObject({ failed: 1 })
			expect(await tasks.account(tasks.alice)).toEqual(before)
			const row = await rowOf(taskId)
			expect(row).toMatchObject({ status: 'FAILURE', failReason: 'Song generation failed: the prompt was rejected', quota: 0 })
			expect((await tasks.logs(tasks.alice)).filter((log) => log.requestId === row.requestId)).toEqual([{
				type: LOG_TYPE.system, quota: 0, modelName: '', requestId: row.requestId,
				content: `the task ${taskId} failed (Song generation failed: the prompt was rejected); its hold of ${PRICE.suno_lyrics} quota was returned`,
			}])
		})

		test('an upstream refusal returns the hold at once and answers in the Suno shape', async () => {
			const before = await tasks.account(tasks.alice)
			tasks.suno.answerNextSubmit('submit-refused.json', 500)
			const refused = await submit('music', { prompt: 'anything' })
			expect(refused).toMatchObject({ status: 500, body: { code: 'fail', message: 'Insufficient credits in the Suno account', data: null } })
			expect(await tasks.account(tasks.alice)).toEqual(before)
			expect((await tasks.logs(tasks.alice)).at(-1)).toMatchObject({ type: LOG_TYPE.system, quota: 0, content: `the upstream refused the suno_music task (Insufficient credits in the Suno account); its hold of ${PRICE.suno_music} quota was returned` })
		})

		test('a channel\'s status_code_mapping rewrites a refused submit\'s status: a 429 under {"429": "503"} answers 503 in the Suno shape, and its hold is returned', async () => {
			const setMapping = (mapping: string) => tasks.harness.ferry.call('PUT', '/api/channel/', { as: tasks.harness.root, body: { id: tasks.sunoChannelId, status_code_mapping: mapping } })
			expect((await setMapping('{"429": "503"}')).body.success).toBe(true)
			try {
				const before = await tasks.account(tasks.alice)
				tasks.suno.answerNextSubmit('submit-refused.json', 429)
				const refused = await submit('music', { prompt: 'too many at once' })
				expect(refused).toMatchObject({ status: 503, body: { code: 'fail', message: 'Insufficient credits in the Suno account', data: null } })
				expect(await tasks.account(tasks.alice)).toEqual(before)
				const { quotaHolds } = tasks.harness.ferry.store.tables
				const [hold] = await tasks.harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.userId, tasks.alice.userId)).orderBy(desc(quotaHolds.id)).limit(1)
				expect(hold).toMatchObject({ state: 'voided', reason: 'upstream_refused', amount: PRICE.suno_music, charged: 0 })
			} finally {
				await setMapping('')
			}
		})

		test('fetches are the caller\'s own, and bad requests get a 4xx in the Suno shape', async () => {
			const taskId = (await submit('music', { prompt: 'only mine' })).body.data
			expect(await tasks.call('GET', `/suno/fetch/${taskId}`, { key: tasks.bob.key })).toMatchObject({ status: 404, body: { code: 'task_not_found', data: null } })
			expect((await tasks.call('POST', '/suno/fetch', { key: tasks.bob.key, body: { ids: [taskId] } })).body).toEqual({ code: 'success', message: '', data: [] })
			const before = await tasks.account(tasks.alice)
			expect(await submit('video', { prompt: 'x' })).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'the action must be music or lyrics' } })
			expect(await submit('lyrics', {})).toMatchObject({ status: 400, body: { message: 'prompt is required' } })
			expect(await tasks.call('POST', '/suno/fetch', { key: tasks.alice.key, body: { ids: 3 } })).toMatchObject({ status: 400 })
			expect(await tasks.call('GET', '/suno/feed', { key: tasks.alice.key })).toMatchObject({ status: 404, body: { code: 'not_found', data: null } })
			expect(await tasks.call('POST', '/suno/submit/music', { body: { prompt: 'x' } })).toMatchObject({ status: 401, body: { code: 'missing_api_key' } })
			expect(await tasks.account(tasks.alice)).toEqual(before)
		})

		test('continuing a clip acts on the caller\'s own task, on its channel, under the upstream\'s id', async () => {
			const taskId = (await submit('music', { prompt: 'first part' })).body.data
			const upstreamId = tasks.suno.taskIds.at(-1)!
			expect(await submit('music', { prompt: 'more', continue_clip_id: 'c2cb2b55', task_id: taskId, continue_at: 60 }, tasks.bob.key)).toMatchObject({ status: 404 })
			const continued = await submit('music', { prompt: 'more', continue_clip_id: 'c2cb2b55', task_id: taskId, continue_at: 60 })
			expect(continued.body.code).toBe('success')
			expect(tasks.suno.requests.at(-1)!.body).toMatchObject({ continue_clip_id: 'c2cb2b55', task_id: upstreamId, continue_at: 60 })
		})
	})
}
