/**
 * Getting around the console (issue 32): a first visit follows the browser's language and the
 * system's dark setting until the visitor chooses; the sign-in pages have their own switches; on a
 * phone the public pages have a menu button (the home page reaches Pricing) and the console's drawer
 * has Home, Pricing and About; the default-password prompt opens the change-password dialog; a slow
 * client-side navigation shows progress and lights one menu entry.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import { DEFAULT_ROOT_PASSWORD } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const PHONE_WIDTH = 390
const STEP_TIMEOUT = 10_000
const PAGE_TIMEOUT_MS = 30_000
/** How long the test holds the log call back: a navigation slow enough to be seen. */
const SLOW_CALL_MS = 1_500

describe.skipIf(!browserExecutable)('getting around the console', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(() => harness?.close())

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })
	const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'))
	const htmlLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang)

	test('an en-US browser\'s first /login is in English, and the language it then picks is kept', async () => {
		const opened = await harness.open('/login', { locale: 'en-US' })
		const { page } = opened
		expect(await htmlLanguage(page)).toBe('en')
		await page.getByText('Log in to Ferry').waitFor()
		expect(await page.getByRole('button', { name: 'Log in', exact: true }).isVisible()).toBe(true)
		// The server rendered it in English (no flash of Chinese before hydration).
		const html = await (await fetch(`${harness.origin}/login`, { headers: { 'accept-language': 'en-US,en;q=0.9' } })).text()
		expect(html).toContain('<html lang="en"')
		await harness.screenshot(page, 'login-first-visit-en-US')
		await page.getByTestId('auth-preferences').getByRole('button', { name: 'Switch language' }).click()
		await page.getByRole('menuitem', { name: '中文' }).click()
		await page.getByRole('button', { name: '登录', exact: true }).waitFor()
		await page.reload()
		await page.waitForFunction(() => window.__hydrated === true)
		expect(await htmlLanguage(page)).toBe('zh-CN')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('a zh browser gets Chinese, and a browser asking for neither gets Chinese too', async () => {
		for (const [locale, language] of [['zh-CN', 'zh-CN'], ['fr-FR', 'zh-CN'], ['en-GB', 'en']] as const) {
			const opened = await harness.open('/register', { locale })
			expect({ locale, language: await htmlLanguage(opened.page) }).toEqual({ locale, language })
			expectNoErrors(opened)
			await opened.close()
		}
	}, PAGE_TIMEOUT_MS)

	test('a system dark setting is followed until the visitor picks a theme, which is then kept', async () => {
		const opened = await harness.open('/reset', { colorScheme: 'dark' })
		const { page } = opened
		expect(await isDark(page)).toBe(true)
		await harness.screenshot(page, 'reset-system-dark')
		await page.emulateMedia({ colorScheme: 'light' })
		await page.waitForFunction(() => !document.documentElement.classList.contains('dark'))
		await page.emulateMedia({ colorScheme: 'dark' })
		await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
		// Chosen: light, whatever the system says from now on.
		await page.getByTestId('auth-preferences').getByRole('button', { name: '切换主题' }).click()
		await page.waitForFunction(() => !document.documentElement.classList.contains('dark'))
		await page.reload()
		await page.waitForFunction(() => window.__hydrated === true)
		expect(await isDark(page)).toBe(false)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the sign-in, register and reset pages each have the theme and language switches', async () => {
		for (const path of ['/login', '/register', '/reset']) {
			const opened = await harness.open(path, { language: 'en', theme: 'dark', width: PHONE_WIDTH })
			const switches = opened.page.getByTestId('auth-preferences')
			expect({ path, buttons: await switches.getByRole('button').count() }).toEqual({ path, buttons: 2 })
			expect(await opened.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_WIDTH)
			await harness.screenshot(opened.page, `${path.slice(1)}-390-en-dark`)
			expectNoErrors(opened)
			await opened.close()
		}
	}, PAGE_TIMEOUT_MS)

	test('on a phone the home page reaches Pricing through the menu button', async () => {
		const opened = await harness.open('/', { width: PHONE_WIDTH, language: 'zh', theme: 'light' })
		const { page } = opened
		await page.getByRole('button', { name: '菜单', exact: true }).click()
		const site = page.getByRole('navigation', { name: '站点导航' })
		await site.waitFor()
		expect(await site.getByRole('link').allTextContents()).toEqual(['首页', '控制台', '定价', '关于', '登录', '注册'])
		await harness.screenshot(page, 'home-390-menu')
		await site.getByRole('link', { name: '定价' }).click()
		await page.waitForURL(`${harness.origin}/pricing`)
		await page.getByRole('heading', { name: '定价' }).first().waitFor({ timeout: STEP_TIMEOUT })
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the console\'s phone drawer has Home, Pricing and About under the side menu (en, dark)', async () => {
		const opened = await harness.open('/token', { as: asRoot(), width: PHONE_WIDTH, language: 'en', theme: 'dark' })
		const { page } = opened
		await page.getByRole('button', { name: 'Menu', exact: true }).click()
		await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Tokens' }).waitFor()
		expect(await page.getByRole('navigation', { name: 'Site pages' }).getByRole('link').allTextContents()).toEqual(['Home', 'Pricing', 'About'])
		await harness.screenshot(page, 'console-390-drawer-en-dark')
		await page.getByRole('navigation', { name: 'Site pages' }).getByRole('link', { name: 'About' }).click()
		await page.waitForURL(`${harness.origin}/about`)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('a slow navigation shows progress, and only the page on its way is lit in the menu', async () => {
		const opened = await harness.open('/token', {
			as: asRoot(),
			prepare: async (context) => {
				await context.route('**/api/log/**', async (route) => {
					await Bun.sleep(SLOW_CALL_MS)
					await route.continue()
				})
			},
		})
		const { page } = opened
		const menu = page.getByRole('navigation', { name: '侧边菜单' })
		await menu.getByRole('link', { name: '日志' }).click()
		await page.getByTestId('navigation-progress').waitFor({ timeout: STEP_TIMEOUT })
		const lit = await menu.locator('a.bg-accent').allTextContents()
		expect(lit).toEqual(['日志'])
		await page.waitForURL(`${harness.origin}/log`)
		await page.getByTestId('navigation-progress').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		expect(await menu.locator('a.bg-accent').allTextContents()).toEqual(['日志'])
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the default-password prompt opens the change-password dialog on the personal tab', async () => {
		const opened = await harness.open('/login', { language: 'zh' })
		const { page } = opened
		await page.getByLabel('用户名').fill('root')
		await page.getByLabel('密码').fill(DEFAULT_ROOT_PASSWORD)
		await page.getByRole('button', { name: '登录', exact: true }).click()
		await page.getByRole('button', { name: '前往修改密码' }).click()
		await page.waitForURL(`${harness.origin}/setting`)
		const dialog = page.getByRole('dialog')
		await dialog.getByRole('heading', { name: '修改密码' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await dialog.getByLabel('新密码', { exact: true }).isVisible()).toBe(true)
		// The personal tab names root's role as the user list does.
		expect(await page.getByTestId('profile-role').textContent()).toBe('超级管理员')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)
})
