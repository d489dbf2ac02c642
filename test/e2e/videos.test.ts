/**
 * Videos in the console, in Chromium: a user's videos (made through `/v1/videos` with a fake
 * OpenAI Videos API on loopback) in the task log with their status, progress, length and cost, and
 * a preview player whose source is Ferry's signed content route; in zh and en, and on a 390 px
 * phone. The pricing page shows a video model's price per second.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { pollTasks } from '@/relay/tasks/polling'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, startConsoleHarness } from '../helpers/browser'
import { type FakeVideos, startFakeVideos } from '../fixtures/providers/openai/videos/fake-videos'

const MOBILE_WIDTH = 390
const PAGE_TIMEOUT_MS = 30_000
const VIDEO_KEY = 'sk-video-upstream'

describe.skipIf(!browserExecutable)('videos in the console', () => {
	let harness: ConsoleHarness
	let upstream: FakeVideos
	let alice: Caller & { username: string; role: number }
	let finished: string
	let running: string

	const rows = (opened: OpenedPage) => opened.page.locator('tbody tr[data-row-key]')
	const create = async (key: string, body: Record<string, unknown>) => {
		const response = await fetch(`${harness.origin}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
		return response.json() as Promise<{ id: string }>
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		upstream = startFakeVideos({ key: VIDEO_KEY })
		await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key: 'ModelPrice', value: JSON.stringify({ 'sora-2': 0.1 }) } })
		await harness.createChannel({ type: CHANNEL_TYPE.openai, name: 'sora', key: VIDEO_KEY, base_url: upstream.url, models: 'sora-2' })
		const aliceCaller = await harness.ferry.createUser('alice')
		alice = { ...aliceCaller, username: 'alice', role: ROLE.user }
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 10_000_000 } })
		const key = (await harness.createToken({ name: 'alice-videos' }, alice)).key
		finished = (await create(key, { model: 'sora-2', prompt: 'A lighthouse in the rain', seconds: '8' })).id
		running = (await create(key, { model: 'sora-2', prompt: 'A slow tide', seconds: '4' })).id
		upstream.complete(upstream.ids[0]!)
		upstream.progress(upstream.ids[1]!, 60)
		await pollTasks(harness.ferry.dependencies, harness.ferry.relay)
		await fetch(`${harness.origin}/login`)
	}, 90_000)

	afterAll(async () => {
		await harness?.close()
		await upstream?.stop()
	}, 30_000)

	test('a user sees their videos with status, progress, length and cost, and plays the finished one through Ferry', async () => {
		const opened = await harness.open('/task', { as: alice, language: 'zh', theme: 'light' })
		const { page } = opened
		await expect(rows(opened).count()).resolves.toBe(2)
		const done = rows(opened).filter({ hasText: finished })
		expect(await done.textContent()).toContain('生成视频')
		expect(await done.getByTestId('task-status').textContent()).toBe('成功')
		expect(await done.getByTestId('video-seconds').textContent()).toBe('8 秒')
		// 8 s at $0.1 a second, shown as the server shows quota.
		expect(await done.getByTestId('task-quota').textContent()).toContain('0.8')
		const pending = rows(opened).filter({ hasText: running })
		expect(await pending.getByTestId('task-status').textContent()).toBe('执行中')
		expect(await pending.textContent()).toContain('60%')

		await done.getByRole('button', { name: '详情' }).click()
		const details = page.getByTestId('task-details')
		await details.waitFor()
		for (const part of ['视频', 'sora-2', '720x1280', 'A lighthouse in the rain', '8 秒']) expect(await details.textContent()).toContain(part)
		const player = page.getByTestId('video-preview')
		const source = await player.getAttribute('src')
		expect(source).toStartWith(`/v1/videos/${finished}/content?variant=video&signature=`)
		// The player's source answers the upstream's bytes to the browser, with no API key.
		const fetched = await page.evaluate(async (url) => {
			const response = await fetch(url)
			return { status: response.status, type: response.headers.get('content-type'), text: await response.text() }
		}, source!)
		expect(fetched).toEqual({ status: 200, type: 'video/mp4', text: new TextDecoder().decode(upstream.bytesOf(upstream.ids[0]!)) })
		// A forged signature is refused.
		const forged = await fetch(`${harness.origin}/v1/videos/${finished}/content?signature=forged`)
		expect(forged.status).toBe(404)
		await harness.screenshot(page, 'videos-user-light')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('in English and dark the same videos read in English', async () => {
		const opened = await harness.open('/task', { as: alice, language: 'en', theme: 'dark' })
		const { page } = opened
		await expect(rows(opened).count()).resolves.toBe(2)
		expect(await page.locator('th[data-column="video_seconds"]').textContent()).toBe('Length')
		expect(await page.locator('th[data-column="quota"]').textContent()).toBe('Quota used')
		const done = rows(opened).filter({ hasText: finished })
		expect(await done.textContent()).toContain('Video')
		expect(await done.getByTestId('video-seconds').textContent()).toBe('8 s')
		await done.getByRole('button', { name: 'Details' }).click()
		const details = await page.getByTestId('task-details').textContent()
		for (const part of ['Preview', 'Prompt', 'Length', 'Size']) expect(details).toContain(part)
		await harness.screenshot(page, 'videos-user-dark')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the task log with videos fits a 390 px phone without sideways scrolling, the player in the details', async () => {
		const opened = await harness.open('/task', { as: alice, language: 'zh', width: MOBILE_WIDTH })
		const { page } = opened
		await expect(rows(opened).count()).resolves.toBe(2)
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE_WIDTH)
		await rows(opened).filter({ hasText: '成功' }).getByRole('button', { name: '详情' }).click()
		await page.getByTestId('video-preview').waitFor()
		const box = await page.getByTestId('video-preview').boundingBox()
		expect(box!.width).toBeLessThanOrEqual(MOBILE_WIDTH)
		await harness.screenshot(page, 'videos-mobile')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the pricing page shows a video model\'s price per second', async () => {
		const opened = await harness.open('/pricing', { language: 'zh' })
		const { page } = opened
		const video = page.locator('tr[data-model="sora-2"]')
		expect(await video.getByTestId('second-price').textContent()).toBe('$0.1 / 秒')
		expect(await video.textContent()).toContain('按秒计费')
		await opened.close()
		const english = await harness.open('/pricing', { language: 'en' })
		expect(await english.page.locator('tr[data-model="sora-2"]').getByTestId('second-price').textContent()).toBe('$0.1 / second')
		expectNoErrors(english)
		await english.close()
	}, PAGE_TIMEOUT_MS)
})
