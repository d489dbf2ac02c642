import { Elysia } from 'elysia'
import { idParamsSchema, rowIdTextSchema } from '@shared/api'
import { createPlanSchema, PLAN_MESSAGES, planPaySchema, resetWindowsSchema, subscriptionListQuerySchema, updatePlanSchema } from '@shared/plan'
import type { TopUpPayAnswer } from '@shared/top-up'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { ok } from '../respond'
import { startPlanPayment } from './payment'
import { createPlan, deletePlan, listPlans, purchasePlan, updatePlan } from './service'
import { listSubscriptions, resetWindows, userSubscriptions } from './subscriptions'

const subscriptionParams = idParamsSchema.extend({ subscription: rowIdTextSchema })

/** Plans: the super admin writes them, signed-in users list and buy them (route-policy.ts says who may call what). */
function planRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/plan' })
		.use(authentication(dependencies))
		.get('/', async ({ caller }) => ok(await listPlans(dependencies, requireCaller(caller).user)))
		.post('/', async ({ body, caller }) => ok(await createPlan(dependencies, requireCaller(caller).user, body)), { body: createPlanSchema })
		.put('/', async ({ body, caller }) => ok(await updatePlan(dependencies, requireCaller(caller).user, body)), { body: updatePlanSchema })
		.delete('/:id', async ({ params, caller }) => {
			await deletePlan(dependencies, requireCaller(caller).user, params.id)
			return ok()
		}, { params: idParamsSchema })
		.post('/:id/purchase', async ({ params, caller }) => ok(await purchasePlan(dependencies, requireCaller(caller).user.id, params.id), PLAN_MESSAGES.purchased), { params: idParamsSchema })
		.post('/:id/pay', async ({ params, body, caller }): Promise<TopUpPayAnswer> => {
			const { form, url } = await startPlanPayment(dependencies, requireCaller(caller).user, params.id, body.payment_method)
			return { success: true, message: 'success', data: form, url }
		}, { params: idParamsSchema, body: planPaySchema })
}

/** A user's subscriptions: their own, and any user's for admins, who may also reset a window. */
function subscriptionRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/user' })
		.use(authentication(dependencies))
		.get('/self/subscriptions', async ({ caller, query }) => ok(await listSubscriptions(dependencies.store, requireCaller(caller).user.id, query.all)), { query: subscriptionListQuerySchema })
		.get('/:id/subscriptions', async ({ params, caller }) => ok(await userSubscriptions(dependencies, requireCaller(caller).user, params.id)), { params: idParamsSchema })
		.post('/:id/subscriptions/:subscription/reset', async ({ params, body, caller }) =>
			ok(await resetWindows(dependencies, requireCaller(caller).user, params.id, params.subscription, body.window), PLAN_MESSAGES.windowsReset),
		{ params: subscriptionParams, body: resetWindowsSchema })
}

export function planApiRoutes(dependencies: Dependencies) {
	return new Elysia().use(planRoutes(dependencies)).use(subscriptionRoutes(dependencies))
}
