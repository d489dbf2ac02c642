/**
 * The wallet in Chromium: an online top-up through a fake epay service on loopback (amount, live
 * payable money, method, confirm, the service's checkout page, its notify, back on /topup with the
 * new balance), redeeming a code, and the wallet's client-side messages; never a console error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { MAX_QUOTA } from '@shared/quota-limit'
import { ROLE } from '@shared/user'
import { auditLedger } from '@/billing/audit'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'
import { startFakeEpay, type FakeEpay } from '../helpers/fake-epay'

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000

type Visitor = Caller & { username: string; role: number }

describe.skipIf(!browserExecutable)('the wallet in a browser', () => {
	let harness: ConsoleHarness
	let epay: FakeEpay

	async function setOption(key: string, value: string) {
		const answer = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key, value } })
		if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
	}

	async function createVisitor(username: string): Promise<Visitor> {
		const password = 'password123'
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username, password, display_name: username } })
		if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`)
		return { ...(await harness.ferry.login(username, password)), username, role: ROLE.user }
	}

	const toast = (page: Page, text: string) => page.locator('[data-kind]').filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })
	const balance = (page: Page) => page.getByTestId('wallet-balance')

	beforeAll(async () => {
		harness = await startConsoleHarness()
		epay = startFakeEpay()
		// Set through the API as the super admin would; the server address is where the fake calls back and returns to.
		await setOption('ServerAddress', harness.origin)
		await setOption('PayAddress', epay.address)
		await setOption('EpayId', epay.merchantId)
		await setOption('EpayKey', epay.merchantKey)
		await setOption('MinTopUp', '2')
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await epay?.stop()
		await harness?.close()
	})

	test('pays an online top-up through the epay service and comes back to the new balance', async () => {
		const payer = await createVisitor('payer')
		const opened = await harness.open('/topup', { as: payer })
		const { page } = opened
		expect(await balance(page).textContent()).toBe('$0.00')

		// Below the minimum: refused on the page, with the catalogue message.
		await page.getByLabel('充值数量（美元）').fill('1')
		await page.getByTestId('pay-alipay').click()
		await toast(page, '充值数量不能小于 2')

		await page.getByLabel('充值数量（美元）').fill('5')
		await page.getByTestId('payable-amount').filter({ hasText: '¥36.50' }).waitFor({ timeout: STEP_TIMEOUT })
		await page.getByTestId('pay-alipay').click()
		const dialog = page.getByRole('alertdialog')
		await dialog.getByTestId('confirm-money').filter({ hasText: '¥36.50' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await dialog.textContent()).toContain('支付宝')
		await dialog.getByRole('button', { name: '去支付' }).click()

		// The hidden form took the browser to the payment service with a correctly signed order.
		await page.getByTestId('fake-epay-title').waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByTestId('fake-epay-money').textContent()).toBe('36.50')
		expect(await page.getByTestId('fake-epay-type').textContent()).toBe('alipay')
		expect(epay.rejectedForms).toHaveLength(0)
		const order = epay.orders.at(-1)!
		expect(order.fields).toMatchObject({ pid: epay.merchantId, name: 'TUC5', return_url: `${harness.origin}/topup`, notify_url: `${harness.origin}/api/user/epay/notify` })

		// Paying makes the service call Ferry's notify, then send the browser back.
		await page.getByTestId('fake-epay-pay').click()
		await page.waitForURL((url) => url.pathname === '/topup', { timeout: STEP_TIMEOUT })
		await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: STEP_TIMEOUT })
		expect(epay.checkoutReplies).toEqual(['success'])
		await page.locator('[data-testid="top-up-return"][data-status="success"]').waitFor({ timeout: STEP_TIMEOUT })
		expect(await balance(page).textContent()).toBe('$5.00')
		expect(await balance(page).getAttribute('data-quota')).toBe(String(5 * 500_000))
		expect(await page.locator(`[data-trade-no="${order.fields.out_trade_no}"]`).textContent()).toContain('成功')
		expect(await auditLedger(harness.ferry.store)).toEqual([])
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('redeems a code and refreshes the balance, and says what is missing for an empty code or top-up link', async () => {
		const redeemer = await createVisitor('redeemer')
		const created = await harness.ferry.call('POST', '/api/redemption/', { as: harness.root, body: { name: 'wallet', quota: 1_000_000, count: 1 } })
		if (!created.body.success) throw new Error(`creating a code failed: ${created.body.message}`)
		const [code] = created.body.data as string[]
		const opened = await harness.open('/topup', { as: redeemer })
		const { page } = opened

		await page.getByRole('button', { name: '兑换', exact: true }).click()
		await toast(page, '请输入兑换码！')
		await page.getByRole('button', { name: '获取兑换码' }).click()
		await toast(page, '超级管理员未设置充值链接！')

		await page.getByLabel('你的兑换码').fill(code!)
		await page.getByRole('button', { name: '兑换', exact: true }).click()
		await toast(page, '兑换成功！已增加额度：$2.00')
		await balance(page).filter({ hasText: '$2.00' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByLabel('你的兑换码').inputValue()).toBe('')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('refuses on the page an amount the balance cannot take under the maximum, before any order exists', async () => {
		const wealthy = await createVisitor('wealthy')
		// Two dollars (the minimum) would pass the maximum by one quota.
		const edited = await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: wealthy.userId, quota: MAX_QUOTA - 2 * 500_000 + 1 } })
		if (!edited.body.success) throw new Error(`setting the quota failed: ${edited.body.message}`)
		const ordersBefore = epay.orders.length
		const opened = await harness.open('/topup', { as: wealthy })
		const { page } = opened
		await page.getByLabel('充值数量（美元）').fill('2')
		await page.getByTestId('pay-alipay').click()
		await toast(page, '充值后余额将超过上限 $2000000000.00，无法到账')
		expect(await page.getByRole('alertdialog').count()).toBe(0)
		const { topUps } = harness.ferry.store.tables
		expect((await harness.ferry.store.db.select().from(topUps)).filter((row) => row.userId === wealthy.userId)).toHaveLength(0)
		expect(epay.orders.length).toBe(ordersBefore)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('shows a method\'s own minimum on its button and refuses a smaller amount for it on the page, while other methods take it', async () => {
		await setOption('PayMethods', '[{"name":"Alipay","type":"alipay","color":"#1677ff","min_topup":20},{"name":"WeChat Pay","type":"wxpay","color":"#07c160"}]')
		try {
			const visitor = await createVisitor('minimum')
			const opened = await harness.open('/topup', { as: visitor })
			const { page } = opened
			expect(await page.getByTestId('pay-alipay-minimum').textContent()).toBe('（最低 20）')
			expect(await page.getByTestId('pay-wxpay-minimum').count()).toBe(0)
			const ordersBefore = epay.orders.length
			await page.getByLabel('充值数量（美元）').fill('10')
			await page.getByTestId('pay-alipay').click()
			await toast(page, '充值数量不能小于 20')
			expect(await page.getByRole('alertdialog').count()).toBe(0)
			await page.getByTestId('pay-wxpay').click()
			await page.getByRole('alertdialog').waitFor({ timeout: STEP_TIMEOUT })
			expect(epay.orders.length).toBe(ordersBefore)
			expectNoErrors(opened)
			await opened.close()
		} finally {
			await setOption('PayMethods', '[{"name":"Alipay","type":"alipay","color":"#1677ff"},{"name":"WeChat Pay","type":"wxpay","color":"#07c160"}]')
		}
	}, SUITE_TIMEOUT)

	test('disables online top-up with the catalogue message when the admin has not enabled it', async () => {
		await setOption('EpayKey', '')
		try {
			const visitor = await createVisitor('browser')
			const opened = await harness.open('/topup', { as: visitor })
			const { page } = opened
			await page.getByTestId('online-top-up-card').getByText('管理员未开启在线充值！').waitFor({ timeout: STEP_TIMEOUT })
			expect(await page.getByTestId('pay-alipay').isDisabled()).toBe(true)
			expect(await page.getByLabel('充值数量（美元）').isDisabled()).toBe(true)
			expectNoErrors(opened)
			await opened.close()
		} finally {
			await setOption('EpayKey', epay.merchantKey)
		}
	}, SUITE_TIMEOUT)
})
