/**
 * Each drawing setting of the operation page acts (docs/specification/tasks.md#the-drawing-options, Drawing): what reaches the
 * upstream, what the client and the drawing log are answered, and whether the relays answer at all.
 * (MjActionCheckSuccessEnabled is shown in midjourney.test.ts.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { databaseTargets } from '../../helpers/database'
import { startTaskHarness, type TaskHarness } from '../../helpers/task-relay'

/** A public address written as an IP literal: checked without any name lookup. */
const PUBLIC_HOOK = 'https://93.184.216.34/hooks/drawing'

describe('the drawing settings', () => {
	let tasks: TaskHarness
	beforeAll(async () => {
		tasks = await startTaskHarness(databaseTargets()[0]!)
	})
	afterAll(() => tasks?.close())
	const options = () => tasks.harness.ferry.dependencies.options
	const setOption = (key: string, value: string) => tasks.harness.ferry.call('PUT', '/api/option/', { as: tasks.harness.root, body: { key, value } })
	afterEach(async () => {
		for (const [key, value] of [['DrawingEnabled', 'true'], ['TaskEnabled', 'true'], ['MjNotifyEnabled', 'false'], ['MjAccountFilterEnabled', 'false'], ['MjForwardUrlEnabled', 'true'], ['MjModeClearEnabled', 'false']]) {
			await options().set(key!, value!)
		}
	})
	const imagine = (body: Record<string, unknown>) => tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body })
	const sentBody = () => tasks.midjourney.requests.filter((request) => request.path.endsWith('/submit/imagine')).at(-1)!.body

	test('MjModeClearEnabled takes --fast, --relax and --turbo out of the prompt the upstream gets', async () => {
		await imagine({ prompt: 'a harbour --fast at night --relax --turbo --v 6' })
		expect(sentBody().prompt).toBe('a harbour --fast at night --relax --turbo --v 6')
		expect((await setOption('MjModeClearEnabled', 'true')).body.success).toBe(true)
		await imagine({ prompt: 'a harbour --fast at night --relax --turbo --v 6' })
		expect(sentBody().prompt).toBe('a harbour at night --v 6')
	})

	test('MjAccountFilterEnabled decides whether the client\'s accountFilter reaches the upstream', async () => {
		const accountFilter = { modes: ['RELAX'], channelId: '1180916548963434506' }
		await imagine({ prompt: 'a quay', accountFilter })
		expect(sentBody()).toEqual({ prompt: 'a quay' })
		await setOption('MjAccountFilterEnabled', 'true')
		await imagine({ prompt: 'a quay', accountFilter })
		expect(sentBody()).toEqual({ prompt: 'a quay', accountFilter })
	})

	test('MjNotifyEnabled keeps a notifyHook to a public address, and a hook to a private one is refused', async () => {
		await imagine({ prompt: 'a pier', notifyHook: PUBLIC_HOOK })
		expect(sentBody()).toEqual({ prompt: 'a pier' })
		await setOption('MjNotifyEnabled', 'true')
		expect((await tasks.harness.ferry.call('GET', '/api/status')).body.data.mj_notify_enabled).toBe(true)
		await imagine({ prompt: 'a pier', notifyHook: PUBLIC_HOOK })
		expect(sentBody()).toEqual({ prompt: 'a pier', notifyHook: PUBLIC_HOOK })
		const sent = tasks.midjourney.requests.length
		const before = await tasks.account(tasks.alice)
		for (const hook of ['http://127.0.0.1:9/hook', 'http://169.254.169.254/latest', 'file:///etc/passwd', 'http://user:secret@93.184.216.34/']) {
			const refused = await imagine({ prompt: 'a pier', notifyHook: hook })
			expect(refused.status).toBe(400)
			expect(refused.body.description).toStartWith('notifyHook cannot be used')
		}
		expect(tasks.midjourney.requests.length).toBe(sent)
		expect(await tasks.account(tasks.alice)).toEqual(before)
	})

	test('MjForwardUrlEnabled decides whether clients and the drawing log get Ferry\'s image link or the upstream\'s', async () => {
		const id = (await imagine({ prompt: 'a lighthouse' })).body.result
		tasks.midjourney.report(id, 'task-success.json')
		await tasks.poll()
		const upstreamUrl = `${tasks.midjourney.url}/attachments/${id}.png`
		const forwarded = (await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.alice.key })).body.imageUrl
		expect(forwarded).toStartWith(`${tasks.harness.baseUrl}/mj/image/${id}?signature=`)
		const logEntry = async () => (await tasks.harness.ferry.call('GET', `/api/mj/self/?mj_id=${id}`, { as: tasks.alice })).body.data.items[0]
		expect((await logEntry()).image_url).toStartWith(`/mj/image/${id}?signature=`)
		// A link is good only with its signature.
		expect((await fetch(forwarded.replace(/signature=.*/, 'signature=forged'))).status).toBe(403)
		expect((await fetch(`${tasks.harness.baseUrl}/mj/image/${id}`)).status).toBe(403)

		await setOption('MjForwardUrlEnabled', 'false')
		expect((await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.alice.key })).body.imageUrl).toBe(upstreamUrl)
		expect((await logEntry()).image_url).toBe(upstreamUrl)
	})

	/** Points a drawing's image elsewhere: the image is a field of the drawing's payload in `tasks`. */
	const setImageUrl = async (id: string, imageUrl: string) => {
		const { tasks: taskRows } = tasks.harness.ferry.store.tables
		const { eq } = await import('drizzle-orm')
		const [row] = await tasks.harness.ferry.store.db.select({ data: taskRows.data }).from(taskRows).where(eq(taskRows.taskId, id))
		await tasks.harness.ferry.store.db.update(taskRows).set({ data: JSON.stringify({ ...JSON.parse(row!.data), imageUrl }) }).where(eq(taskRows.taskId, id))
	}

	test('the image proxy passes images only: an upstream page is never served from Ferry\'s origin', async () => {
		const id = (await imagine({ prompt: 'a lighthouse' })).body.result
		tasks.midjourney.report(id, 'task-success.json')
		await tasks.poll()
		await setImageUrl(id, `${tasks.midjourney.url}/attachments/page.html`)
		const link = (await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.alice.key })).body.imageUrl
		const answer = await fetch(link)
		expect(answer.status).toBe(502)
		expect(answer.headers.get('content-type')).toContain('application/json')
	})

	test('the image proxy trusts the channel\'s own host only: an image the upstream puts on another private address is refused', async () => {
		const id = (await imagine({ prompt: 'a lighthouse' })).body.result
		tasks.midjourney.report(id, 'task-success.json')
		await tasks.poll()
		const link = (await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.alice.key })).body.imageUrl
		expect((await fetch(link)).status).toBe(200)
		const elsewhere = `http://localhost:${new URL(tasks.midjourney.url).port}/attachments/${id}.png`
		await setImageUrl(id, elsewhere)
		expect((await fetch(link)).status).toBe(502)
	})

	test('DrawingEnabled off refuses drawing submits and says so in /api/status; the caller\'s tasks stay readable', async () => {
		const id = (await imagine({ prompt: 'a lighthouse' })).body.result
		await setOption('DrawingEnabled', 'false')
		expect((await tasks.harness.ferry.call('GET', '/api/status')).body.data.enable_drawing).toBe(false)
		const before = await tasks.account(tasks.alice)
		const refused = await imagine({ prompt: 'a lighthouse' })
		expect(refused).toMatchObject({ status: 403, body: { code: 4, description: 'drawing is turned off on this gateway' } })
		expect(await tasks.account(tasks.alice)).toEqual(before)
		expect((await tasks.call('GET', `/mj/task/${id}/fetch`, { key: tasks.alice.key })).status).toBe(200)
		await setOption('DrawingEnabled', 'true')
		expect((await imagine({ prompt: 'a lighthouse' })).body.code).toBe(1)
	})

	test('TaskEnabled off refuses music submits and says so in /api/status', async () => {
		await setOption('TaskEnabled', 'false')
		expect((await tasks.harness.ferry.call('GET', '/api/status')).body.data.enable_task).toBe(false)
		const refused = await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'harbour lights' } })
		expect(refused).toMatchObject({ status: 403, body: { code: 'task_disabled', message: 'async tasks are turned off on this gateway', data: null } })
		await setOption('TaskEnabled', 'true')
		expect((await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'harbour lights' } })).body.code).toBe('success')
	})
})
