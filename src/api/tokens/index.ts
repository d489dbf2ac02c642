import { Elysia } from 'elysia'
import { idParamsSchema, pageQuerySchema } from '@shared/api'
import { createTokenSchema, tokenSearchSchema, updateTokenQuerySchema, updateTokenSchema } from '@shared/token'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { ok } from '../respond'
import { createTokens, deleteToken, getToken, listTokens, searchTokens, updateToken } from './service'

/** The caller's own API tokens (docs/specification/tokens-and-money.md#calls). */
export function tokenRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/token' })
		.use(authentication(dependencies))
		.get('/', async ({ caller, query }) => ok(await listTokens(dependencies, requireCaller(caller).user.id, query)), { query: pageQuerySchema })
		.get('/search', async ({ caller, query }) => ok(await searchTokens(dependencies, requireCaller(caller).user.id, query, query)), { query: tokenSearchSchema })
		.get('/:id', async ({ caller, params }) => ok(await getToken(dependencies, requireCaller(caller).user.id, params.id)), { params: idParamsSchema })
		.post('/', async ({ body, caller }) => ok(await createTokens(dependencies, requireCaller(caller).user, body)), { body: createTokenSchema })
		.put('/', async ({ body, caller, query }) => ok(await updateToken(dependencies, requireCaller(caller).user, body, query.status_only)), {
			body: updateTokenSchema, query: updateTokenQuerySchema,
		})
		.delete('/:id', async ({ caller, params }) => {
			await deleteToken(dependencies, requireCaller(caller).user.id, params.id)
			return ok()
		}, { params: idParamsSchema })
}
