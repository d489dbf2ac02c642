/**
 * The plan page in Chromium (issue 28): the super admin adds a plan in the editor (a bad window is
 * refused under its field), a user buys it from the wallet after a confirmation, and their window
 * meters show the use of calls and when each window resets; the page in English at 390 px fits the
 * screen; never a console error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { DEFAULT_MODEL_PRICE } from '@shared/default-prices'
import { ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000
const MODEL = 'plan-model'

describe.skipIf(!browserExecutable)('the plan page in a browser', () => {
	let harness: ConsoleHarness
	let buyer: Caller

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })
	const asBuyer = () => ({ ...buyer, username: 'buyer', role: ROLE.user })
	const toast = (page: Page, text: string) => page.locator('[data-kind]').filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const upstream = harness.startUpstream()
		// $0.002 a call: 1 000 quota, $0.002 in the console.
		await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, [MODEL]: 0.002 }))
		await harness.createChannel({ base_url: upstream.url, models: MODEL })
		buyer = await harness.ferry.createUser('buyer')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: buyer.userId, quota: 5_000_000 } })
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await harness?.close()
	})

	test('the super admin adds a plan with two windows in the editor; a window without quota is refused under its field', async () => {
		const opened = await harness.open('/plan', { as: asRoot() })
		const { page } = opened
		await page.getByText('还没有套餐：添加一个，让用户按周期购买用量').waitFor({ timeout: STEP_TIMEOUT })
		await page.getByRole('button', { name: '添加套餐' }).first().click()
		const drawer = page.getByRole('dialog')
		await drawer.getByRole('heading', { name: '添加套餐' }).waitFor({ timeout: STEP_TIMEOUT })
		await drawer.getByLabel('名称', { exact: true }).fill('Coding')
		await drawer.getByLabel('价格（美元）').fill('1')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, '窗口 1 的额度须大于 0')
		await drawer.locator('[data-slot="field-error"]').filter({ hasText: '窗口 1 的额度须大于 0' }).waitFor({ timeout: STEP_TIMEOUT })
		await drawer.getByLabel('额度（美元）').first().fill('0.008')
		await drawer.getByRole('button', { name: '添加窗口' }).click()
		await drawer.getByLabel('额度（美元）').nth(1).fill('0.02')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, '套餐已创建')
		const plans = (await harness.ferry.call('GET', '/api/plan/', { as: harness.root })).body.data
		expect(plans).toEqual([expect.objectContaining({
			name: 'Coding', price: 500_000, duration_seconds: 30 * 24 * 3600, enabled: true,
			windows: [{ seconds: 5 * 3600, quota: 4_000 }, { seconds: 7 * 24 * 3600, quota: 10_000 }],
		})])
		await page.locator('tbody tr').filter({ hasText: 'Coding' }).waitFor({ timeout: STEP_TIMEOUT })
		await harness.screenshot(page, 'plans-admin-1280')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('a user buys the plan from the wallet, and the meters show each window\'s use and reset time after calls', async () => {
		const opened = await harness.open('/plan', { as: asBuyer() })
		const { page } = opened
		await page.getByTestId('no-subscriptions').waitFor({ timeout: STEP_TIMEOUT })
		const card = page.getByTestId('plan-card').filter({ hasText: 'Coding' })
		await card.getByText('$1.00').waitFor({ timeout: STEP_TIMEOUT })
		// Only the super admin manages plans.
		expect(await page.getByRole('heading', { name: '管理套餐' }).count()).toBe(0)
		await card.getByRole('button', { name: '用余额购买' }).click()
		await page.getByRole('alertdialog').getByText('将从钱包扣除 $1.00，当前余额 $10.00').waitFor({ timeout: STEP_TIMEOUT })
		await page.getByRole('alertdialog').getByRole('button', { name: '购买' }).click()
		await toast(page, '购买成功')
		const subscription = page.getByTestId('subscription-card').filter({ hasText: 'Coding' })
		await subscription.waitFor({ timeout: STEP_TIMEOUT })
		expect(await subscription.getByTestId('window-reset').allTextContents()).toEqual(['下次调用时开始计时', '下次调用时开始计时'])
		expect((await harness.ferry.call('GET', '/api/user/self', { as: buyer })).body.data.quota).toBe(4_500_000)

		const key = (await harness.createToken({ name: 'buyer' }, buyer)).key
		for (let call = 0; call < 2; call++) await harness.client(key).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
		await page.reload()
		await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: STEP_TIMEOUT })
		const meters = page.getByTestId('subscription-card').filter({ hasText: 'Coding' }).getByTestId('window-meter')
		expect(await meters.evaluateAll((elements) => elements.map((element) => ({ used: element.dataset.used, quota: element.dataset.quota })))).toEqual([
			{ used: '2000', quota: '4000' }, { used: '2000', quota: '10000' },
		])
		expect(await meters.first().textContent()).toContain('已用 $0.004 / $0.008')
		const resets = await meters.getByTestId('window-reset').allTextContents()
		expect(resets.every((text) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d 重置$/.test(text))).toBe(true)
		expect(await meters.first().getByRole('meter').getAttribute('aria-valuenow')).toBe('50')
		// The wallet paid nothing for the calls.
		expect((await harness.ferry.call('GET', '/api/user/self', { as: buyer })).body.data.quota).toBe(4_500_000)
		await harness.screenshot(page, 'plans-user-1280')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('in English at 390 px the page reads in English and fits the screen', async () => {
		const opened = await harness.open('/plan', { as: asBuyer(), language: 'en', width: 390, theme: 'dark' })
		const { page } = opened
		await page.getByRole('heading', { name: 'My subscriptions' }).waitFor({ timeout: STEP_TIMEOUT })
		await page.getByText('Every 5 h').first().waitFor({ timeout: STEP_TIMEOUT })
		await page.getByText('Every 7 d').first().waitFor({ timeout: STEP_TIMEOUT })
		await page.getByRole('button', { name: 'Buy with balance' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByRole('button', { name: 'Buy with balance' }).isDisabled()).toBe(true)
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		expect(await page.locator('body').textContent()).not.toMatch(/[\u4e00-\u9fff]{2}/)
		await harness.screenshot(page, 'plans-390-en-dark')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)
})
