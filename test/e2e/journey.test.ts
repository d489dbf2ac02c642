/**
 * The console's whole journey in Chromium, against a fresh server, every step through the pages:
 * root signs in with the default password and is made to change it; root creates a user; that user
 * invites another through the invitation link; root adds a channel to a fake OpenAI upstream and a
 * token; the token is copied from the token page and used for a real chat completion with the
 * official SDK; the call shows on /log with its cost, and root's balance on /setting fell by exactly
 * that cost.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { DEFAULT_ROOT_PASSWORD } from '@shared/user'
import { browserExecutable, type ConsoleHarness, startConsoleHarness } from '../helpers/browser'

const STEP_TIMEOUT = 15_000
const NEW_ROOT_PASSWORD = 'harbour-master-7'

describe.skipIf(!browserExecutable)('the console journey from first sign-in to a billed call', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)

	afterAll(async () => {
		await harness?.close()
	})

	const toast = (page: Page, kind: 'success' | 'error', text: string) =>
		page.locator(`[data-kind="${kind}"]`).filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })

	async function signIn(page: Page, username: string, password: string) {
		await page.getByLabel('用户名', { exact: true }).fill(username)
		await page.getByLabel('密码', { exact: true }).fill(password)
		await page.getByRole('button', { name: '登录', exact: true }).click()
	}

	/** Opens a page and waits until React has hydrated it, so clicks reach their handlers. */
	async function visit(page: Page, path: string) {
		await page.goto(path.startsWith('http') ? path : `${harness.origin}${path}`)
		await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: STEP_TIMEOUT })
	}

	async function balanceOf(page: Page) {
		await visit(page, '/setting')
		return Number(await page.getByTestId('balance').getAttribute('data-quota'))
	}

	test('root, a user and an invitee go from sign-in to a billed call, and the balance falls by the logged cost', async () => {
		const upstream = harness.startUpstream()
		const rootContext = await harness.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' })
		await rootContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		const rootPage = await rootContext.newPage()
		const errors: string[] = []
		rootPage.on('pageerror', (error) => errors.push(error.message))

		// 1. Root signs in with the default password, meets the modal and changes the password.
		await visit(rootPage, '/login')
		await signIn(rootPage, 'root', DEFAULT_ROOT_PASSWORD)
		const modal = rootPage.getByRole('dialog')
		await modal.getByText('请立即修改默认密码').waitFor({ timeout: STEP_TIMEOUT })
		await modal.getByRole('button', { name: '前往修改密码' }).click()
		await rootPage.waitForURL(`${harness.origin}/setting`)
		await rootPage.getByRole('button', { name: '修改密码' }).click()
		const passwordDialog = rootPage.getByRole('dialog')
		await passwordDialog.getByLabel('新密码', { exact: true }).fill(NEW_ROOT_PASSWORD)
		await passwordDialog.getByLabel('确认新密码').fill(NEW_ROOT_PASSWORD)
		await passwordDialog.getByRole('button', { name: '确认修改' }).click()
		await passwordDialog.waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'root', password: DEFAULT_ROOT_PASSWORD } })).body.success).toBe(false)
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'root', password: NEW_ROOT_PASSWORD } })).body.success).toBe(true)

		// 2. Root creates a user on /user.
		await visit(rootPage, '/user')
		await rootPage.getByRole('button', { name: '添加用户' }).click()
		const addUser = rootPage.getByRole('dialog')
		await addUser.getByLabel('用户名').fill('mariner')
		await addUser.getByLabel('显示名称').fill('Mariner')
		await addUser.getByLabel('密码').fill('mariner-pass-1')
		await addUser.getByRole('button', { name: '提交' }).click()
		await rootPage.locator('tbody tr').filter({ hasText: 'mariner' }).first().waitFor({ timeout: STEP_TIMEOUT })

		// 3. The user signs in, copies the invitation link, and someone registers through it.
		const userContext = await harness.browser.newContext({ timezoneId: 'UTC' })
		const userPage = await userContext.newPage()
		userPage.on('pageerror', (error) => errors.push(error.message))
		await visit(userPage, '/login')
		await signIn(userPage, 'mariner', 'mariner-pass-1')
		await userPage.waitForURL(`${harness.origin}/token`)
		await visit(userPage, '/setting')
		// Without a configured server address the link becomes absolute (the page's origin) once hydrated.
		await userPage.waitForFunction(() => document.querySelector('[data-testid="invitation-link"]')?.textContent?.startsWith('http'), undefined, { timeout: STEP_TIMEOUT })
		const invitationLink = (await userPage.getByTestId('invitation-link').textContent())!.trim()
		expect(invitationLink).toMatch(new RegExp(`^${harness.origin}/register\\?aff=\\w+$`))

		const inviteeContext = await harness.browser.newContext({ timezoneId: 'UTC' })
		const inviteePage = await inviteeContext.newPage()
		inviteePage.on('pageerror', (error) => errors.push(error.message))
		await visit(inviteePage, invitationLink)
		await inviteePage.getByLabel('用户名', { exact: true }).fill('deckhand')
		await inviteePage.getByLabel('密码', { exact: true }).fill('deckhand-pass-1')
		await inviteePage.getByLabel('确认密码', { exact: true }).fill('deckhand-pass-1')
		await inviteePage.getByRole('button', { name: '注册', exact: true }).click()
		await inviteePage.waitForURL(`${harness.origin}/login`, { timeout: STEP_TIMEOUT })
		const rootCaller = await harness.ferry.login('root', NEW_ROOT_PASSWORD)
		const found = await harness.ferry.call('GET', '/api/user/search?keyword=deckhand', { as: rootCaller })
		const mariner = await harness.ferry.call('GET', '/api/user/search?keyword=mariner', { as: rootCaller })
		expect(found.body.data.items[0].inviter_id).toBe(mariner.body.data.items[0].id)

		// 4. Root adds a channel to the fake upstream on /channel/add.
		await visit(rootPage, '/channel/add')
		await rootPage.getByLabel('名称', { exact: true }).fill('harbour-upstream')
		await rootPage.locator('#channel-base-url').fill(upstream.url)
		await rootPage.getByLabel('密钥', { exact: true }).fill('sk-upstream-secret')
		await rootPage.getByLabel('自定义模型名称', { exact: true }).fill('gpt-4o-mini')
		await rootPage.getByRole('button', { name: '填入', exact: true }).click()
		await rootPage.getByRole('button', { name: '保存', exact: true }).click()
		await rootPage.waitForURL(`${harness.origin}/channel`, { timeout: STEP_TIMEOUT })
		await rootPage.locator('tbody tr').filter({ hasText: 'harbour-upstream' }).first().waitFor({ timeout: STEP_TIMEOUT })

		// 5. Root creates a token on /token and copies its key from the row's copy button.
		await visit(rootPage, '/token')
		await rootPage.getByRole('button', { name: '添加令牌' }).first().click()
		await rootPage.getByLabel('名称', { exact: true }).fill('voyage')
		await rootPage.getByRole('button', { name: '提交' }).click()
		const tokenRow = rootPage.locator('tbody tr').filter({ has: rootPage.getByText('voyage', { exact: true }) })
		await tokenRow.waitFor({ timeout: STEP_TIMEOUT })
		await tokenRow.getByRole('button', { name: '复制', exact: true }).click()
		await toast(rootPage, 'success', '已复制到剪贴板')
		const key = await rootPage.evaluate(() => navigator.clipboard.readText())
		expect(key).toMatch(/^sk-\w+$/)

		// 6. The copied key makes a real call through the relay with the official SDK.
		const balanceBefore = await balanceOf(rootPage)
		const completion = await harness.client(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Ahoy' }] })
		expect(completion.choices[0]!.message.content).toBeTruthy()
		expect(upstream.requests.length).toBe(1)

		// 7. The call is on /log with its cost; the balance fell by exactly that cost.
		await visit(rootPage, '/log')
		const logRow = rootPage.locator('tbody tr').filter({ hasText: 'voyage' }).first()
		await logRow.waitFor({ timeout: STEP_TIMEOUT })
		expect(await logRow.textContent()).toContain('gpt-4o-mini')
		const cost = Number(await logRow.getByTestId('log-cost').getAttribute('data-quota'))
		expect(cost).toBeGreaterThan(0)
		const balanceAfter = await balanceOf(rootPage)
		expect(balanceBefore - balanceAfter).toBe(cost)
		expect(await rootPage.getByTestId('balance').textContent()).toMatch(/^\$\d+\.\d\d$/)

		expect(errors).toEqual([])
		await Promise.all([rootContext.close(), userContext.close(), inviteeContext.close()])
	}, 180_000)
})
