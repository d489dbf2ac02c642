import { Elysia } from 'elysia'
import { z } from 'zod'
import { idParamsSchema, pageQuerySchema } from '@shared/api'
import { USER_MESSAGES } from '@shared/user'
import {
	affTransferSchema, createUserSchema, deleteSelfSchema, loginSchema, manageUserSchema, registerSchema,
	updateSelfSchema, updateUserSchema, userSearchSchema,
} from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { clearedSessionCookie, sessionCookie } from '@/auth/session'
import { usableGroups } from '@/billing/groups'
import { isSecureRequest, ok } from '../respond'
import {
	deleteSelf, generateAccessToken, login, logout, register, transferAffiliateQuota, updateSelf, userModels,
} from './account'
import { OAUTH_MESSAGES } from '@shared/messages/oauth'
import { userUnbindParamsSchema } from '@shared/oauth'
import { createUser, deleteUser, getUser, listUsers, manageUser, searchUsers, unbindUserIdentity, updateUser } from './service'
import { toSessionUser, toUserView } from './view'
import { verifyTurnstile } from '../verification/turnstile'

export function userRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/user' })
		.use(authentication(dependencies))
		// Getting an account
		.post('/register', async ({ body, query, request, server }) => {
			const clientAddress = dependencies.clientAddress(server, request)
			await verifyTurnstile(dependencies, query.turnstile, clientAddress)
			return ok(await register(dependencies, body, clientAddress), USER_MESSAGES.registered)
		}, { body: registerSchema, query: z.object({ turnstile: z.string().optional() }) })
		.post('/login', async ({ body, query, request, server, set }) => {
			await verifyTurnstile(dependencies, query.turnstile, dependencies.clientAddress(server, request))
			const { user, sessionToken } = await login(dependencies, body, dependencies.clientAddress(server, request))
			set.headers['set-cookie'] = sessionCookie(sessionToken, isSecureRequest(request))
			return ok(toSessionUser(user))
		}, { body: loginSchema, query: z.object({ turnstile: z.string().optional() }) })
		.get('/logout', async ({ caller, set }) => {
			await logout(dependencies, requireCaller(caller).user.id)
			set.headers['set-cookie'] = clearedSessionCookie()
			return ok()
		})
		// The caller's own account
		.get('/self', ({ caller }) => ok(toUserView(requireCaller(caller).user)))
		.put('/self', async ({ body, caller, request, set }) => {
			const { user, sessionToken } = await updateSelf(dependencies, requireCaller(caller).user, body)
			if (sessionToken && requireCaller(caller).via === 'session') set.headers['set-cookie'] = sessionCookie(sessionToken, isSecureRequest(request))
			return ok(toUserView(user))
		}, { body: updateSelfSchema })
		.delete('/self', async ({ body, caller, set }) => {
			await deleteSelf(dependencies, requireCaller(caller).user, body.username)
			set.headers['set-cookie'] = clearedSessionCookie()
			return ok()
		}, { body: deleteSelfSchema })
		.get('/token', async ({ caller }) => ok(await generateAccessToken(dependencies, requireCaller(caller).user.id)))
		.get('/aff', ({ caller }) => ok(requireCaller(caller).user.affCode))
		.get('/models', async ({ caller }) => ok(await userModels(dependencies, requireCaller(caller).user)))
		.get('/self/groups', ({ caller }) => ok(usableGroups(dependencies.options, requireCaller(caller).user)))
		.post('/aff_transfer', async ({ body, caller }) => {
			await transferAffiliateQuota(dependencies, requireCaller(caller).user.id, body.quota)
			return ok(undefined, USER_MESSAGES.transferred)
		}, { body: affTransferSchema })
		// Administration
		.get('/', async ({ query }) => ok(await listUsers(dependencies, query)), { query: pageQuerySchema })
		.get('/search', async ({ query }) => ok(await searchUsers(dependencies, query, query)), { query: pageQuerySchema.extend(userSearchSchema.shape) })
		.get('/:id', async ({ params, caller }) => ok(await getUser(dependencies, requireCaller(caller).user, params.id)), { params: idParamsSchema })
		.post('/', async ({ body, caller }) => ok(await createUser(dependencies, requireCaller(caller).user, body)), { body: createUserSchema })
		.put('/', async ({ body, caller }) => ok(await updateUser(dependencies, requireCaller(caller).user, body)), { body: updateUserSchema })
		.post('/manage', async ({ body, caller }) => ok(await manageUser(dependencies, requireCaller(caller).user, body)), { body: manageUserSchema })
		.delete('/:id', async ({ params, caller }) => {
			await deleteUser(dependencies, requireCaller(caller).user, params.id)
			return ok()
		}, { params: idParamsSchema })
		.delete('/:id/bind/:provider', async ({ params, caller }) => {
			await unbindUserIdentity(dependencies, requireCaller(caller).user, params.id, params.provider)
			return ok(undefined, OAUTH_MESSAGES.unbound)
		}, { params: userUnbindParamsSchema })
}
