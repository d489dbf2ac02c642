import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { TOP_UP_MESSAGES, TOP_UP_STATUS } from '@shared/top-up'
import { epayOrderForm, epaySign, epaySigningText, hasValidEpaySignature } from '@/api/top-ups/epay'
import { auditLedger } from '@/billing/audit'
import { MONEY_LIMIT } from '@/api/plugins/money-limit'
import { createMemoryRateLimiter } from '@/lib/rate-limiter'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startFakeEpay, type FakeEpay, type ReceivedOrder } from '../helpers/fake-epay'
import { inEnglish } from '@shared/messages'

describe('the epay signature', () => {
	const order = {
		pid: '1001', type: 'alipay', out_trade_no: 'T100', notify_url: 'http://ferry.example/api/user/epay/notify',
		return_url: 'http://ferry.example/topup', name: 'TUC1', money: '7.30',
	}

	test('signs the sorted non-empty parameters followed by the key, as MD5 in lowercase hex', () => {
		// Worked by hand: the sorted text below with "secret-key" appended, through md5sum.
		const text = 'money=7.30&name=TUC1&notify_url=http://ferry.example/api/user/epay/notify&out_trade_no=T100&pid=1001&return_url=http://ferry.example/topup&type=alipay'
		expect(epaySigningText(order)).toBe(text)
		expect(epaySign(order, 'secret-key')).toBe('125c906beabe631277f476d84f8f31c6')
	})

	test('leaves sign, sign_type and empty values out of the signed text', () => {
		expect(epaySign({ ...order, sign: 'whatever', sign_type: 'MD5', param: '' }, 'secret-key')).toBe('125c906beabe631277f476d84f8f31c6')
	})

	test('builds the order form with its signature and accepts only that signature back', () => {
		const form = epayOrderForm({
			merchantId: '1001', merchantKey: 'secret-key', paymentMethod: 'alipay', tradeNo: 'T100', name: 'TUC1', money: '7.30',
			notifyUrl: order.notify_url, returnUrl: order.return_url,
		})
		expect(form).toEqual({ ...order, sign: '125c906beabe631277f476d84f8f31c6', sign_type: 'MD5' })
		expect(hasValidEpaySignature(form, 'secret-key')).toBe(true)
		expect(hasValidEpaySignature(form, 'another-key')).toBe(false)
		expect(hasValidEpaySignature({ ...form, money: '0.01' }, 'secret-key')).toBe(false)
		expect(hasValidEpaySignature({ ...form, sign: '' }, 'secret-key')).toBe(false)
	})
})

