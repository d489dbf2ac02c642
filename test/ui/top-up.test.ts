/** The wallet page rendered by the server for a signed-in user, through a real app on SQLite. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { epaySign } from '@/api/top-ups/epay'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { hydrationData, markup, renderPage } from './page'

const RENDER_TIMEOUT = 60_000
const MERCHANT_KEY = 'wallet-page-merchant-key'

/** The page's text, tags stripped, so assertions read like the page. */
const text = (html: string) => markup(html).replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, '\'').replace(/\s+/g, ' ')

describe('the wallet page, rendered on the server', () => {
	let ferry: TestApp
	let root: Caller
	let alice: Caller
	let bob: Caller
	let paidTrade: string
	let pendingTrade: string
	let bobsTrade: string

	const render = (path: string, caller: Caller | undefined, language?: 'en') => renderPage(ferry, path, [caller?.cookie, language && `language=${language}`, 'tz=UTC'])
	const setOption = (key: string, value: string) => ferry.call('PUT', '/api/option/', { as: root, body: { key, value } })

	async function configureEpay() {
		await setOption('ServerAddress', 'https://ferry.example')
		await setOption('PayAddress', 'https://pay.example')
		await setOption('EpayId', '1001')
		await setOption('EpayKey', MERCHANT_KEY)
	}

	async function order(as: Caller, amount: number) {
		const answer = await ferry.call('POST', '/api/user/pay', { as, body: { amount, payment_method: 'alipay' } })
		if (!answer.body.success) throw new Error(`pay failed: ${answer.body.message}`)
		return answer.body.data as Record<string, string>
	}

	/** The payment service's signed notify for a paid order. */
	async function notifyPaid(form: Record<string, string>) {
		const parameters: Record<string, string> = {
			pid: form.pid!, trade_no: 'SERVICE-1', out_trade_no: form.out_trade_no!, type: form.type!, name: form.name!, money: form.money!, trade_status: 'TRADE_SUCCESS',
		}
		const query = new URLSearchParams({ ...parameters, sign: epaySign(parameters, MERCHANT_KEY), sign_type: 'MD5' })
		const response = await ferry.app.handle(new Request(`http://localhost/api/user/epay/notify?${query}`))
		expect(await response.text()).toBe('success')
	}

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		root = await ferry.loginRoot()
		alice = await ferry.createUser('alice')
		bob = await ferry.createUser('bob')
		await configureEpay()
		const paid = await order(alice, 3)
		paidTrade = paid.out_trade_no!
		await notifyPaid(paid)
		pendingTrade = (await order(alice, 7)).out_trade_no!
		bobsTrade = (await order(bob, 5)).out_trade_no!
	}, RENDER_TIMEOUT)

	afterAll(() => ferry.close())

	test('shows the balance in dollars, the used quota, the request count and the latest orders', async () => {
		const { status, html } = await render('/topup', alice)
		expect(status).toBe(200)
		expect(html).toContain('data-testid="wallet-balance" data-quota="1500000">$3.00<')
		expect(html).toContain('data-testid="wallet-used-quota" data-quota="0">$0.00<')
		const page = text(html)
		expect(page).toContain('兑换余额')
		expect(page).toContain('获取兑换码')
		expect(page).toContain('在线充值')
		expect(page).toContain('最低充值 1')
		const records = markup(html).slice(markup(html).indexOf('data-testid="top-up-records"'))
		expect(records.indexOf(pendingTrade)).toBeGreaterThan(-1)
		expect(records.indexOf(pendingTrade)).toBeLessThan(records.indexOf(paidTrade))
		expect(text(records)).toContain('¥51.10')
		expect(text(records)).toContain('待支付')
		expect(text(records)).toContain('成功')
		expect(html).not.toContain(bobsTrade)
		expect(html).not.toContain(MERCHANT_KEY)
	}, RENDER_TIMEOUT)

	test('offers one button per payment method, in its colour, named in the console\'s language', async () => {
		const { html } = await render('/topup', alice)
		expect(html).toMatch(/<button[^>]*data-testid="pay-alipay"[^>]*style="background-color:#1677ff;color:#fff"[^>]*>支付宝<\/button>/)
		expect(html).toMatch(/data-testid="pay-wxpay"[^>]*>微信支付</)
		expect(text(html)).not.toContain('管理员未开启在线充值！')
	}, RENDER_TIMEOUT)

	test('shows the balance as quota when the server does not display currency', async () => {
		await setOption('DisplayInCurrencyEnabled', 'false')
		try {
			const { html } = await render('/topup', alice)
			expect(html).toContain('data-testid="wallet-balance" data-quota="1500000">1.5M<')
			expect(text(html)).toContain('最低充值 500000')
			expect(text(html)).toContain('充值数量（额度）')
		} finally {
			await setOption('DisplayInCurrencyEnabled', 'true')
		}
	}, RENDER_TIMEOUT)

	test('says online top-up is off and disables it until the admin configures epay', async () => {
		await setOption('PayAddress', '')
		try {
			const { html } = await render('/topup', alice)
			expect(text(html)).toContain('管理员未开启在线充值！')
			expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="pay-alipay"|<button[^>]*data-testid="pay-alipay"[^>]*disabled=""/)
			expect(html).toMatch(/<input[^>]*id="top-up-amount"[^>]*disabled=""|<input[^>]*disabled=""[^>]*id="top-up-amount"/)
		} finally {
			await setOption('PayAddress', 'https://pay.example')
		}
	}, RENDER_TIMEOUT)

	test('back from the payment service, shows the order as Ferry recorded it, whatever the query says', async () => {
		const paid = await render(`/topup?out_trade_no=${paidTrade}&trade_status=TRADE_SUCCESS`, alice)
		expect(paid.html).toMatch(/data-testid="top-up-return" data-status="success"/)
		expect(text(paid.html)).toContain('支付成功，额度已到账')

		const pending = await render(`/topup?out_trade_no=${pendingTrade}&trade_status=TRADE_SUCCESS&money=1`, alice)
		expect(pending.html).toMatch(/data-testid="top-up-return" data-status="pending"/)
		expect(text(pending.html)).toContain('正在等待支付结果，请稍后刷新')

		const foreign = await render(`/topup?out_trade_no=${bobsTrade}&trade_status=TRADE_SUCCESS`, alice)
		expect(foreign.html).toMatch(/data-testid="top-up-return" data-status="unknown"/)
		expect(text(foreign.html)).toContain('未找到该订单')
		expect(hydrationData(foreign.html).loaderData['topup']?.returned).toEqual({ tradeNo: bobsTrade, record: null })
	}, RENDER_TIMEOUT)

	test('renders in English', async () => {
		const { html } = await render('/topup', alice, 'en')
		const page = text(html)
		expect(page).toContain('Redeem a code')
		expect(page).toContain('Online top-up')
		expect(page).toContain('Top-up records')
	}, RENDER_TIMEOUT)

	test('sends a visitor without a session to the login page', async () => {
		const { status, response } = await render('/topup', undefined)
		expect(status).toBe(302)
		expect(response.headers.get('location')).toBe('/login')
	}, RENDER_TIMEOUT)
})
