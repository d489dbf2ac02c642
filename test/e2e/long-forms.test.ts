/**
 * Long forms in Chromium (issue 16): the operation settings have a section list that stays in view
 * and leads to each section; the channel editor groups its fields in three titled sections and keeps
 * its save button in the window however far the form is scrolled.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Locator, Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const DESKTOP_WIDTH = 1400
const PHONE_WIDTH = 390
/** The console's sticky header (h-14). */
const HEADER_PX = 56
const PAGE_TIMEOUT_MS = 30_000

describe.skipIf(!browserExecutable)('long forms in a browser', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(() => harness?.close())

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })
	const viewportHeight = (page: Page) => page.evaluate(() => window.innerHeight)
	const top = async (locator: Locator) => (await locator.boundingBox())!.y

	for (const width of [DESKTOP_WIDTH, PHONE_WIDTH]) {
		test(`at ${width} px the operation settings list their sections, stay in view, and a link brings its section under the header`, async () => {
			const opened = await harness.open('/setting?tab=operation', { as: asRoot(), width })
			const { page } = opened
			const nav = page.getByRole('navigation', { name: '运营设置导航' })
			await nav.waitFor()
			expect(await nav.getByRole('link').allTextContents()).toEqual(['通用设置', '绘图设置', '屏蔽词过滤设置', '日志设置', '数据看板设置', '监控设置', '请求速率限制', '路由与会话亲和', '会话亲和记录', '响应缓存与长会话', '额度设置', '聊天设置', '分组设置', '倍率设置'])
			expect(await nav.getByRole('link', { name: '通用设置' }).getAttribute('aria-current')).toBe('location')

			const link = nav.getByRole('link', { name: '分组设置' })
			await link.scrollIntoViewIfNeeded()
			await link.click()
			const section = page.getByTestId('section-group')
			await page.waitForFunction(() => {
				const box = document.querySelector('[data-testid="section-group"]')!.getBoundingClientRect()
				return box.top > 0 && box.top < 200
			})
			// Below the header (and the phone's row of links), not under them.
			expect(await top(section)).toBeGreaterThanOrEqual(HEADER_PX + (await nav.boundingBox())!.height * Number(width === PHONE_WIDTH))
			const navBox = (await nav.boundingBox())!
			expect(navBox.y).toBeGreaterThanOrEqual(0)
			expect(navBox.y).toBeLessThan(await viewportHeight(page))
			await page.waitForFunction(() => document.querySelector('nav a[aria-current="location"]')?.textContent === '分组设置')
			expect(page.url()).toBe(`${harness.origin}/setting?tab=operation`)
			await harness.screenshot(page, `settings-operation-nav-${width}`)
			expectNoErrors(opened)
			await opened.close()
		}, PAGE_TIMEOUT_MS)
	}

	test('the system settings list their sections like the operation settings, and a link to the private-upstream section opens at it (en, dark)', async () => {
		const opened = await harness.open('/setting?tab=system#private-upstream', { as: asRoot(), width: DESKTOP_WIDTH, language: 'en', theme: 'dark' })
		const { page } = opened
		const nav = page.getByRole('navigation', { name: 'System settings sections' })
		await nav.waitFor()
		expect(await nav.getByRole('link').count()).toBe(14)
		expect(await nav.getByRole('link').last().textContent()).toBe('Private-network upstreams')
		await page.waitForFunction(() => {
			const box = document.querySelector('[data-testid="section-private-upstream"]')!.getBoundingClientRect()
			return box.top >= 0 && box.bottom <= window.innerHeight
		})
		await page.waitForFunction(() => document.querySelector('nav a[aria-current="location"]')?.textContent === 'Private-network upstreams')
		await harness.screenshot(page, 'settings-system-nav-1400-en-dark')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the channel editor groups its fields in three sections and keeps the save button in the window', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot(), width: DESKTOP_WIDTH })
		const { page } = opened
		const region = (name: string) => page.getByRole('region', { name })
		await region('基本信息').waitFor()
		for (const [name, labels] of [
			['基本信息', ['类型', '名称', '密钥']],
			['模型与路由', ['模型重定向', '标签', '优先级', '权重']],
			['高级设置', ['额外设置', '默认测试模型', '状态码复写']],
		] as const) {
			for (const label of labels) expect(await region(name).getByLabel(label, { exact: true }).count()).toBe(1)
		}
		expect(await region('模型与路由').getByRole('button', { name: '选择模型' }).count()).toBe(1)

		const save = page.getByRole('button', { name: '保存', exact: true })
		const height = await viewportHeight(page)
		expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(height)
		for (const position of ['top', 'middle'] as const) {
			if (position === 'middle') await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2))
			const box = (await save.boundingBox())!
			expect(box.y + box.height).toBeLessThanOrEqual(height)
			expect(box.y).toBeGreaterThan(0)
			await save.click({ trial: true })
		}
		await harness.screenshot(page, 'channel-editor-sections-1400')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)
})
