/**
 * The drawing log and the async task log in Chromium: tasks made through the real task relays (fake
 * midjourney-proxy and Suno API on loopback), read by a user and an admin, in zh and en, light and
 * dark, and on a 390 px phone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { pollTasks } from '@/relay/tasks/polling'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, startConsoleHarness } from '../helpers/browser'
import { MJ_KEY, MJ_MODELS, SUNO_KEY } from '../helpers/task-relay'
import { type FakeMidjourney, startFakeMidjourney } from '../fixtures/providers/midjourney/fake-midjourney'
import { type FakeSuno, startFakeSuno } from '../fixtures/providers/suno/fake-suno'

const MOBILE_WIDTH = 390
const PAGE_TIMEOUT_MS = 30_000
const USER_QUOTA = 1_000_000

describe.skipIf(!browserExecutable)('the task pages in a browser', () => {
	let harness: ConsoleHarness
	let midjourney: FakeMidjourney
	let suno: FakeSuno
	let alice: Caller & { username: string; role: number }
	let root: Caller & { username: string; role: number }
	let drawing: string
	let song: string

	const rows = (opened: OpenedPage) => opened.page.locator('tbody tr[data-row-key]')
	const submit = async (path: string, key: string, body: Record<string, unknown>) => {
		const response = await fetch(`${harness.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
		return response.json() as Promise<any>
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		midjourney = startFakeMidjourney({ key: MJ_KEY })
		suno = startFakeSuno({ key: SUNO_KEY })
		await harness.createChannel({ type: CHANNEL_TYPE.midjourney, name: 'drawing-upstream', key: MJ_KEY, base_url: midjourney.url, models: MJ_MODELS })
		await harness.createChannel({ type: CHANNEL_TYPE.suno, name: 'music-upstream', key: SUNO_KEY, base_url: suno.url, models: 'suno_music,suno_lyrics' })
		const aliceCaller = await harness.ferry.createUser('alice')
		alice = { ...aliceCaller, username: 'alice', role: ROLE.user }
		root = { ...harness.root, username: 'root', role: ROLE.root }
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: USER_QUOTA } })
		const aliceKey = (await harness.createToken({ name: 'alice-studio' }, alice)).key
		const rootKey = (await harness.createToken({ name: 'root-studio' })).key
		drawing = (await submit('/mj/submit/imagine', aliceKey, { prompt: 'a lighthouse at dusk' })).result
		await submit('/mj/submit/imagine', rootKey, { prompt: 'root draws a quay' })
		song = (await submit('/suno/submit/music', aliceKey, { prompt: 'harbour lights' })).data
		await submit('/suno/submit/lyrics', rootKey, { prompt: 'root writes' })
		midjourney.report(drawing, 'task-success.json')
		suno.report(suno.taskIds[0]!, 'task-success.json')
		await pollTasks(harness.ferry.dependencies, harness.ferry.relay)
		// The first page request builds the console assets when ui/ changed; do it before the clocks start.
		await fetch(`${harness.origin}/login`)
	}, 90_000)

	afterAll(async () => {
		await harness?.close()
		await midjourney?.stop()
		await suno?.stop()
	}, 30_000)

	test('a user reads their drawing tasks, sees the image through Ferry, opens it and the task\'s details', async () => {
		const opened = await harness.open('/midjourney', { as: alice, language: 'zh', theme: 'light' })
		const { page } = opened
		await expect(rows(opened).count()).resolves.toBe(1)
		expect(await page.locator('th[data-column="channel_id"]').count()).toBe(0)
		expect(await page.getByLabel('渠道 ID').count()).toBe(0)
		const row = rows(opened).first()
		expect(await row.getByTestId('drawing-status').textContent()).toBe('成功')
		expect(await row.getByTestId('drawing-code').textContent()).toBe('已提交')
		const thumbnail = row.getByTestId('drawing-thumbnail')
		await page.waitForFunction(() => (document.querySelector('[data-testid="drawing-thumbnail"]') as HTMLImageElement | null)?.naturalWidth === 1)
		expect(await thumbnail.getAttribute('src')).toStartWith(`/mj/image/${drawing}?signature=`)
		await row.getByRole('button', { name: '查看图片' }).click()
		await page.getByTestId('drawing-image').waitFor()
		await page.keyboard.press('Escape')
		await row.getByRole('button', { name: '详情' }).click()
		const details = page.getByTestId('task-details')
		await details.waitFor()
		const text = await details.textContent()
		for (const part of [drawing, 'a lighthouse at dusk', '100%', '成功']) expect(text).toContain(part)
		await harness.screenshot(page, 'midjourney-user-light')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('in English and dark, an admin sees every drawing task with its channel and filters by task id through the URL', async () => {
		const opened = await harness.open('/midjourney', { as: root, language: 'en', theme: 'dark' })
		const { page } = opened
		expect(await page.getByRole('heading', { name: 'Drawing tasks' }).count()).toBe(1)
		await expect(rows(opened).count()).resolves.toBe(2)
		expect(await page.locator('th[data-column="channel_id"]').textContent()).toBe('Channels')
		expect(await page.locator('html').getAttribute('class')).toContain('dark')
		await page.getByLabel('Task ID').fill(drawing)
		await page.getByRole('button', { name: 'Search' }).click()
		await page.waitForURL(new RegExp(`mj_id=${drawing}`))
		await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-row-key]').length === 1)
		expect(await rows(opened).first().getByTestId('drawing-status').textContent()).toBe('Succeeded')
		await page.getByRole('button', { name: 'Reset' }).click()
		await page.waitForURL((url) => !url.search.includes('mj_id='))
		await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-row-key]').length === 2)
		await harness.screenshot(page, 'midjourney-admin-dark')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('a user reads their async tasks with platform, action, status and duration, and the result in the details', async () => {
		const opened = await harness.open('/task', { as: alice, language: 'zh', theme: 'light' })
		const { page } = opened
		await expect(rows(opened).count()).resolves.toBe(1)
		const row = rows(opened).first()
		expect(await row.textContent()).toContain('生成音乐')
		expect(await row.getByTestId('task-status').textContent()).toBe('成功')
		expect(await row.getByTestId('task-duration').count()).toBe(1)
		await row.getByRole('button', { name: '详情' }).click()
		const details = await page.getByTestId('task-details').textContent()
		for (const part of [song, 'Suno', 'Harbour Lights']) expect(details).toContain(part)
		await harness.screenshot(page, 'task-user-light')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('from the menu an admin reaches the task log in English and dark, with the channel column', async () => {
		const opened = await harness.open('/token', { as: root, language: 'en', theme: 'dark' })
		const { page } = opened
		await page.getByRole('link', { name: 'Async tasks' }).first().click()
		await page.waitForURL(/\/task$/)
		await page.getByRole('heading', { name: 'Async tasks' }).waitFor()
		await expect(rows(opened).count()).resolves.toBe(2)
		expect(await page.locator('th[data-column="channel_id"]').count()).toBe(1)
		expect(await page.locator('tbody').textContent()).toContain('Lyrics')
		await harness.screenshot(page, 'task-admin-dark')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	for (const path of ['/midjourney', '/task']) {
		test(`${path} fits a 390 px phone without sideways scrolling`, async () => {
			const opened = await harness.open(path, { as: alice, language: 'zh', width: MOBILE_WIDTH })
			const { page } = opened
			await expect(rows(opened).count()).resolves.toBe(1)
			await harness.screenshot(page, `${path.slice(1)}-mobile`)
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE_WIDTH)
			expect(await page.getByRole('button', { name: '查询' }).isVisible()).toBe(true)
			expectNoErrors(opened)
			await opened.close()
		}, PAGE_TIMEOUT_MS)
	}
})
