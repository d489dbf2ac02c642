/**
 * Plans, limits and costs in Chromium (issue 28): the super admin adds a plan in the editor (a bad
 * window is refused under its field), a user buys it from the wallet after a confirmation, and their
 * window meters show the use of calls and when each window resets; the page in English at 390 px
 * fits the screen. Elsewhere in the console: the log says which source paid, an admin sets a user's
 * limits and resets their window in the user editor, a redemption code grants a plan, a token's
 * limits and a channel's cost are saved from their editors, the pricing page shows tiered prices.
 * Never a console error.
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

	test('the log says a plan paid the call, and an admin sees what it cost', async () => {
		const opened = await harness.open('/log', { as: asBuyer() })
		const { page } = opened
		const first = page.locator('tbody tr[data-row-key]').first()
		await first.waitFor({ timeout: STEP_TIMEOUT })
		await first.getByRole('button', { name: '展开' }).click()
		expect(await page.getByTestId('log-source').textContent()).toMatch(/^套餐「Coding」（订阅 #\d+）$/)
		expect(await page.getByTestId('log-operator-cost').count()).toBe(0)
		expectNoErrors(opened)
		await opened.close()
		const admin = await harness.open('/log', { as: asRoot() })
		const row = admin.page.locator('tbody tr[data-row-key]').filter({ hasText: 'buyer' }).first()
		await row.waitFor({ timeout: STEP_TIMEOUT })
		await row.getByRole('button', { name: '展开' }).click()
		expect(await admin.page.getByTestId('log-operator-cost').textContent()).toBe('未知')
		expectNoErrors(admin)
		await admin.close()
	}, SUITE_TIMEOUT)

	test('an admin sets a user\'s call limits and resets a window of their subscription in the user editor', async () => {
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await page.locator(`tr[data-row-key="${buyer.userId}"]`).getByRole('button', { name: '编辑' }).click()
		const drawer = page.getByRole('dialog')
		await drawer.getByTestId('user-subscriptions').getByTestId('window-meter').first().waitFor({ timeout: STEP_TIMEOUT })
		await drawer.getByLabel('每分钟请求数上限').fill('-2')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, '每分钟请求数上限须为 0 到 2147483647 之间的整数（0 表示不限）')
		await drawer.getByLabel('每分钟请求数上限').fill('30')
		await drawer.getByLabel('并发上限').fill('4')
		await drawer.getByRole('button', { name: '重置此窗口' }).first().click()
		await toast(page, '用量窗口已重置')
		await drawer.getByTestId('window-reset').first().filter({ hasText: '下次调用时开始计时' }).waitFor({ timeout: STEP_TIMEOUT })
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, '用户信息更新成功')
		expect((await harness.ferry.call('GET', `/api/user/${buyer.userId}`, { as: harness.root })).body.data).toMatchObject({ rpm_limit: 30, concurrency_limit: 4, tpm_limit: 0 })
		const subscriptions = (await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: buyer })).body.data
		expect(subscriptions[0].windows[0]).toMatchObject({ used: 0, resets_at: null })
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('a redemption code made for a plan grants it to whoever redeems it in the wallet', async () => {
		const admin = await harness.open('/redemption', { as: asRoot() })
		await admin.page.getByTestId('empty-state').getByRole('button', { name: '添加兑换码' }).click()
		const drawer = admin.page.getByRole('dialog')
		await drawer.getByLabel('兑换内容').click()
		await admin.page.getByRole('option', { name: '套餐：Coding' }).click()
		expect(await drawer.getByLabel('额度（美元）').count()).toBe(0)
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(admin.page, '兑换码创建成功')
		const [code] = (await harness.ferry.call('GET', '/api/redemption/', { as: harness.root })).body.data.items
		expect(code).toMatchObject({ name: 'Coding', quota: 0, plan_id: expect.any(Number) })
		expectNoErrors(admin)
		await admin.close()

		const newcomer = await harness.ferry.createUser('newcomer')
		const wallet = await harness.open('/topup', { as: { ...newcomer, username: 'newcomer', role: ROLE.user } })
		await wallet.page.getByLabel('你的兑换码').fill(code.key)
		await wallet.page.getByRole('button', { name: '兑换', exact: true }).click()
		await toast(wallet.page, '兑换成功，已获得套餐「Coding」')
		expect((await harness.ferry.call('GET', '/api/user/self/subscriptions', { as: newcomer })).body.data).toHaveLength(1)
		expectNoErrors(wallet)
		await wallet.close()
	}, SUITE_TIMEOUT)

	test('a token\'s limits and a channel\'s cost are saved from their editors, and the pricing page shows tiered prices', async () => {
		const tokens = await harness.open('/token', { as: asBuyer() })
		await tokens.page.getByRole('button', { name: '添加令牌' }).first().click()
		const drawer = tokens.page.getByRole('dialog')
		await drawer.getByLabel('名称', { exact: true }).fill('limited')
		await drawer.getByLabel('每分钟请求数上限').fill('3')
		await drawer.getByLabel('每天请求数上限').fill('100')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(tokens.page, '令牌创建成功')
		const created = (await harness.ferry.call('GET', '/api/token/?p=1&page_size=10', { as: buyer })).body.data.items.find((token: { name: string }) => token.name === 'limited')
		expect(created).toMatchObject({ rpm_limit: 3, rpd_limit: 100, tpm_limit: 0 })
		expectNoErrors(tokens)
		await tokens.close()

		const channelId = (await harness.ferry.call('GET', '/api/channel/?p=1&page_size=10', { as: harness.root })).body.data.items[0].id
		const editor = await harness.open(`/channel/edit/${channelId}`, { as: asRoot() })
		await editor.page.getByLabel('成本倍率').fill('-1')
		await editor.page.getByRole('button', { name: '保存', exact: true }).click()
		await toast(editor.page, '成本倍率须为 0 到 10000 之间的数字，留空表示未知')
		await editor.page.getByLabel('成本倍率').fill('0.5')
		await editor.page.getByRole('button', { name: '保存', exact: true }).click()
		await editor.page.waitForURL(`${harness.origin}/channel`, { timeout: STEP_TIMEOUT })
		expect((await harness.ferry.call('GET', `/api/channel/${channelId}`, { as: harness.root })).body.data.cost_ratio).toBe(0.5)
		expectNoErrors(editor)
		await editor.close()

		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ [MODEL]: 1 }))
		await harness.ferry.dependencies.options.set('ModelPrice', '{}')
		await harness.ferry.dependencies.options.set('ModelPriceTiers', JSON.stringify({ [MODEL]: { tiers: [{ above_prompt_tokens: 200_000, model_ratio: 2, completion_ratio: 1.5 }], minimum_quota: 500 } }))
		const pricing = await harness.open('/pricing', { as: asBuyer() })
		const tiers = pricing.page.locator(`tr[data-model="${MODEL}"]`).getByTestId('price-tiers')
		await tiers.waitFor({ timeout: STEP_TIMEOUT })
		expect(await tiers.locator('li').allTextContents()).toEqual(['输入超过 200,000 tokens：提示 $4，补全 $6', '每次最低 $0.001'])
		expectNoErrors(pricing)
		await pricing.close()
	}, SUITE_TIMEOUT)
})
