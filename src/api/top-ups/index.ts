import { Elysia } from 'elysia'
import { topUpAmountSchema, topUpListQuerySchema, topUpPaySchema, EPAY_REPLY, type TopUpPayAnswer } from '@shared/top-up'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { ok } from '../respond'
import { handleEpayNotify, listOwnTopUps, payableAmount, startPayment } from './service'

/** Notify parameters: the form body of a POST, else the query string. */
function notifyParameters(request: Request, body: unknown): Record<string, string> | undefined {
	if (typeof body === 'string' && body.trim()) return uniqueParameters(new URLSearchParams(body))
	return uniqueParameters(new URL(request.url).searchParams)
}

/** A repeated parameter makes the call invalid rather than letting one copy win. */
function uniqueParameters(search: URLSearchParams): Record<string, string> | undefined {
	const parameters: Record<string, string> = {}
	for (const [key, value] of search) {
		if (Object.hasOwn(parameters, key)) return undefined
		parameters[key] = value
	}
	return parameters
}

/** The POST body is read as raw text whatever its declared type, so nothing is coerced before the signature check. */
const rawText = async ({ request }: { request: Request }) => request.text()

const plainText = (text: string) => new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } })

/**
 * The payment service's notify callback (docs/specification/tokens-and-money.md#calls), which is public: its signature is its
 * authentication, and it answers plain `success` or `fail`. `managementRoutes` mounts it ahead of the
 * JSON body parser, so its POST body is always the raw text.
 */
export function epayNotifyRoutes(dependencies: Dependencies) {
	async function notify({ request, body }: { request: Request; body?: unknown }) {
		try {
			const parameters = notifyParameters(request, body)
			const outcome = parameters ? await handleEpayNotify(dependencies, parameters) : 'refused'
			return plainText(outcome === 'refused' ? EPAY_REPLY.fail : EPAY_REPLY.success)
		} catch (error) {
			// The payment service retries on anything but `success`; a failure here must never credit or 500.
			dependencies.logger.error('an epay notify failed', { error: String(error) })
			return plainText(EPAY_REPLY.fail)
		}
	}

	return new Elysia({ prefix: '/user' })
		.use(authentication(dependencies))
		.get('/epay/notify', notify)
		.post('/epay/notify', notify, { parse: rawText })
}

/** The wallet's online top-up (docs/specification/tokens-and-money.md#calls). */
export function topUpRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/user' })
		.use(authentication(dependencies))
		.get('/topup/self', async ({ caller, query }) => ok(await listOwnTopUps(dependencies, requireCaller(caller).user.id, query)), { query: topUpListQuerySchema })
		.post('/amount', ({ body, caller }) => ok(payableAmount(dependencies, requireCaller(caller).user, body), 'success'), { body: topUpAmountSchema })
		.post('/pay', async ({ body, caller }): Promise<TopUpPayAnswer> => {
			const { form, url } = await startPayment(dependencies, requireCaller(caller).user, body)
			return { success: true, message: 'success', data: form, url }
		}, { body: topUpPaySchema })
}
