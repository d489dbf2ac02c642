/**
 * The Midjourney task relay end to end, on every database: a client with an API token submits
 * through Ferry's HTTP endpoint to a fake midjourney-proxy on loopback, the poller brings the task
 * to its end, and the ledger is checked to the unit: held at submit, charged once on SUCCESS,
 * returned in full on failure or refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { LOG_TYPE } from '@shared/log'
import { readFetch, readSubmit } from '@/relay/providers/midjourney/wire'
import { databaseTargets } from '../../helpers/database'
import { MJ_KEY, MJ_MODELS, PRICE, startTaskHarness, type TaskHarness } from '../../helpers/task-relay'
import { midjourneyFixture, startFakeMidjourney } from '../../fixtures/providers/midjourney/fake-midjourney'

describe('midjourney-proxy\'s wire format', () => {
	const text = (value: unknown) => JSON.stringify(value)

	test('a submit is taken under codes 1, 21 and 22 with a task id, numeric ids included; anything else is a refusal', () => {
		expect(readSubmit(200, text(midjourneyFixture('submit-success.json')))).toMatchObject({ accepted: true, upstreamId: '1712205491372143', code: 1 })
		expect(readSubmit(200, text(midjourneyFixture('submit-queued.json')))).toMatchObject({ accepted: true, upstreamId: '1712205491372144', code: 22 })
		expect(readSubmit(200, text(midjourneyFixture('submit-queue-full.json')))).toEqual({ accepted: false, status: 400, code: 23, description: 'Queue is full, please try again later', properties: { discordInstanceId: '1180916548963434506' } })
		expect(readSubmit(200, text({ code: 1, description: 'ok', result: null }))).toMatchObject({ accepted: false, status: 400 })
		expect(readSubmit(502, '<html>bad gateway</html>')).toMatchObject({ accepted: false, status: 502 })
		expect(readSubmit(200, 'null')).toMatchObject({ accepted: false, status: 502 })
		expect(readSubmit(200, text({ code: 1, description: 'ok', result: '17122054\u000091372143' }))).toMatchObject({ accepted: false, status: 502, code: 4 })
	})

	test('task lists are read with times in seconds, and Plus\'s CANCEL is a failure', () => {
		const [success, cancelled] = readFetch(text([midjourneyFixture('task-success.json'), { ...midjourneyFixture('task-in-progress.json'), id: '7', status: 'CANCEL', failReason: null }]))
		expect(success).toMatchObject({ id: '1712205491372143', status: 'SUCCESS', progress: '100%', submitTime: 1712205491, finishTime: 1712205551 })
		expect(JSON.parse(success!.drawing!.buttons)).toHaveLength(3)
		expect(cancelled).toMatchObject({ id: '7', status: 'FAILURE', failReason: 'the upstream cancelled the task' })
		expect(() => readFetch('{"code":1}')).toThrow(SyntaxError)
		expect(() => readFetch('not json')).toThrow(SyntaxError)
	})
})

const PROMPT = 'a lighthouse at dusk --v 6'

for (const target of databaseTargets()) {
	describe(`the Midjourney relay on ${target.dialect}`, () => {
		let tasks: TaskHarness
		beforeAll(async () => {
			tasks = await startTaskHarness(target)
		})
		afterAll(() => tasks?.close())
		beforeEach(() => {
			tasks.midjourney.requests.length = 0
		})

		const imagine = (key = tasks.alice.key, body: Record<string, unknown> = { prompt: PROMPT }) => tasks.call('POST', '/mj/submit/imagine', { key, body })
		const fetchTask = (id: string, key = tasks.alice.key) => tasks.call('GET', `/mj/task/${id}/fetch`, { key })
		const holdOf = async (requestId: string) => {
			const { quotaHolds } = tasks.harness.ferry.store.tables
			const [hold] = await tasks.harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.requestId, requestId))
			return hold
		}
		const rowOf = async (mjId: string) => {
			const { midjourneys } = tasks.harness.ferry.store.tables
			const [row] = await tasks.harness.ferry.store.db.select().from(midjourneys).where(eq(midjourneys.mjId, mjId))
			return row!
		}

		test('an imagine is held at submit, polled to SUCCESS, its image fetched through Ferry, and charged its per-call price exactly once', async () => {
			const before = await tasks.account(tasks.alice)
			// Midjourney clients send the token as mj-api-secret.
			const submitted = await tasks.call('POST', '/mj/submit/imagine', { headers: { 'mj-api-secret': tasks.alice.key }, body: { prompt: PROMPT, state: 'mine' } })
			expect(submitted.status).toBe(200)
			const id = submitted.body.result
			expect(submitted.body).toMatchObject({ code: 1, description: 'Submit success', result: tasks.midjourney.taskIds.at(-1) })
			const sent = tasks.midjourney.requests.at(-1)!
			expect(sent.path).toBe('/mj/submit/imagine')
			expect(sent.headers['mj-api-secret']).toBe('mj-upstream-secret')
			expect(sent.body).toEqual({ prompt: PROMPT, state: 'mine' })

			// Held, not yet charged: the balance is down by the price, nothing is used or logged.
			const row = await rowOf(id)
			expect(row).toMatchObject({ status: 'SUBMITTED', code: 1, action: 'IMAGINE', prompt: PROMPT, quota: PRICE.mj_imagine, channelId: tasks.mjChannelId })
			expect(await holdOf(row.requestId)).toMatchObject({ state: 'pending', amount: PRICE.mj_imagine, node: 'task' })
			expect(await tasks.account(tasks.alice)).toEqual({ ...before, quota: before.quota - PRICE.mj_imagine, remain: before.remain - PRICE.mj_imagine })

			tasks.midjourney.report(id, 'task-in-progress.json')
			expect(await tasks.poll()).toMatchObject({ updated: 1, succeeded: 0 })
			expect((await fetchTask(id)).body).toMatchObject({ id, status: 'IN_PROGRESS', progress: '46%' })

			tasks.midjourney.report(id, 'task-success.json')
			expect(await tasks.poll()).toMatchObject({ succeeded: 1 })
			const fetched = await fetchTask(id)
			const success = midjourneyFixture('task-success.json')
			expect(fetched.body).toMatchObject({ id, action: 'IMAGINE', status: 'SUCCESS', progress: '100%', prompt: PROMPT, buttons: success.buttons, properties: success.properties, finishTime: success.finishTime - (success.finishTime % 1000) })
			// MjForwardUrlEnabled (on by default): the image comes through Ferry, never from the upstream's address.
			expect(fetched.body.imageUrl.startsWith(`${tasks.harness.baseUrl}/mj/image/${id}?signature=`)).toBe(true)
			const image = await fetch(fetched.body.imageUrl)
			expect(image.status).toBe(200)
			expect(image.headers.get('content-type')).toBe('image/png')
			expect(new Uint8Array(await image.arrayBuffer())).toEqual(tasks.midjourney.image)

			// Charged once, however often the poller looks again.
			expect(await tasks.poll()).toMatchObject({ succeeded: 0, failed: 0 })
			const after = await tasks.account(tasks.alice)
			expect(after).toEqual({ quota: before.quota - PRICE.mj_imagine, used: before.used + PRICE.mj_imagine, remain: before.remain - PRICE.mj_imagine, tokenUsed: before.tokenUsed + PRICE.mj_imagine })
			const charges = (await tasks.logs(tasks.alice)).filter((log) => log.requestId === row.requestId)
			expect(charges).toEqual([{ type: LOG_TYPE.consume, quota: PRICE.mj_imagine, modelName: 'mj_imagine', content: '', requestId: row.requestId }])
			expect(await holdOf(row.requestId)).toMatchObject({ state: 'settled', charged: PRICE.mj_imagine })
		})

		test('a task the upstream fails is refunded in full, with a log line the user sees', async () => {
			const before = await tasks.account(tasks.alice)
			const id = (await imagine()).body.result
			tasks.midjourney.report(id, 'task-failure.json')
			expect(await tasks.poll()).toMatchObject({ failed: 1 })
			expect((await fetchTask(id)).body).toMatchObject({ status: 'FAILURE', failReason: 'Action needed to continue' })
			expect(await tasks.account(tasks.alice)).toEqual(before)
			const row = await rowOf(id)
			expect(row.quota).toBe(0)
			const lines = (await tasks.logs(tasks.alice)).filter((log) => log.requestId === row.requestId)
			expect(lines).toEqual([{ type: LOG_TYPE.system, quota: 0, modelName: '', requestId: row.requestId, content: `the drawing task ${id} failed (Action needed to continue); its hold of ${PRICE.mj_imagine} quota was returned` }])
			expect(await holdOf(row.requestId)).toMatchObject({ state: 'voided', reason: 'task_failed' })
		})

		test('an upstream refusal returns the hold at once, answers the upstream\'s code and records the failed submit', async () => {
			const before = await tasks.account(tasks.alice)
			tasks.midjourney.answerNextSubmit('submit-banned-prompt.json')
			const refused = await imagine(tasks.alice.key, { prompt: 'a forbidden thing' })
			expect(refused.status).toBe(400)
			expect(refused.body).toEqual({ code: 24, description: 'May contains sensitive words', result: null, properties: { promptEn: 'a forbidden thing', bannedWord: 'forbidden' } })
			expect(await tasks.account(tasks.alice)).toEqual(before)
			const lines = await tasks.logs(tasks.alice)
			expect(lines.at(-1)).toMatchObject({ type: LOG_TYPE.system, quota: 0, content: `the upstream refused the mj_imagine task (May contains sensitive words); its hold of ${PRICE.mj_imagine} quota was returned` })
			const listed = await tasks.harness.ferry.call('GET', '/api/mj/self/', { as: tasks.alice })
			expect(listed.body.data.items[0]).toMatchObject({ code: 24, status: 'FAILURE', fail_reason: 'May contains sensitive words', prompt: 'a forbidden thing', mj_id: '' })
			// The console words the line in its reader's language; the upstream's own words stay as sent.
			const inChinese = await tasks.harness.ferry.call('GET', '/api/log/self?p=1&page_size=1', { as: tasks.alice, headers: { 'accept-language': 'zh-CN' } })
			expect(inChinese.body.data.items[0].content).toBe(`上游拒绝了 mj_imagine 任务（May contains sensitive words），预扣的 ${PRICE.mj_imagine} 额度已退回`)
		})

		test('a submit the upstream takes under a task id with a NUL or control characters is answered 502 in midjourney-proxy\'s shape, its hold returned, and no task kept under that id', async () => {
			for (const brokenId of ['1712205491372143\u0000abc', '17122054\u001b[31m91372143']) {
				const before = await tasks.account(tasks.alice)
				tasks.midjourney.answerNextSubmit('submit-success.json', 200, { result: brokenId })
				const refused = await imagine(tasks.alice.key, { prompt: 'a broken id' })
				expect(refused.status).toBe(502)
				expect(refused.body).toEqual({ code: 4, description: 'the upstream answered a task id that is not usable (empty, too long, or with control characters)', result: null, properties: {} })
				expect(await tasks.account(tasks.alice)).toEqual(before)
				const { quotaHolds } = tasks.harness.ferry.store.tables
				const [hold] = await tasks.harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.userId, tasks.alice.userId)).orderBy(desc(quotaHolds.id)).limit(1)
				expect(hold).toMatchObject({ state: 'voided', reason: 'upstream_refused', amount: PRICE.mj_imagine, charged: 0 })
				const listed = await tasks.harness.ferry.call('GET', '/api/mj/self/', { as: tasks.alice })
				expect(listed.body.data.items[0]).toMatchObject({ status: 'FAILURE', prompt: 'a broken id', mj_id: '' })
				expect(JSON.stringify(listed.body)).not.toContain('91372143\\u')
			}
		})

		test('a channel\'s status_code_mapping rewrites a refused submit\'s status: a 429 under {"429": "503"} answers 503, and its hold is returned', async () => {
			const setMapping = (mapping: string) => tasks.harness.ferry.call('PUT', '/api/channel/', { as: tasks.harness.root, body: { id: tasks.mjChannelId, status_code_mapping: mapping } })
			expect((await setMapping('{"429": "503"}')).body.success).toBe(true)
			try {
				const before = await tasks.account(tasks.alice)
				tasks.midjourney.answerNextSubmit('submit-queue-full.json', 429)
				const refused = await imagine(tasks.alice.key, { prompt: 'a crowded queue' })
				expect(refused.status).toBe(503)
				expect(refused.body).toEqual({ code: 23, description: 'Queue is full, please try again later', result: null, properties: { discordInstanceId: '1180916548963434506' } })
				expect(await tasks.account(tasks.alice)).toEqual(before)
				const { quotaHolds } = tasks.harness.ferry.store.tables
				const [hold] = await tasks.harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.userId, tasks.alice.userId)).orderBy(desc(quotaHolds.id)).limit(1)
				expect(hold).toMatchObject({ state: 'voided', reason: 'upstream_refused', amount: PRICE.mj_imagine, charged: 0 })
			} finally {
				await setMapping('')
			}
		})

		test('queued and existing-task answers read as submitted to the client, and a finished duplicate is charged at once', async () => {
			tasks.midjourney.answerNextSubmit('submit-queued.json')
			const queued = await imagine()
			expect(queued.body).toMatchObject({ code: 1, result: tasks.midjourney.taskIds.at(-1), properties: { numberOfQueues: 1 } })
			expect(await rowOf(queued.body.result)).toMatchObject({ code: 22, status: 'SUBMITTED' })

			const before = await tasks.account(tasks.alice)
			tasks.midjourney.answerNextSubmit('submit-exists.json')
			const existing = await imagine()
			expect(existing.body.code).toBe(1)
			const row = await rowOf(existing.body.result)
			expect(row).toMatchObject({ code: 21, status: 'SUCCESS', progress: '100%' })
			expect(await holdOf(row.requestId)).toMatchObject({ state: 'settled', charged: PRICE.mj_imagine })
			expect((await tasks.account(tasks.alice)).used).toBe(before.used + PRICE.mj_imagine)
		})

		test('an upload answers the uploaded addresses and is charged at once as mj_upload', async () => {
			const before = await tasks.account(tasks.alice)
			tasks.midjourney.answerNextSubmit('submit-upload.json')
			const uploaded = await tasks.call('POST', '/mj/submit/upload-discord-images', { key: tasks.alice.key, body: { base64Array: ['data:image/png;base64,iVBORw0KGgo='] } })
			expect(uploaded.body).toEqual({ code: 1, description: 'success', result: midjourneyFixture('submit-upload.json').result, properties: {} })
			const listed = await tasks.harness.ferry.call('GET', '/api/mj/self/', { as: tasks.alice })
			expect(listed.body.data.items[0]).toMatchObject({ action: 'UPLOAD', status: 'SUCCESS', progress: '100%', quota: PRICE.mj_upload })
			expect(await tasks.account(tasks.alice)).toMatchObject({ quota: before.quota - PRICE.mj_upload, used: before.used + PRICE.mj_upload })
		})

		test('a follow-up action on another user\'s task is refused before anything is held or sent', async () => {
			const id = (await imagine()).body.result
			tasks.midjourney.report(id, 'task-success.json')
			await tasks.poll()
			const bobBefore = await tasks.account(tasks.bob)
			const sentBefore = tasks.midjourney.requests.length
			for (const [path, body] of [
				['/mj/submit/change', { taskId: id, action: 'UPSCALE', index: 1 }],
				['/mj/submit/simple-change', { content: `${id} U1` }],
				['/mj/submit/action', { taskId: id, customId: 'MJ::JOB::upsample::1::2f4c5d3e-7d2a-4b9c-9e1f-3a6b8c0d1e2f' }],
				['/mj/submit/modal', { taskId: id, prompt: 'more' }],
			] as const) {
				const refused = await tasks.call('POST', path, { key: tasks.bob.key, body })
				expect(refused.status).toBe(404)
				expect(refused.body).toEqual({ code: 4, description: 'task not found', result: null, properties: {} })
			}
			expect(await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.bob.key })).toMatchObject({ status: 404 })
			expect((await tasks.call('POST', '/mj/task/list-by-condition', { key: tasks.bob.key, body: { ids: [id] } })).body).toEqual([])
			expect(tasks.midjourney.requests.length).toBe(sentBefore)
			expect(await tasks.account(tasks.bob)).toEqual(bobBefore)

			// The owner's upscale goes through, priced as mj_upscale, with the original prompt recorded.
			const upscale = await tasks.call('POST', '/mj/submit/action', { key: tasks.alice.key, body: { taskId: id, customId: 'MJ::JOB::upsample::1::2f4c5d3e-7d2a-4b9c-9e1f-3a6b8c0d1e2f' } })
			expect(upscale.body.code).toBe(1)
			expect(await rowOf(upscale.body.result)).toMatchObject({ action: 'UPSCALE', prompt: PROMPT, quota: PRICE.mj_upscale })
		})

		test('with MjActionCheckSuccessEnabled a follow-up waits for its task to succeed; without it, it need not', async () => {
			const id = (await imagine()).body.result
			const early = await tasks.call('POST', '/mj/submit/change', { key: tasks.alice.key, body: { taskId: id, action: 'UPSCALE', index: 2 } })
			expect(early.status).toBe(400)
			expect(early.body.description).toContain('once its status is SUCCESS')
			await tasks.harness.ferry.dependencies.options.set('MjActionCheckSuccessEnabled', 'false')
			try {
				const allowed = await tasks.call('POST', '/mj/submit/change', { key: tasks.alice.key, body: { taskId: id, action: 'UPSCALE', index: 2 } })
				expect(allowed.body.code).toBe(1)
				expect(tasks.midjourney.requests.at(-1)!.path).toBe('/mj/submit/change')
			} finally {
				await tasks.harness.ferry.dependencies.options.set('MjActionCheckSuccessEnabled', 'true')
			}
		})

		test('reads are the caller\'s own: list-by-condition answers only their tasks, in the order asked', async () => {
			const first = (await imagine()).body.result
			const second = (await imagine()).body.result
			const bobs = (await imagine(tasks.bob.key)).body.result
			const listed = await tasks.call('POST', '/mj/task/list-by-condition', { key: tasks.alice.key, body: { ids: [second, bobs, first, 'unknown'] } })
			expect(listed.status).toBe(200)
			expect(listed.body.map((task: { id: string }) => task.id)).toEqual([second, first])
			expect(listed.body[0]).toMatchObject({ status: 'SUBMITTED', progress: '0%', prompt: PROMPT, imageUrl: '' })
			const bad = await tasks.call('POST', '/mj/task/list-by-condition', { key: tasks.alice.key, body: { ids: 'everything' } })
			expect(bad).toMatchObject({ status: 400, body: { code: 4 } })
		})

		test('the image seed is asked of the task\'s own channel, for its owner only', async () => {
			const id = (await imagine()).body.result
			const seed = await tasks.call('GET', `/mj/task/${id}/image-seed`, { key: tasks.alice.key })
			expect(seed).toMatchObject({ status: 200, body: { code: 1, description: 'success', result: '2914553216' } })
			expect(tasks.midjourney.requests.at(-1)).toMatchObject({ method: 'GET', path: `/mj/task/${id}/image-seed` })
			expect((await tasks.call('GET', `/mj/task/${id}/image-seed`, { key: tasks.bob.key })).status).toBe(404)
		})

		test('a speed mode path goes upstream as the client sent it', async () => {
			const submitted = await tasks.call('POST', '/relax/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: PROMPT } })
			expect(submitted.body.code).toBe(1)
			expect(tasks.midjourney.requests.at(-1)!.path).toBe('/relax/mj/submit/imagine')
			expect((await tasks.call('GET', `/turbo/mj/task/${submitted.body.result}/fetch`, { key: tasks.alice.key })).body.id).toBe(submitted.body.result)
		})

		test('bad requests get a 4xx in midjourney-proxy\'s shape and hold nothing', async () => {
			const before = await tasks.account(tasks.alice)
			expect(await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: {} })).toMatchObject({ status: 400, body: { code: 4, description: 'prompt is required' } })
			expect(await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: '{"prompt":' })).toMatchObject({ status: 400, body: { code: 4 } })
			expect(await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: [1, 2] })).toMatchObject({ status: 400, body: { code: 4 } })
			expect(await tasks.call('POST', '/mj/submit/change', { key: tasks.alice.key, body: { taskId: '1', action: 'EXPLODE', index: 1 } })).toMatchObject({ status: 400 })
			expect(await tasks.call('POST', '/mj/submit/simple-change', { key: tasks.alice.key, body: { content: '1 U9' } })).toMatchObject({ status: 400 })
			expect(await tasks.call('POST', '/mj/submit/action', { key: tasks.alice.key, body: { taskId: '1', customId: 'MJ::JOB::dance::1' } })).toMatchObject({ status: 400 })
			expect(await tasks.call('POST', '/mj/submit/video', { key: tasks.alice.key, body: { prompt: PROMPT } })).toMatchObject({ status: 404, body: { code: 4, description: '/mj/submit/video is not supported by this gateway' } })
			expect(await tasks.call('GET', '/fast/mj/task/1/unknown', { key: tasks.alice.key })).toMatchObject({ status: 404, body: { code: 4 } })
			expect(await tasks.call('POST', '/mj/submit/imagine', { body: { prompt: PROMPT } })).toMatchObject({ status: 401, body: { code: 4 } })
			expect(await tasks.call('POST', '/mj/submit/imagine', { key: 'sk-not-a-token', body: { prompt: PROMPT } })).toMatchObject({ status: 401, body: { description: 'invalid API key' } })
			expect(await tasks.account(tasks.alice)).toEqual(before)
		})

		test('a user who cannot cover the price is refused before anything is sent', async () => {
			const poor = await tasks.harness.ferry.createUser(`poor_${target.dialect}`)
			const token = await tasks.harness.createToken({ name: 'poor' }, poor)
			const sentBefore = tasks.midjourney.requests.length
			const refused = await imagine(token.key)
			expect(refused).toMatchObject({ status: 403, body: { code: 4, description: 'insufficient user quota' } })
			expect(tasks.midjourney.requests.length).toBe(sentBefore)
		})

		test('a follow-up goes to its task\'s own channel even when another channel now ranks first', async () => {
			const id = (await imagine()).body.result
			tasks.midjourney.report(id, 'task-success.json')
			await tasks.poll()
			const other = startFakeMidjourney({ key: MJ_KEY })
			const otherChannel = await tasks.harness.createChannel({ type: CHANNEL_TYPE.midjourneyPlus, name: 'drawing-preferred', key: MJ_KEY, base_url: other.url, models: MJ_MODELS, priority: 10 })
			try {
				expect((await imagine()).body.code).toBe(1)
				expect(other.requests.map((request) => request.path)).toEqual(['/mj/submit/imagine'])
				const before = tasks.midjourney.requests.length
				const upscale = await tasks.call('POST', '/mj/submit/simple-change', { key: tasks.alice.key, body: { content: `${id} U2` } })
				expect(upscale.body.code).toBe(1)
				expect(tasks.midjourney.requests.slice(before).map((request) => request.path)).toEqual(['/mj/submit/simple-change'])
				expect(other.requests).toHaveLength(1)
				expect(await rowOf(upscale.body.result)).toMatchObject({ channelId: tasks.mjChannelId, action: 'UPSCALE' })
			} finally {
				await tasks.harness.ferry.call('DELETE', `/api/channel/${otherChannel}/`, { as: tasks.harness.root })
				await tasks.poll()
				await other.stop()
			}
		})

		test('a free action (inpaint) holds nothing and is never billed', async () => {
			const id = (await imagine()).body.result
			tasks.midjourney.report(id, 'task-success.json')
			await tasks.poll()
			const before = await tasks.account(tasks.alice)
			const inpaint = await tasks.call('POST', '/mj/submit/action', { key: tasks.alice.key, body: { taskId: id, customId: 'MJ::Inpaint::1::2f4c5d3e-7d2a-4b9c-9e1f-3a6b8c0d1e2f::SOLO' } })
			expect(inpaint.body.code).toBe(1)
			const row = await rowOf(inpaint.body.result)
			expect(row).toMatchObject({ action: 'INPAINT', quota: 0, requestId: '' })
			tasks.midjourney.report(inpaint.body.result, 'task-success.json')
			await tasks.poll()
			expect(await tasks.account(tasks.alice)).toEqual(before)
		})
	})
}
