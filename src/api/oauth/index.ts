import { Elysia } from 'elysia'
import { z } from 'zod'
import { API_MESSAGES } from '@shared/api'
import type { Dependencies } from '@/dependencies'
import { ApiError, unauthorized } from '../errors'
import { authentication, requireCaller } from '../plugins/auth'
import { sessionCookie } from '@/auth/session'
import { isSecureRequest, ok } from '../respond'
import type { RequestPeer } from '@/lib/client-address'
import { toSessionUser } from '../users/view'
import { emailSchema } from '../verification/email-rules'
import { bindEmail } from '../verification/mail-flows'
import { VERIFICATION_MESSAGES } from '../verification/messages'
import { githubIdentity } from './github'
import { assertProviderEnabled, bindIdentity, type Identity, type IdentityProvider, PROVIDERS, signInWithIdentity, startSession, unbindIdentity } from './identities'
import { linuxdoIdentity } from './linuxdo'
import { OAUTH_MESSAGES } from './messages'
import { oidcIdentity } from './oidc'
import { signedInUser } from '../plugins/signed-in-user'
import { clearedStateCookie, consumeState, issueState } from './state'
import { telegramIdentity } from './telegram'
import { weChatIdentity } from './wechat'
import type { PlainText } from '@shared/messages'
import { unbindParamsSchema } from '@shared/oauth'

type Context<Query> = {
	query: Query
	request: Request
	server: RequestPeer
	set: { headers: { 'set-cookie'?: string | string[] } }
}

/** Per network address, for every sign-in or binding through another service. */
const OAUTH_LIMITS = { perAddress: { limit: 60, windowSeconds: 600 } } as const

/** A required query value; the message is the catalogue's, answered in the caller's language. */
const required = (message: PlainText) => z.string({ error: message }).trim().min(1, message).max(512, message)
const codeQuery = z.object({ code: required(OAUTH_MESSAGES.codeMissing) })
const callbackQuery = z.object({ code: required(OAUTH_MESSAGES.codeMissing), state: required(OAUTH_MESSAGES.stateInvalid) })
const emailBindQuery = z.object({
	email: required(VERIFICATION_MESSAGES.emailAndCodeRequired).pipe(emailSchema),
	code: required(VERIFICATION_MESSAGES.emailAndCodeRequired),
})

/**
 * Sign-in and binding through GitHub, LinuxDO, OpenID Connect, WeChat and Telegram, and email
 * binding. The GitHub, LinuxDO and OIDC callbacks bind when their state was issued to a signed-in browser (the
 * settings page), and sign in otherwise (the login page). The binding calls are GETs because
 * the peers' clients call them so; the auth plugin's `New-Api-User` check keeps cross-site navigations out.
 */
