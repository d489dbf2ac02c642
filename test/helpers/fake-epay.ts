/**
 * A fake epay payment service ("彩虹易支付" V1 MD5 interface) on loopback. Its signing is written
 * here independently of Ferry's, from the protocol: every parameter except `sign`, `sign_type` and
 * empty ones, sorted by key, joined `k=v&…`, the merchant key appended, MD5 in lowercase hex.
 *
 * - `GET|POST /submit.php` receives the order form a browser submits, checks its signature and
 *   merchant id, records it and answers a checkout page (400 `sign error` when the form is bad).
 * - The checkout page's button posts to `/pay/<out_trade_no>`: the fake calls Ferry's notify URL
 *   like the real service, then sends the browser back to the order's `return_url`.
 * - Tests call `notify(order, changes)` to send valid, replayed, badly signed or altered notifies.
 */

export interface ReceivedOrder {
	/** The submitted form fields as received. */
	fields: Record<string, string>
	/** The service's own trade number, sent back in notifies. */
	serviceTradeNo: string
}

export interface NotifyChanges {
	/** Another amount than the order's, signed correctly (a changed amount). */
	money?: string
	tradeStatus?: string
	/** Replaces the computed signature (a bad signature). */
	sign?: string
	/** Signs with this key instead of the merchant's. */
	signingKey?: string
	/** GET with a query string (default) or POST with a form body, as epay services do either. */
	method?: 'GET' | 'POST'
}

export interface FakeEpay {
	/** `http://127.0.0.1:<port>`, the value of `PayAddress`. */
	address: string
	merchantId: string
	merchantKey: string
	/** Valid orders, oldest first. */
	orders: ReceivedOrder[]
	/** Forms refused for a bad signature or merchant id. */
	rejectedForms: Record<string, string>[]
	/** Calls the order's notify URL and answers Ferry's reply text. */
	notify(order: ReceivedOrder, changes?: NotifyChanges): Promise<{ status: number; text: string }>
	/** Notify answers Ferry gave to checkouts made through the page's button. */
	checkoutReplies: string[]
	stop(): Promise<void>
}

export function epayTestSign(parameters: Record<string, string>, key: string): string {
	const text = Object.keys(parameters)
		.filter((name) => name !== 'sign' && name !== 'sign_type' && parameters[name] !== '')
		.sort()
		.map((name) => `${name}=${parameters[name]}`)
		.join('&')
	return new Bun.CryptoHasher('md5').update(text + key).digest('hex')
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

function checkoutPage(order: ReceivedOrder): string {
	const { fields } = order
	return `<!doctype html><html><head><meta charset="utf-8"><title>Fake epay checkout</title></head><body>
<h1 data-testid="fake-epay-title">Fake epay checkout</h1>
<p>Order <span data-testid="fake-epay-trade">${escapeHtml(fields.out_trade_no ?? '')}</span>:
<span data-testid="fake-epay-name">${escapeHtml(fields.name ?? '')}</span>,
<span data-testid="fake-epay-money">${escapeHtml(fields.money ?? '')}</span> via
<span data-testid="fake-epay-type">${escapeHtml(fields.type ?? '')}</span></p>
<form method="post" action="/pay/${encodeURIComponent(fields.out_trade_no ?? '')}"><button type="submit" data-testid="fake-epay-pay">Pay</button></form>
</body></html>`
}

async function formFields(request: Request): Promise<Record<string, string>> {
	const url = new URL(request.url)
	const text = request.method === 'POST' ? await request.text() : url.search.slice(1)
	return Object.fromEntries(new URLSearchParams(text))
}

export function startFakeEpay({ merchantId = '1001', merchantKey = 'fake-epay-merchant-key' } = {}): FakeEpay {
	const orders: ReceivedOrder[] = []
	const rejectedForms: Record<string, string>[] = []
	const checkoutReplies: string[] = []
	let sequence = 0

	function noticeParameters(order: ReceivedOrder, changes: NotifyChanges): Record<string, string> {
		const { fields } = order
		const parameters: Record<string, string> = {
			pid: merchantId,
			trade_no: order.serviceTradeNo,
			out_trade_no: fields.out_trade_no ?? '',
			type: fields.type ?? '',
			name: fields.name ?? '',
			money: changes.money ?? fields.money ?? '',
			trade_status: changes.tradeStatus ?? 'TRADE_SUCCESS',
		}
		parameters.sign = changes.sign ?? epayTestSign(parameters, changes.signingKey ?? merchantKey)
		parameters.sign_type = 'MD5'
		return parameters
	}

	async function notify(order: ReceivedOrder, changes: NotifyChanges = {}) {
		const parameters = new URLSearchParams(noticeParameters(order, changes))
		const target = order.fields.notify_url!
		const response = changes.method === 'POST'
			? await fetch(target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: parameters.toString() })
			: await fetch(`${target}?${parameters}`)
		return { status: response.status, text: await response.text() }
	}

	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const url = new URL(request.url)
			if (url.pathname === '/submit.php') {
				const fields = await formFields(request)
				if (!fields.sign || fields.pid !== merchantId || epayTestSign(fields, merchantKey) !== fields.sign) {
					rejectedForms.push(fields)
					return new Response('sign error', { status: 400 })
				}
				sequence += 1
				const order = { fields, serviceTradeNo: `EPAY${Date.now()}${sequence}` }
				orders.push(order)
				return new Response(checkoutPage(order), { headers: { 'content-type': 'text/html; charset=utf-8' } })
			}
			// Browsers ask for one on the checkout page; a 404 would show as a console error.
			if (url.pathname === '/favicon.ico') return new Response(null, { status: 204 })
			const paid = url.pathname.match(/^\/pay\/(.+)$/)
			if (paid && request.method === 'POST') {
				const order = orders.find((candidate) => candidate.fields.out_trade_no === decodeURIComponent(paid[1]!))
				if (!order) return new Response('no such order', { status: 404 })
				const reply = await notify(order, { method: 'POST' })
				checkoutReplies.push(reply.text)
				const back = new URL(order.fields.return_url!)
				for (const [name, value] of Object.entries(noticeParameters(order, {}))) back.searchParams.set(name, value)
				return Response.redirect(back.toString(), 302)
			}
			return new Response('not found', { status: 404 })
		},
	})

	return {
		address: `http://127.0.0.1:${server.port}`,
		merchantId,
		merchantKey,
		orders,
		rejectedForms,
		checkoutReplies,
		notify,
		stop: async () => {
			await server.stop(true)
		},
	}
}
