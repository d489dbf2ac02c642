import type { z } from 'zod'
import type { ServerStatus } from '@shared/status'
import type { loginSchema, registerSchema } from '@shared/user'
import { type TelegramFields, telegramQuery } from '@ui/features/auth/telegram-widget'
import type { Api, Envelope } from '@ui/lib/api'
import { readStorage, type StoredUser, storageKeys } from '@ui/lib/storage'

type LoginPayload = z.input<typeof loginSchema>

/** `turnstileToken` is sent (possibly empty) only when the server has the Turnstile check on. */
export function login(api: Api, payload: LoginPayload, turnstileToken?: string) {
	const query = turnstileToken === undefined ? '' : `?turnstile=${encodeURIComponent(turnstileToken)}`
	return api.post<StoredUser>(`/api/user/login${query}`, payload, { handleUnauthorized: false })
}

/** The state answer: `data` is the state; `code_challenge` goes into an OIDC authorization request. */
export type OAuthStateEnvelope = Envelope<string> & { code_challenge: string }

export function fetchOAuthState(api: Api) {
	const affiliateCode = readStorage(storageKeys.affiliateCode)
	const query = affiliateCode ? `?aff=${encodeURIComponent(affiliateCode)}` : ''
	return api.get<string>(`/api/oauth/state${query}`) as Promise<OAuthStateEnvelope>
}

export function wechatLogin(api: Api, code: string) {
	return api.request<StoredUser>(`/api/oauth/wechat?code=${encodeURIComponent(code)}`, { handleUnauthorized: false })
}

export function telegramLogin(api: Api, fields: TelegramFields) {
	return api.request<StoredUser>(`/api/oauth/telegram/login?${telegramQuery(fields)}`, { handleUnauthorized: false })
}

/** What the OIDC authorization request needs from /api/status. */
type OidcStatus = Pick<ServerStatus, 'oidc_client_id' | 'oidc_authorization_endpoint' | 'server_address'>

/**
 * The OpenID Connect authorization request (code flow). The provider sends the browser back to
 * the server address's /oauth/oidc, the redirect URI the server names at the token endpoint.
 */
/** `codeChallenge`: the PKCE S256 challenge the state answer carries; the server keeps its verifier. */
export function oidcAuthorizeUrl(status: OidcStatus, state: string, codeChallenge: string) {
	const url = new URL(status.oidc_authorization_endpoint)
	const origin = status.server_address || window.location.origin
	url.searchParams.set('response_type', 'code')
	url.searchParams.set('client_id', status.oidc_client_id)
	url.searchParams.set('redirect_uri', `${origin}/oauth/oidc`)
	url.searchParams.set('scope', 'openid profile email')
	url.searchParams.set('state', state)
	url.searchParams.set('code_challenge', codeChallenge)
	url.searchParams.set('code_challenge_method', 'S256')
	return url.href
}

/** Where the browser goes to authorise; the provider sends it back to /oauth/<provider>. */
export function oauthAuthorizeUrl(provider: Exclude<OAuthProvider, 'oidc'>, clientId: string, state: string) {
	const id = encodeURIComponent(clientId)
	const stateValue = encodeURIComponent(state)
	if (provider === 'github') return `https://github.com/login/oauth/authorize?client_id=${id}&state=${stateValue}&scope=user:email`
	return `https://connect.linux.do/oauth2/authorize?response_type=code&client_id=${id}&state=${stateValue}`
}

type RegisterPayload = z.input<typeof registerSchema>

/** `?turnstile=` (possibly empty) only when the server has the Turnstile check on; '' otherwise. */
function turnstileParameter(turnstileToken: string | undefined) {
	return turnstileToken === undefined ? '' : `turnstile=${encodeURIComponent(turnstileToken)}`
}

function withQuery(path: string, parameters: string[]) {
	const query = parameters.filter(Boolean).join('&')
	return query ? `${path}?${query}` : path
}

export function register(api: Api, payload: RegisterPayload, turnstileToken?: string) {
	return api.post<{ id: number }>(withQuery('/api/user/register', [turnstileParameter(turnstileToken)]), payload, { handleUnauthorized: false })
}

/** `purpose=register`: a signed-in visitor of the register page still gets a registration code, not a bind code. */
export function sendRegistrationCode(api: Api, email: string, turnstileToken?: string) {
	const parameters = [`email=${encodeURIComponent(email)}`, 'purpose=register', turnstileParameter(turnstileToken)]
	return api.request<undefined>(withQuery('/api/verification', parameters), { handleUnauthorized: false })
}

export function sendResetMail(api: Api, email: string, turnstileToken?: string) {
	const parameters = [`email=${encodeURIComponent(email)}`, turnstileParameter(turnstileToken)]
	return api.request<undefined>(withQuery('/api/reset_password', parameters), { handleUnauthorized: false })
}

/** Answers the new, random password (shown once). */
export function confirmPasswordReset(api: Api, email: string, token: string) {
	return api.post<string>('/api/user/reset', { email, token }, { handleUnauthorized: false })
}

export const oauthProviders = ['github', 'linuxdo', 'oidc'] as const
export type OAuthProvider = (typeof oauthProviders)[number]

/** The message the callback answers when the provider account was bound to the signed-in user. */
export const oauthBoundMessage = 'bind'

/** Signs in (data: the user) or binds (message `bind`, no data). A 401 comes back as an answer. */
export function completeOAuth(api: Api, provider: OAuthProvider, code: string, state: string) {
	const query = `code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`
	return api.request<StoredUser | undefined>(`/api/oauth/${provider}?${query}`, { handleUnauthorized: false })
}
