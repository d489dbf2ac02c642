import { Elysia } from 'elysia'
import { ADMIN_ACTION_VALUE_LIMIT } from '@shared/admin-action-constants'
import { isRowIdText } from '@shared/api'
import { isOptionKey, OPTION_DEFINITIONS, OPTION_MESSAGES, updateOptionSchema } from '@shared/option'
import type { Dependencies } from '@/dependencies'
import { OptionRefusedError } from '@/db/stores/options'
import { recordAdminAction } from '../admin-audit'
import { refused } from '../errors'
import { authentication, requireCaller } from '../plugins/auth'
import { ok } from '../respond'
import { findPlan } from '../plans/service'
import { PLAN_MESSAGES } from '@shared/plan'
import { discoverOidcEndpoints } from '../oauth/oidc'

/** The value as the audit trail shows it: a secret option's never, a long one cut short. */
function loggedValue(key: string, value: string) {
	if (!isOptionKey(key) || OPTION_DEFINITIONS[key].secret) return undefined
	return value.length > ADMIN_ACTION_VALUE_LIMIT ? `${value.slice(0, ADMIN_ACTION_VALUE_LIMIT)}…` : value
}

export function optionRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/option' })
		.use(authentication(dependencies))
		.get('/', () => ok(dependencies.options.listPublic()))
		.put('/', async ({ body, caller }) => {
			// The new-user plan must be a plan (0: none).
			if (body.key === 'DefaultPlanId' && isRowIdText(body.value.trim()) && Number(body.value) > 0 && !await findPlan(dependencies.store, Number(body.value))) {
				throw refused(PLAN_MESSAGES.defaultPlanUnknown)
			}
			// A discovery URL fills the endpoints it names; one that cannot be read is refused, changing nothing.
			const discovered: Record<string, string> = body.key === 'oidc.well_known' && body.value.trim() ? await discoverOidcEndpoints(dependencies, body.value.trim()) : {}
			try {
				await dependencies.options.set(body.key, body.value)
				for (const [key, value] of Object.entries(discovered)) await dependencies.options.set(key, value)
			} catch (error) {
				throw error instanceof OptionRefusedError ? refused(error.reason) : error
			}
			dependencies.changes.notify('options')
			const value = loggedValue(body.key, body.value)
			await recordAdminAction(dependencies.store, requireCaller(caller).user, {
				action: 'option.update', target: body.key,
				summary: value === undefined ? `changed the option ${body.key} (a secret: value not logged)` : `set the option ${body.key} to ${JSON.stringify(value)}`,
				details: value === undefined ? { key: body.key, secret: true } : { key: body.key, value },
			})
			return ok()
		}, { body: updateOptionSchema })
		.post('/rest_model_ratio', async ({ caller }) => {
			await dependencies.options.resetModelRatio()
			dependencies.changes.notify('options')
			await recordAdminAction(dependencies.store, requireCaller(caller).user, {
				action: 'option.reset_model_ratio', target: 'ModelRatio', summary: 'reset the model ratios to the defaults',
			})
			return ok(undefined, OPTION_MESSAGES.modelRatioReset)
		})
}
