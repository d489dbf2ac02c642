/**
 * Server rendering of the drawing log `/midjourney` and the async task log `/task`, with tasks made
 * through the real task relays (fake midjourney-proxy and Suno API), requested with a session cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { MJ_DEFAULT_LOOKBACK_SECONDS } from '@shared/task-constants'
import { nowSeconds } from '@/lib/clock'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startTaskHarness, type TaskHarness } from '../helpers/task-relay'
import { hydrationData, markup, renderPage } from './page'

const DAY_SECONDS = 24 * 60 * 60

describe('the task pages rendered on the server', () => {
	let tasks: TaskHarness
	let aliceDrawing: string
	let bobDrawing: string
	let aliceSong: string

	async function page(path: string, as: Caller, cookies: string[] = []) {
		const { status, html } = await renderPage(tasks.harness.ferry, path, [as.cookie, 'tz=UTC', ...cookies])
		const id = path.startsWith('/midjourney') ? 'midjourney' : 'task'
		return { status, html, body: status === 200 ? markup(html) : '', data: status === 200 ? hydrationData(html).loaderData[id] : undefined }
	}

	beforeAll(async () => {
		tasks = await startTaskHarness(databaseTargets()[0]!)
		aliceDrawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'alice draws a lighthouse' } })).body.result
		bobDrawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.bob.key, body: { prompt: 'bob draws a quay' } })).body.result
		tasks.midjourney.answerNextSubmit('submit-banned-prompt.json')
		await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'a forbidden thing' } })
		aliceSong = (await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'harbour lights' } })).body.data
		await tasks.call('POST', '/suno/submit/lyrics', { key: tasks.bob.key, body: { prompt: 'bob writes' } })
		tasks.midjourney.report(aliceDrawing, 'task-success.json')
		tasks.suno.report(tasks.suno.taskIds[0]!, 'task-success.json')
		await tasks.poll()
	}, 30_000)
	afterAll(() => tasks?.close())

	test('a user sees their own drawing tasks with image, action, status, progress and submit code tags, and no channel column or filter', async () => {
		const { status, body, data } = await page('/midjourney', tasks.alice)
		expect(status).toBe(200)
		expect(body).toContain('绘图日志')
		expect(body).toContain('alice draws a lighthouse')
		expect(body).not.toContain('bob draws a quay')
		expect(body).toContain(aliceDrawing)
		expect(body).toContain(`/mj/image/${aliceDrawing}?signature=`)
		for (const label of ['绘图', '成功', '100%', '已提交', '失败', '提交失败', 'May contains sensitive words']) expect(body).toContain(label)
		expect(body).not.toContain('data-column="channel_id"')
		expect(body).not.toContain('渠道 ID')
		expect(data.admin).toBe(false)
		expect(data.entries.items).toHaveLength(2)
	})

	test('an admin sees every drawing task with the channel column and filter, and the URL\'s filters narrow the list', async () => {
		const { body, data } = await page('/midjourney', tasks.harness.root)
		expect(body).toContain('bob draws a quay')
		expect(body).toContain('data-column="channel_id"')
		expect(body).toContain('渠道 ID')
		expect(data.entries.total).toBe(3)
		const one = await page(`/midjourney?mj_id=${bobDrawing}`, tasks.harness.root)
		expect(one.data.entries.items.map((entry: any) => entry.prompt)).toEqual(['bob draws a quay'])
		expect(one.body).toMatch(new RegExp(`id="task-id"[^>]*value="${bobDrawing}"`))
		const elsewhere = await page(`/midjourney?channel_id=${tasks.sunoChannelId}`, tasks.harness.root)
		expect(elsewhere.body).toContain('暂无数据')
	})

	test('the drawing log opens on the last 30 days', async () => {
		const before = nowSeconds()
		const { data, body } = await page('/midjourney', tasks.alice)
		expect(data.filters.start_timestamp).toBeGreaterThanOrEqual(before - MJ_DEFAULT_LOOKBACK_SECONDS)
		expect(data.filters.start_timestamp).toBeLessThanOrEqual(nowSeconds() - MJ_DEFAULT_LOOKBACK_SECONDS)
		expect(body).toMatch(/默认显示最近 (<!-- -->)?30(<!-- -->)? 天的绘图任务/)
		const { midjourneys, tasks: taskRows } = tasks.harness.ferry.store.tables
		const [row] = await tasks.harness.ferry.store.db.select().from(midjourneys).where(eq(midjourneys.mjId, aliceDrawing))
		await tasks.harness.ferry.store.db.update(taskRows).set({ submitTime: row!.submitTime - 31 * DAY_SECONDS }).where(eq(taskRows.id, row!.id))
		try {
			expect((await page('/midjourney', tasks.alice)).data.entries.items).toHaveLength(1)
			expect((await page(`/midjourney?start_timestamp=${row!.submitTime - 32 * DAY_SECONDS}`, tasks.alice)).data.entries.items).toHaveLength(2)
		} finally {
			await tasks.harness.ferry.store.db.update(taskRows).set({ submitTime: row!.submitTime }).where(eq(taskRows.id, row!.id))
		}
	})

	test('the task log shows the caller\'s tasks with platform, action and status labels and a duration tag; admins see the channel', async () => {
		const own = await page('/task', tasks.alice)
		expect(own.status).toBe(200)
		expect(own.body).toContain('任务日志')
		expect(own.body).toContain(aliceSong)
		for (const label of ['Suno', '生成音乐', '成功', '100%']) expect(own.body).toContain(label)
		expect(own.body).not.toContain('生成歌词')
		expect(own.body).toContain('data-testid="task-duration"')
		expect(own.body).not.toContain('data-column="channel_id"')
		const all = await page('/task', tasks.harness.root)
		expect(all.body).toContain('生成歌词')
		expect(all.body).toContain('已提交')
		expect(all.body).toContain('data-column="channel_id"')
		expect(all.data.entries.total).toBe(2)
	})

	test('a duration over 60 seconds is red, and the task log opens at the start of the viewer\'s day', async () => {
		const { tasks: table } = tasks.harness.ferry.store.tables
		const [row] = await tasks.harness.ferry.store.db.select().from(table).where(eq(table.taskId, aliceSong))
		await tasks.harness.ferry.store.db.update(table).set({ finishTime: row!.submitTime + 61 }).where(eq(table.id, row!.id))
		const slow = await page('/task', tasks.alice)
		expect(slow.body).toMatch(/data-testid="task-duration"[^>]*class="[^"]*red[^"]*"|class="[^"]*red[^"]*"[^>]*data-testid="task-duration"/)
		await tasks.harness.ferry.store.db.update(table).set({ finishTime: row!.submitTime + 60 }).where(eq(table.id, row!.id))
		const quick = await page('/task', tasks.alice)
		expect(quick.body).not.toMatch(/class="[^"]*red[^"]*"[^>]*data-testid="task-duration"/)
		const now = nowSeconds()
		// tz=UTC: midnight UTC today.
		expect(quick.data.filters.start_timestamp).toBe(now - (now % DAY_SECONDS))
		expect(quick.body).toContain('默认显示今天提交的任务')
		// In Shanghai (UTC+8) the day starts eight hours earlier or sixteen later.
		const shanghai = await renderPage(tasks.harness.ferry, '/task', [tasks.alice.cookie, 'tz=Asia/Shanghai'])
		const start = hydrationData(shanghai.html).loaderData.task.filters.start_timestamp
		expect((start + 8 * 3600) % DAY_SECONDS).toBe(0)
		expect(now - start).toBeLessThan(DAY_SECONDS)
	})

	test('the menu lists drawing and async tasks only while their switches are on', async () => {
		const { options } = tasks.harness.ferry.dependencies
		const menu = async () => (await page('/token', tasks.alice)).html
		expect(await menu()).toContain('href="/midjourney"')
		expect(await menu()).toContain('href="/task"')
		await options.set('DrawingEnabled', 'false')
		await options.set('TaskEnabled', 'false')
		try {
			expect(await menu()).not.toContain('href="/midjourney"')
			expect(await menu()).not.toContain('href="/task"')
		} finally {
			await options.set('DrawingEnabled', 'true')
			await options.set('TaskEnabled', 'true')
		}
	})

	test('signed-out visitors are sent to the login page', async () => {
		for (const path of ['/midjourney', '/task']) {
			const { response } = await renderPage(tasks.harness.ferry, path)
			expect(response.status).toBe(302)
			expect(response.headers.get('location')).toStartWith('/login')
		}
	})
})