export function oauthRoutes(dependencies: Dependencies) {
	async function enforceLimit(request: Request, server: RequestPeer) {
		const { limit, windowSeconds } = OAUTH_LIMITS.perAddress
		if (!await dependencies.rateLimiter.hit(`oauth:address:${dependencies.clientAddress(server, request)}`, limit, windowSeconds)) {
			throw new ApiError(API_MESSAGES.tooManyRequests, 429)
		}
	}

	async function signIn(provider: IdentityProvider, identity: Identity, affCode: string, request: Request, server: RequestPeer) {
		const user = await signInWithIdentity(dependencies, provider, identity, dependencies.clientAddress(server, request), affCode)
		return { answer: ok(toSessionUser(user)), cookie: sessionCookie(await startSession(dependencies, user), isSecureRequest(request)) }
	}

	async function completeAuthorization(
		provider: IdentityProvider,
		identityFor: (dependencies: Dependencies, code: string, codeVerifier: string) => Promise<Identity>,
		{ query, request, server, set }: Context<z.infer<typeof callbackQuery>>,
	) {
		assertProviderEnabled(dependencies, provider)
		await enforceLimit(request, server)
		const state = await consumeState(dependencies, request.headers, query.state)
		if (state.userId) {
			const user = await signedInUser(dependencies, request.headers)
			if (user?.id !== state.userId) throw unauthorized()
			await bindIdentity(dependencies, provider, user, (await identityFor(dependencies, query.code, state.verifier)).id)
			set.headers['set-cookie'] = clearedStateCookie()
			return ok(undefined, OAUTH_MESSAGES.bound)
		}
		const { answer, cookie } = await signIn(provider, await identityFor(dependencies, query.code, state.verifier), state.aff, request, server)
		set.headers['set-cookie'] = [clearedStateCookie(), cookie]
		return answer
	}

	return new Elysia({ prefix: '/oauth' })
		.use(authentication(dependencies))
		.get('/state', async ({ query, request, server, set }) => {
			await enforceLimit(request, server)
			const user = await signedInUser(dependencies, request.headers)
			const { state, codeChallenge, cookie } = await issueState(dependencies, query.aff ?? '', user?.id ?? 0, isSecureRequest(request))
			set.headers['set-cookie'] = cookie
			// `data` stays the bare state the peers' clients read; the OIDC authorization request adds the challenge.
			return { ...ok(state), code_challenge: codeChallenge }
		}, { query: z.object({ aff: z.string().trim().max(32).optional() }) })
		.get('/github', (context) => completeAuthorization(PROVIDERS.github, githubIdentity, context), { query: callbackQuery })
		.get('/linuxdo', (context) => completeAuthorization(PROVIDERS.linuxdo, linuxdoIdentity, context), { query: callbackQuery })
		.get('/oidc', (context) => completeAuthorization(PROVIDERS.oidc, oidcIdentity, context), { query: callbackQuery })
		.get('/wechat', async ({ query, request, server, set }) => {
			assertProviderEnabled(dependencies, PROVIDERS.wechat)
			await enforceLimit(request, server)
			const { answer, cookie } = await signIn(PROVIDERS.wechat, await weChatIdentity(dependencies, query.code), '', request, server)
			set.headers['set-cookie'] = cookie
			return answer
		}, { query: codeQuery })
		.get('/wechat/bind', async ({ query, request, server, caller }) => {
			assertProviderEnabled(dependencies, PROVIDERS.wechat)
			await enforceLimit(request, server)
			const identity = await weChatIdentity(dependencies, query.code)
			await bindIdentity(dependencies, PROVIDERS.wechat, requireCaller(caller).user, identity.id)
			return ok(undefined, OAUTH_MESSAGES.bound)
		}, { query: codeQuery })
		.get('/telegram/login', async ({ request, server, set }) => {
			assertProviderEnabled(dependencies, PROVIDERS.telegram)
			await enforceLimit(request, server)
			const { answer, cookie } = await signIn(PROVIDERS.telegram, await telegramIdentity(dependencies, new URL(request.url).searchParams), '', request, server)
			set.headers['set-cookie'] = cookie
			return answer
		})
		.get('/telegram/bind', async ({ request, server, caller }) => {
			assertProviderEnabled(dependencies, PROVIDERS.telegram)
			await enforceLimit(request, server)
			const identity = await telegramIdentity(dependencies, new URL(request.url).searchParams)
			await bindIdentity(dependencies, PROVIDERS.telegram, requireCaller(caller).user, identity.id)
			return ok(undefined, OAUTH_MESSAGES.bound)
		})
		// Unbinding works whether or not the service's sign-in is still enabled: it only removes.
		.delete('/:provider/bind', async ({ params, caller }) => {
			await unbindIdentity(dependencies, PROVIDERS[params.provider], requireCaller(caller).user.id)
			return ok(undefined, OAUTH_MESSAGES.unbound)
		}, { params: unbindParamsSchema })
		.get('/email/bind', async ({ query, caller }) => {
			await bindEmail(dependencies, requireCaller(caller).user, query.email, query.code)
			return ok(undefined, OAUTH_MESSAGES.bound)
		}, { query: emailBindQuery })
}
