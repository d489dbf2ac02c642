/**
 * Every console page in Chromium: rendered by the server (status, no console error) and hydrated
 * without a mismatch in zh and en, light and dark, at 1 400 × 900 and 390 × 844; screenshots go to
 * .build/screenshots (docs/screenshots/console keeps a set). Also the role gating of the menu and of
 * admin pages, and the expired-session path (docs/specification/console.md#what-the-console-says).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, hydrationErrorPattern, startConsoleHarness } from '../helpers/browser'

type Visitor = 'anonymous' | 'root'

const DESKTOP_WIDTH = 1400
type PageCase = { name: string; path: string; as: Visitor; status: number }

describe.skipIf(!browserExecutable)('the console pages in a browser', () => {
	let harness: ConsoleHarness
	let root: Caller & { username: string; role: number }
	let user: Caller & { username: string; role: number }
	let channelId = 0
	let pages: PageCase[] = []

	beforeAll(async () => {
		harness = await startConsoleHarness()
		root = { ...harness.root, username: 'root', role: ROLE.root }
		user = { ...(await harness.ferry.createUser('walker')), username: 'walker', role: ROLE.user }
		const upstream = harness.startUpstream()
		channelId = await harness.createChannel({ name: 'harbour', base_url: upstream.url, models: 'gpt-4o-mini' })
		await harness.createToken({ name: 'deck' })
		pages = [
			{ name: 'home', path: '/', as: 'anonymous', status: 200 },
			{ name: 'about', path: '/about', as: 'anonymous', status: 200 },
			{ name: 'login', path: '/login', as: 'anonymous', status: 200 },
			{ name: 'login-expired', path: '/login?expired=true', as: 'anonymous', status: 200 },
			{ name: 'register', path: '/register?aff=ABCD', as: 'anonymous', status: 200 },
			{ name: 'reset', path: '/reset', as: 'anonymous', status: 200 },
			{ name: 'reset-confirm', path: '/user/reset?email=sea%40example.com&token=abc', as: 'anonymous', status: 200 },
			{ name: 'pricing', path: '/pricing', as: 'anonymous', status: 200 },
			{ name: 'not-found', path: '/no/such/page', as: 'anonymous', status: 404 },
			{ name: 'token', path: '/token', as: 'root', status: 200 },
			{ name: 'user', path: '/user', as: 'root', status: 200 },
			{ name: 'channel', path: '/channel', as: 'root', status: 200 },
			{ name: 'channel-add', path: '/channel/add', as: 'root', status: 200 },
			{ name: 'channel-edit', path: `/channel/edit/${channelId}`, as: 'root', status: 200 },
			{ name: 'log', path: '/log', as: 'root', status: 200 },
			{ name: 'playground', path: '/playground', as: 'root', status: 200 },
			{ name: 'detail', path: '/detail', as: 'root', status: 200 },
			{ name: 'midjourney', path: '/midjourney', as: 'root', status: 200 },
			{ name: 'task', path: '/task', as: 'root', status: 200 },
			{ name: 'chat', path: '/chat/0', as: 'root', status: 200 },
			{ name: 'redemption', path: '/redemption', as: 'root', status: 200 },
			{ name: 'topup', path: '/topup', as: 'root', status: 200 },
			{ name: 'setting', path: '/setting', as: 'root', status: 200 },
			{ name: 'setting-operation', path: '/setting?tab=operation', as: 'root', status: 200 },
			{ name: 'setting-system', path: '/setting?tab=system', as: 'root', status: 200 },
			{ name: 'setting-other', path: '/setting?tab=other', as: 'root', status: 200 },
			{ name: 'console-not-found', path: '/no/such/page', as: 'root', status: 404 },
		]
	}, 60_000)

	afterAll(async () => {
		await harness?.close()
	})

	/** The document's own 404 is reported by Chromium as a failed resource; nothing else may be. */
	function unexpectedErrors(errors: string[], status: number) {
		return errors.filter((text) => !(status === 404 && text.includes('status of 404')))
	}

	for (const language of ['zh', 'en'] as const) {
		for (const theme of ['light', 'dark'] as const) {
			test(`every page renders on the server and hydrates without errors in ${language}, ${theme} theme`, async () => {
				for (const { name, path, as, status } of pages) {
					const opened = await harness.open(path, { language, theme, width: DESKTOP_WIDTH, as: as === 'root' ? root : undefined })
					const response = await opened.page.request.get(harness.origin + path, { maxRedirects: 0 })
					try {
						expect({ name, url: new URL(opened.page.url()).pathname }).toEqual({ name, url: path.split('?')[0]! })
						expect({ name, status: response.status() }).toEqual({ name, status })
						expect({ name, errors: unexpectedErrors(opened.consoleErrors, status) }).toEqual({ name, errors: [] })
						expect({ name, errors: opened.pageErrors }).toEqual({ name, errors: [] })
						expect(opened.consoleErrors.filter((text) => hydrationErrorPattern.test(text))).toEqual([])
						expect(await opened.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark')
						expect(await opened.page.evaluate(() => document.documentElement.lang)).toBe(language === 'en' ? 'en' : 'zh-CN')
						await harness.screenshot(opened.page, `${name}-${DESKTOP_WIDTH}-${language}-${theme}`)
					} finally {
						await opened.close()
					}
				}
			}, 180_000)
		}
	}

	for (const [language, theme] of [['zh', 'light'], ['en', 'dark']] as const) test(`every page has a 390 px mobile layout without horizontal page overflow (${language}, ${theme})`, async () => {
		for (const { name, path, as } of pages) {
			const opened = await harness.open(path, { width: 390, language, theme, as: as === 'root' ? root : undefined })
			try {
				const overflow = await opened.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
				expect({ name, overflow: overflow > 1 }).toEqual({ name, overflow: false })
				expect(opened.pageErrors).toEqual([])
				await harness.screenshot(opened.page, `${name}-390-${language}-${theme}`)
			} finally {
				await opened.close()
			}
		}
	}, 180_000)

	test('an ordinary user sees no admin menu entries, and admin pages opened by URL show the not-allowed state without data', async () => {
		const opened = await harness.open('/token', { as: user })
		try {
			const menu = opened.page.getByRole('navigation', { name: '侧边菜单' })
			await menu.getByRole('link', { name: '令牌' }).waitFor()
			expect(await menu.getByRole('link', { name: '渠道' }).count()).toBe(0)
			expect(await menu.getByRole('link', { name: '用户管理' }).count()).toBe(0)
			expect(await menu.getByRole('link', { name: '兑换码' }).count()).toBe(0)
			expect(await menu.getByRole('link', { name: '钱包' }).count()).toBe(1)
			expect(await menu.getByRole('link', { name: '日志' }).count()).toBe(1)
		} finally {
			await opened.close()
		}
		for (const path of ['/user', '/channel', '/channel/add', `/channel/edit/${channelId}`, '/redemption']) {
			const page = await harness.open(path, { as: user })
			try {
				await page.page.getByTestId('not-allowed').waitFor()
				const html = await page.page.content()
				expect({ path, leaks: html.includes('harbour') || html.includes('sk-upstream-key') }).toEqual({ path, leaks: false })
				expect(page.consoleErrors.filter((text) => !text.includes('403'))).toEqual([])
				expect(page.pageErrors).toEqual([])
			} finally {
				await page.close()
			}
		}
	}, 60_000)

	test('an admin page opened by URL by an ordinary user answers 403 from the server', async () => {
		const response = await fetch(`${harness.origin}/user`, { headers: { cookie: user.cookie! } })
		expect(response.status).toBe(403)
		const html = await response.text()
		expect(html).toContain('data-testid="not-allowed"')
		// The page carries the visitor's own account (header, menu) and nothing of the user list.
		expect(html).not.toContain('"items"')
		expect(html).not.toContain('ferryman')
	})

	test('a visitor without a session who opens a console page is sent to /login without the expired message', async () => {
		const opened = await harness.open('/log')
		try {
			expect(new URL(opened.page.url()).pathname + new URL(opened.page.url()).search).toBe('/login')
			expect(await opened.page.getByText('未登录或登录已过期，请重新登录').count()).toBe(0)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('a session that ends while the console is open lands on /login?expired=true with the catalogue message', async () => {
		const victim = { ...(await harness.ferry.createUser('ferryman')), username: 'ferryman', role: ROLE.user }
		const opened = await harness.open('/token', { as: victim })
		try {
			const disabled = await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: victim.userId, action: 'disable' } })
			expect(disabled.body.success).toBe(true)
			// A client-side navigation: the logs page's loader calls /api and gets 401.
			await opened.page.getByRole('navigation', { name: '侧边菜单' }).getByRole('link', { name: '日志' }).click()
			await opened.page.waitForURL(`${harness.origin}/login?expired=true`)
			await opened.page.getByText('未登录或登录已过期，请重新登录').first().waitFor()
			expect(await opened.page.evaluate(() => localStorage.getItem('user'))).toBeNull()
			// A full page load with the dead cookie goes the same way, through the server.
			await opened.page.goto(`${harness.origin}/setting`)
			await opened.page.waitForURL(`${harness.origin}/login?expired=true`)
			expect(opened.pageErrors).toEqual([])
		} finally {
			await opened.close()
		}
	}, 60_000)
})