for (const target of databaseTargets()) {
	describe(`online top-up on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let alice: Caller
		let epay: FakeEpay
		let baseUrl: string
		/** The rate limiter's clock, in milliseconds: a test moves it to end a window. */
		let limiterTime: number

		beforeEach(async () => {
			limiterTime = 1_000_000
			ferry = await createTestApp(target, { rateLimiter: createMemoryRateLimiter(() => limiterTime) })
			root = await ferry.loginRoot()
			alice = await ferry.createUser('alice')
			// The fake epay calls Ferry's notify URL over loopback HTTP, as the real service would.
			ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
			baseUrl = `http://127.0.0.1:${ferry.app.server!.port}`
			epay = startFakeEpay()
		})
		afterEach(async () => {
			await ferry.app.stop(true)
			await epay.stop()
			await ferry.close()
		})

		async function setOption(key: string, value: string) {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value } })
			if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
		}
		async function enableEpay() {
			await setOption('ServerAddress', baseUrl)
			await setOption('PayAddress', epay.address)
			await setOption('EpayId', epay.merchantId)
			await setOption('EpayKey', epay.merchantKey)
		}
		const amount = (as: Caller, body: Record<string, unknown>) => ferry.call('POST', '/api/user/amount', { as, body })
		const pay = (as: Caller, body: Record<string, unknown>) => ferry.call('POST', '/api/user/pay', { as, body })
		const quotaOf = async (as: Caller) => (await ferry.call('GET', '/api/user/self', { as })).body.data.quota as number
		async function topUpRows() {
			return ferry.store.db.select().from(ferry.store.tables.topUps)
		}
		async function topUpLogs(userId: number) {
			const { logs } = ferry.store.tables
			return (await ferry.store.db.select().from(logs).where(eq(logs.userId, userId))).filter((log) => log.type === LOG_TYPE.topUp)
		}

		/** Pays through Ferry and submits the answered form to the fake service, as the wallet page does. */
		async function payAndSubmit(as: Caller, body: Record<string, unknown>): Promise<ReceivedOrder> {
			const answer = await pay(as, body)
			if (!answer.body.success) throw new Error(`pay failed: ${answer.body.message}`)
			const url = (answer.body as unknown as { url: string }).url
			const submitted = await fetch(url, { method: 'POST', body: new URLSearchParams(answer.body.data as Record<string, string>) })
			expect(submitted.status).toBe(200)
			return epay.orders.at(-1)!
		}

		describe('pricing', () => {
			test('answers the payable money for an amount in dollars at Price × the group ratio, with two decimals', async () => {
				await enableEpay()
				expect((await amount(alice, { amount: 10 })).body).toEqual({ success: true, message: 'success', data: '73.00' })
				await setOption('TopupGroupRatio', '{"default":1.5,"vip":0.8}')
				await setOption('Price', '7')
				expect((await amount(alice, { amount: 3, top_up_code: '' })).body.data).toBe('31.50')
			})

			test('uses ratio 1 for a group TopupGroupRatio does not name', async () => {
				await enableEpay()
				await setOption('TopupGroupRatio', '{"vip":2}')
				expect((await amount(alice, { amount: 2 })).body.data).toBe('14.60')
			})

			test('refuses an amount below MinTopUp with the minimum in the message', async () => {
				await enableEpay()
				await setOption('MinTopUp', '5')
				expect((await amount(alice, { amount: 4 })).body).toEqual({ success: false, message: 'top-up amount cannot be less than 5' })
				expect((await pay(alice, { amount: 4, payment_method: 'alipay' })).body.message).toBe('top-up amount cannot be less than 5')
				expect((await amount(alice, { amount: 5 })).body.data).toBe('36.50')
			})

			test('applies a method\'s own min_topup when it is larger than MinTopUp, in the caller\'s language, and MinTopUp when it is smaller', async () => {
				await enableEpay()
				await setOption('MinTopUp', '5')
				// new-api writes min_topup as numeric text; both forms are read.
				await setOption('PayMethods', '[{"name":"Alipay","type":"alipay","min_topup":20},{"name":"Card","type":"card","min_topup":"50"},{"name":"WeChat Pay","type":"wxpay","min_topup":2}]')
				expect((await pay(alice, { amount: 19, payment_method: 'alipay' })).body).toEqual({ success: false, message: 'top-up amount cannot be less than 20' })
				expect((await amount(alice, { amount: 19, payment_method: 'alipay' })).body.message).toBe('top-up amount cannot be less than 20')
				const chinese = await ferry.call('POST', '/api/user/pay', { as: alice, body: { amount: 49, payment_method: 'card' }, headers: { 'accept-language': 'zh-CN' } })
				expect(chinese.body).toEqual({ success: false, message: '充值数量不能小于 50' })
				// Without a method the general minimum applies; a smaller method minimum does not lower it.
				expect((await amount(alice, { amount: 19 })).body.success).toBe(true)
				expect((await pay(alice, { amount: 4, payment_method: 'wxpay' })).body.message).toBe('top-up amount cannot be less than 5')
				expect((await pay(alice, { amount: 20, payment_method: 'alipay' })).body.success).toBe(true)
				expect((await pay(alice, { amount: 5, payment_method: 'wxpay' })).body.success).toBe(true)
				expect((await amount(alice, { amount: 20, payment_method: 'bitcoin' })).body.message).toBe(inEnglish(TOP_UP_MESSAGES.paymentMethodNotAllowed))
			})

			test('a method\'s minimum is in dollars like MinTopUp, so it is counted in quota when the console does not display currency', async () => {
				await enableEpay()
				await setOption('DisplayInCurrencyEnabled', 'false')
				await setOption('PayMethods', '[{"name":"Alipay","type":"alipay","min_topup":3}]')
				expect((await pay(alice, { amount: 1_000_000, payment_method: 'alipay' })).body.message).toBe('top-up amount cannot be less than 1500000')
				expect((await pay(alice, { amount: 1_500_000, payment_method: 'alipay' })).body.success).toBe(true)
			})

			test('reads the amount as quota when the console does not display currency', async () => {
				await enableEpay()
				await setOption('DisplayInCurrencyEnabled', 'false')
				await setOption('MinTopUp', '2')
				expect((await amount(alice, { amount: 500_000 })).body.message).toBe('top-up amount cannot be less than 1000000')
				expect((await amount(alice, { amount: 1_500_000 })).body.data).toBe('21.90')
				expect((await amount(alice, { amount: 1_200_000 })).body.message).toBe('top-up amount must be a multiple of 500000')
			})

			test('refuses amounts that are not whole numbers', async () => {
				await enableEpay()
				const answer = await amount(alice, { amount: 1.5 })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe(inEnglish(TOP_UP_MESSAGES.amountNotInteger))
				expect((await amount(alice, { amount: 'ten' })).body.success).toBe(false)
			})

			test('says online top-up is off until the merchant id, key and pay address are all set', async () => {
				expect((await amount(alice, { amount: 10 })).body).toEqual({ success: false, message: inEnglish(TOP_UP_MESSAGES.onlineTopUpDisabled) })
				expect((await pay(alice, { amount: 10, payment_method: 'alipay' })).body).toEqual({ success: false, message: inEnglish(TOP_UP_MESSAGES.onlineTopUpDisabled) })
				await setOption('ServerAddress', baseUrl)
				await setOption('EpayId', epay.merchantId)
				await setOption('EpayKey', epay.merchantKey)
				expect((await ferry.call('GET', '/api/status')).body.data.enable_online_topup).toBe(false)
				await setOption('PayAddress', epay.address)
				expect((await ferry.call('GET', '/api/status')).body.data.enable_online_topup).toBe(true)
				expect((await amount(alice, { amount: 10 })).body.success).toBe(true)
				expect(await topUpRows()).toHaveLength(0)
			})

			test('needs a login', async () => {
				expect((await ferry.call('POST', '/api/user/amount', { body: { amount: 10 } })).status).toBe(401)
			})
		})

		describe('starting a payment', () => {
			test('answers the signed epay form and the submit URL, and records a pending order', async () => {
				await enableEpay()
				await setOption('CustomCallbackAddress', 'https://callback.example/')
				const answer = await pay(alice, { amount: 10, payment_method: 'wxpay' })
				expect(answer.body).toMatchObject({ success: true, message: 'success', url: `${epay.address}/submit.php` })
				const form = answer.body.data as Record<string, string>
				expect(form).toMatchObject({
					pid: epay.merchantId, type: 'wxpay', name: 'TUC10', money: '73.00', sign_type: 'MD5',
					notify_url: 'https://callback.example/api/user/epay/notify', return_url: `${baseUrl}/topup`,
				})
				expect(form.sign).toBe(epaySign(form, epay.merchantKey))
				expect(JSON.stringify(answer.body)).not.toContain(epay.merchantKey)
				const [order] = await topUpRows()
				expect(order).toMatchObject({ userId: alice.userId, amount: 10, money: 73, quota: 10 * 500_000, tradeNo: form.out_trade_no, paymentMethod: 'wxpay', status: TOP_UP_STATUS.pending, completeTime: 0 })
			})

			test('gives every order its own trade number', async () => {
				await enableEpay()
				const first = await pay(alice, { amount: 1, payment_method: 'alipay' })
				const second = await pay(alice, { amount: 1, payment_method: 'alipay' })
				expect(first.body.data.out_trade_no).not.toBe(second.body.data.out_trade_no)
			})

			test('refuses a payment method that PayMethods does not list', async () => {
				await enableEpay()
				expect((await pay(alice, { amount: 10, payment_method: 'bitcoin' })).body).toEqual({ success: false, message: inEnglish(TOP_UP_MESSAGES.paymentMethodNotAllowed) })
				await setOption('PayMethods', '[{"name":"Bitcoin","type":"bitcoin","color":"#f7931a"}]')
				expect((await pay(alice, { amount: 10, payment_method: 'bitcoin' })).body.success).toBe(true)
				expect((await pay(alice, { amount: 10, payment_method: 'alipay' })).body.message).toBe(inEnglish(TOP_UP_MESSAGES.paymentMethodNotAllowed))
			})

			test('refuses a payment without a method', async () => {
				await enableEpay()
				const answer = await pay(alice, { amount: 10 })
				expect(answer.body).toEqual({ success: false, message: inEnglish(TOP_UP_MESSAGES.paymentMethodRequired) })
			})
		})

		describe('the epay round trip', () => {
			test('credits the paid quota once: replays, bad signatures and changed amounts change nothing', async () => {
				await enableEpay()
				const before = await quotaOf(alice)
				const order = await payAndSubmit(alice, { amount: 10, payment_method: 'alipay' })
				expect(epay.rejectedForms).toHaveLength(0)

				// A bad signature and a changed amount, before and after the real notify: refused.
				expect(await epay.notify(order, { sign: '0'.repeat(32) })).toEqual({ status: 200, text: 'fail' })
				expect(await epay.notify(order, { money: '0.01' })).toEqual({ status: 200, text: 'fail' })
				expect(await epay.notify(order, { signingKey: 'someone-else' })).toEqual({ status: 200, text: 'fail' })
				expect(await quotaOf(alice)).toBe(before)

				expect(await epay.notify(order)).toEqual({ status: 200, text: 'success' })
				const paid = 10 * 500_000
				expect(await quotaOf(alice)).toBe(before + paid)

				for (let replay = 0; replay < 10; replay++) expect((await epay.notify(order, { method: replay % 2 ? 'POST' : 'GET' })).text).toBe('success')
				const concurrent = await Promise.all(Array.from({ length: 10 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
				expect(concurrent.map((reply) => reply.text)).toEqual(Array(10).fill('success'))
				expect(await epay.notify(order, { money: '730.00' })).toEqual({ status: 200, text: 'fail' })
				expect(await epay.notify(order, { sign: 'bad' })).toEqual({ status: 200, text: 'fail' })

				expect(await quotaOf(alice)).toBe(before + paid)
				const logs = await topUpLogs(alice.userId)
				expect(logs).toHaveLength(1)
				expect(logs[0]).toMatchObject({ quota: paid })
				expect(logs[0]!.content).toContain(order.fields.out_trade_no!)
				expect(logs[0]!.content).toContain('alipay')
				expect(logs[0]!.content).not.toContain(epay.merchantKey)
				const [record] = await topUpRows()
				expect(record!.status).toBe(TOP_UP_STATUS.success)
				expect(record!.completeTime).toBeGreaterThan(0)
				expect(await auditLedger(ferry.store)).toEqual([])
			})

			test('credits concurrent first notifies of one trade exactly once', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 3, payment_method: 'wxpay' })
				const replies = await Promise.all(Array.from({ length: 10 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
				expect(replies.map((reply) => reply.text)).toEqual(Array(10).fill('success'))
				expect(await quotaOf(alice)).toBe(3 * 500_000)
				expect(await topUpLogs(alice.userId)).toHaveLength(1)
				expect(await auditLedger(ferry.store)).toEqual([])
			})

			test('credits units × QuotaPerUnit whatever the group ratio made the money', async () => {
				await enableEpay()
				await setOption('TopupGroupRatio', '{"default":2}')
				const order = await payAndSubmit(alice, { amount: 4, payment_method: 'alipay' })
				expect(order.fields.money).toBe('58.40')
				expect((await epay.notify(order)).text).toBe('success')
				expect(await quotaOf(alice)).toBe(4 * 500_000)
			})

			test('credits the quota the order promised when it was opened, once, though QuotaPerUnit and the prices changed before the notify', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 10, payment_method: 'alipay' })
				const promised = 10 * 500_000
				expect((await topUpRows())[0]!.quota).toBe(promised)
				// The admin reprices while the payer is at the payment service.
				await setOption('QuotaPerUnit', '1000000')
				await setOption('Price', '1')
				await setOption('TopupGroupRatio', '{"default":3}')

				expect(await epay.notify(order)).toEqual({ status: 200, text: 'success' })
				expect(await quotaOf(alice)).toBe(promised)
				for (let replay = 0; replay < 5; replay++) expect((await epay.notify(order, { method: replay % 2 ? 'POST' : 'GET' })).text).toBe('success')
				const concurrent = await Promise.all(Array.from({ length: 6 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
				expect(concurrent.map((reply) => reply.text)).toEqual(Array(6).fill('success'))

				expect(await quotaOf(alice)).toBe(promised)
				const logs = await topUpLogs(alice.userId)
				expect(logs).toHaveLength(1)
				expect(logs[0]).toMatchObject({ quota: promised })
				expect(await auditLedger(ferry.store)).toEqual([])
			})

			test('credits concurrent first notifies of an order opened before a QuotaPerUnit change exactly once, at the promised quota', async () => {
				await enableEpay()
				await setOption('DisplayInCurrencyEnabled', 'false')
				const order = await payAndSubmit(alice, { amount: 1_500_000, payment_method: 'wxpay' })
				await setOption('QuotaPerUnit', '250000')
				const replies = await Promise.all(Array.from({ length: 10 }, (_, index) => epay.notify(order, { method: index % 2 ? 'POST' : 'GET' })))
				expect(replies.map((reply) => reply.text)).toEqual(Array(10).fill('success'))
				expect(await quotaOf(alice)).toBe(1_500_000)
				expect(await topUpLogs(alice.userId)).toHaveLength(1)
				expect(await auditLedger(ferry.store)).toEqual([])
			})

			test('credits an order recorded without its promised quota (opened before Ferry recorded it) at today\'s QuotaPerUnit, once', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 2, payment_method: 'alipay' })
				const { topUps } = ferry.store.tables
				await ferry.store.db.update(topUps).set({ quota: null }).where(eq(topUps.tradeNo, order.fields.out_trade_no!))
				await setOption('QuotaPerUnit', '600000')
				expect((await epay.notify(order)).text).toBe('success')
				expect((await epay.notify(order)).text).toBe('success')
				expect(await quotaOf(alice)).toBe(2 * 600_000)
				expect(await topUpLogs(alice.userId)).toHaveLength(1)
				expect(await auditLedger(ferry.store)).toEqual([])
			})

			test('leaves an order pending when only refused notifies arrived', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 2, payment_method: 'alipay' })
				expect((await epay.notify(order, { tradeStatus: 'WAIT_BUYER_PAY' })).text).toBe('fail')
				expect((await epay.notify(order, { money: '14.61' })).text).toBe('fail')
				expect((await epay.notify(order, { sign: epaySign(order.fields, epay.merchantKey) })).text).toBe('fail')
				expect((await topUpRows())[0]!.status).toBe(TOP_UP_STATUS.pending)
				expect(await quotaOf(alice)).toBe(0)
				expect(await topUpLogs(alice.userId)).toHaveLength(0)
			})

			test('answers fail for an unknown trade, another merchant, or no parameters, and never 500', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 2, payment_method: 'alipay' })
				const unknown = { ...order, fields: { ...order.fields, out_trade_no: 'NO-SUCH-TRADE' } }
				expect((await epay.notify(unknown)).text).toBe('fail')
				const otherMerchant = startFakeEpay({ merchantId: '2002', merchantKey: epay.merchantKey })
				try {
					expect((await otherMerchant.notify(order)).text).toBe('fail')
				} finally {
					await otherMerchant.stop()
				}
				for (const request of [
					new Request(`${baseUrl}/api/user/epay/notify`),
					new Request(`${baseUrl}/api/user/epay/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"pid":' }),
					new Request(`${baseUrl}/api/user/epay/notify?pid=1&pid=2`),
				]) {
					const response = await fetch(request)
					expect(response.status).toBe(200)
					expect(response.headers.get('content-type')).toStartWith('text/plain')
					expect(await response.text()).toBe('fail')
				}
				expect(await quotaOf(alice)).toBe(0)
			})

			test('answers fail to every notify while online top-up is not configured', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 2, payment_method: 'alipay' })
				await setOption('EpayKey', '')
				expect((await epay.notify(order)).text).toBe('fail')
				expect(await quotaOf(alice)).toBe(0)
			})
		})

		describe('the money calls\' limit', () => {
			test('refuses a user\'s money calls past the limit with a 429 in the caller\'s language, for every money call, until the window ends', async () => {
				await enableEpay()
				const bob = await ferry.createUser('bob')
				const { limit, windowSeconds } = MONEY_LIMIT
				// Opening orders and failed redemptions count alike, in one window per user.
				for (let index = 0; index < limit; index++) {
					const answer = index % 2
						? await pay(alice, { amount: 1, payment_method: 'alipay' })
						: await ferry.call('POST', '/api/user/topup', { as: alice, body: { key: 'no-such-code' } })
					expect(answer.status).toBe(200)
				}
				const refused = await pay(alice, { amount: 1, payment_method: 'alipay' })
				expect(refused.status).toBe(429)
				expect(refused.body).toEqual({ success: false, message: `too many top-ups, payments and redemptions (at most ${limit} every ${windowSeconds / 60} minutes), try later` })
				const chinese = await ferry.call('POST', '/api/user/topup', { as: alice, body: { key: 'no-such-code' }, headers: { 'accept-language': 'zh-CN' } })
				expect(chinese.status).toBe(429)
				expect(chinese.body).toEqual({ success: false, message: `充值、支付与兑换操作过于频繁（每 ${windowSeconds / 60} 分钟最多 ${limit} 次），请稍后再试` })
				for (const [path, body] of [['/api/plan/1/pay', { payment_method: 'alipay' }], ['/api/plan/1/purchase', undefined], ['/api/user/aff_transfer', { quota: 500_000 }]] as const) {
					expect((await ferry.call('POST', path, { as: alice, body })).status).toBe(429)
				}
				expect(await topUpRows()).toHaveLength(limit / 2)

				// Other users, and alice's calls that move no money, are not limited.
				expect((await pay(bob, { amount: 1, payment_method: 'alipay' })).body.success).toBe(true)
				expect((await amount(alice, { amount: 1 })).body.success).toBe(true)
				expect((await ferry.call('GET', '/api/user/topup/self', { as: alice })).status).toBe(200)

				// The refusals counted too, so the window is still spent a second before it ends; then it starts over.
				limiterTime += windowSeconds * 1000 - 1000
				expect((await pay(alice, { amount: 1, payment_method: 'alipay' })).status).toBe(429)
				limiterTime += 1000
				expect((await pay(alice, { amount: 1, payment_method: 'alipay' })).body.success).toBe(true)
				expect(await topUpRows()).toHaveLength(limit / 2 + 2)
			})

			test('does not limit the payment service\'s notify calls', async () => {
				await enableEpay()
				const order = await payAndSubmit(alice, { amount: 1, payment_method: 'alipay' })
				for (let index = 0; index < MONEY_LIMIT.limit + 5; index++) expect((await epay.notify(order)).text).toBe('success')
				expect(await quotaOf(alice)).toBe(500_000)
			})
		})

		describe('the caller\'s top-up records', () => {
			test('lists only the caller\'s orders, newest first, paged, and finds one by trade number', async () => {
				await enableEpay()
				const bob = await ferry.createUser('bob')
				const first = await payAndSubmit(alice, { amount: 1, payment_method: 'alipay' })
				await payAndSubmit(alice, { amount: 2, payment_method: 'wxpay' })
				await payAndSubmit(bob, { amount: 3, payment_method: 'alipay' })
				await epay.notify(first)

				const list = await ferry.call('GET', '/api/user/topup/self?p=1&page_size=10', { as: alice })
				expect(list.body.data).toMatchObject({ page: 1, page_size: 10, total: 2 })
				expect(list.body.data.items.map((item: { amount: number }) => item.amount)).toEqual([2, 1])
				expect(list.body.data.items[1]).toMatchObject({ status: TOP_UP_STATUS.success, money: 7.3, payment_method: 'alipay', trade_no: first.fields.out_trade_no })
				expect(list.body.data.items[0].status).toBe(TOP_UP_STATUS.pending)

				const found = await ferry.call('GET', `/api/user/topup/self?trade_no=${first.fields.out_trade_no}`, { as: alice })
				expect(found.body.data.items).toHaveLength(1)
				const foreign = await ferry.call('GET', `/api/user/topup/self?trade_no=${first.fields.out_trade_no}`, { as: bob })
				expect(foreign.body.data).toMatchObject({ items: [], total: 0 })
			})
		})
	})
}
