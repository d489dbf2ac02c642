import { Elysia } from 'elysia'
import type { PricingAnswer } from '@shared/pricing'
import type { Dependencies } from '@/dependencies'
import { signedInUser } from '../plugins/signed-in-user'
import { authentication } from '../plugins/auth'
import { priceList } from './service'

/**
 * `GET /api/pricing`: public, but a console session (with its New-Api-User header) makes the
 * group ratios and usable groups the signed-in user's own.
 */
export function pricingRoutes(dependencies: Dependencies) {
	return new Elysia()
		.use(authentication(dependencies))
		.get('/pricing', async ({ request }): Promise<PricingAnswer> => {
			const { data, ...extra } = await priceList(dependencies, await signedInUser(dependencies, request.headers))
			return { success: true, message: '', data, ...extra }
		})
}
