/**
 * A demo site in Chromium (`DemoSiteEnabled`): the notice above the home page and every console page,
 * in the viewer's language, gone when the option is off; the super admin signs in with the published
 * password without being sent to change it; a change of that password is refused on the page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEFAULT_ROOT_PASSWORD, ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUITE_TIMEOUT = 60_000
const NOTICE = '这是一个演示站点：其他访客能看到这里的数据，数据可能随时被重置。请勿填写真实的密钥、密码或个人信息。'

describe.skipIf(!browserExecutable)('a demo site in a browser', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
		await harness.ferry.dependencies.options.set('DemoSiteEnabled', 'true')
	}, SUITE_TIMEOUT)
	afterAll(() => harness?.close())

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })

	test('shows the notice on the home page and in the console, in English too', async () => {
		const home = await harness.open('/')
		expect(await home.page.getByTestId('demo-site-notice').textContent()).toBe(NOTICE)
		expectNoErrors(home)
		await home.close()
		const console = await harness.open('/token', { as: asRoot() })
		expect(await console.page.getByTestId('demo-site-notice').textContent()).toBe(NOTICE)
		expectNoErrors(console)
		await console.close()
		const english = await harness.open('/', { language: 'en' })
		expect(await english.page.getByTestId('demo-site-notice').textContent()).toStartWith('This is a demo site')
		await english.close()
	}, SUITE_TIMEOUT)

	test('signs the super admin in with the published password without asking to change it, and refuses the change on the settings page', async () => {
		const opened = await harness.open('/login')
		const { page } = opened
		await page.getByLabel('用户名').fill('root')
		await page.getByLabel('密码').fill(DEFAULT_ROOT_PASSWORD)
		await page.getByRole('button', { name: '登录', exact: true }).click()
		await page.waitForURL(`${harness.origin}/token`)
		expect(await page.getByRole('button', { name: '前往修改密码' }).count()).toBe(0)
		await page.goto(`${harness.origin}/setting`)
		await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: 15_000 })
		await page.getByRole('button', { name: '修改密码' }).click()
		const dialog = page.getByRole('dialog')
		await dialog.getByLabel('新密码', { exact: true }).fill('another-pass-1')
		await dialog.getByLabel('确认新密码', { exact: true }).fill('another-pass-1')
		await dialog.getByRole('button', { name: '确认修改' }).click()
		await page.locator('[data-kind="error"]').filter({ hasText: '演示站点模式下不能修改超级管理员的用户名和密码' }).first().waitFor({ timeout: 10_000 })
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'root', password: DEFAULT_ROOT_PASSWORD } })).body.success).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('shows no notice once the option is off', async () => {
		await harness.ferry.dependencies.options.set('DemoSiteEnabled', 'false')
		try {
			const home = await harness.open('/')
			await home.page.getByRole('link', { name: '首页' }).first().waitFor()
			expect(await home.page.getByTestId('demo-site-notice').count()).toBe(0)
			await home.close()
		} finally {
			await harness.ferry.dependencies.options.set('DemoSiteEnabled', 'true')
		}
	}, SUITE_TIMEOUT)
})
