import { Elysia } from 'elysia'
import { idParamsSchema, pageQuerySchema } from '@shared/api'
import { REDEMPTION_MESSAGES } from '@shared/redemption'
import { PLAN_MESSAGES } from '@shared/plan'
import { withValues } from '@shared/messages'
import {
	createRedemptionSchema, redeemSchema, redemptionSearchSchema, updateRedemptionQuerySchema, updateRedemptionSchema,
} from '@shared/redemption'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { ok } from '../respond'
import {
	createRedemptions, deleteRedemption, getRedemption, listRedemptions, redeem, searchRedemptions, updateRedemption,
} from './service'

/** Redemption code administration (docs/specification/tokens-and-money.md#calls, admins). */
function redemptionAdminRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/redemption' })
		.use(authentication(dependencies))
		.get('/', async ({ query }) => ok(await listRedemptions(dependencies, query)), { query: pageQuerySchema })
		.get('/search', async ({ query }) => ok(await searchRedemptions(dependencies, query.keyword, query)), { query: redemptionSearchSchema })
		.get('/:id', async ({ params }) => ok(await getRedemption(dependencies, params.id)), { params: idParamsSchema })
		.post('/', async ({ body, caller }) => ok(await createRedemptions(dependencies, requireCaller(caller).user, body)), { body: createRedemptionSchema })
		.put('/', async ({ body, query, caller }) => ok(await updateRedemption(dependencies, body, query.status_only, requireCaller(caller).user)), {
			body: updateRedemptionSchema, query: updateRedemptionQuerySchema,
		})
		.delete('/:id', async ({ params, caller }) => {
			await deleteRedemption(dependencies, params.id, requireCaller(caller).user)
			return ok()
		}, { params: idParamsSchema })
}

/** `POST /api/user/topup`: the signed-in user redeems a code; `data` is the quota added (0 for a plan code, whose message names the plan). */
function redeemRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/user' })
		.use(authentication(dependencies))
		.post('/topup', async ({ body, caller }) => {
			const redeemed = await redeem(dependencies, requireCaller(caller).user.id, body.key)
			return redeemed.plan ? ok(0, withValues(PLAN_MESSAGES.planRedeemed, { name: redeemed.plan.name })) : ok(redeemed.quota, REDEMPTION_MESSAGES.redeemed)
		}, { body: redeemSchema })
}

export function redemptionRoutes(dependencies: Dependencies) {
	return new Elysia().use(redemptionAdminRoutes(dependencies)).use(redeemRoutes(dependencies))
}
