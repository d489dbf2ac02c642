import type { Api } from '@ui/lib/api'
import { readStorage, type StoredUser, storageKeys } from '@ui/lib/storage'

export type LoginPayload = { username: string; password: string }

/** `turnstileToken` is sent (possibly empty) only when the server has the Turnstile check on. */
export function login(api: Api, payload: LoginPayload, turnstileToken?: string) {
	const query = turnstileToken === undefined ? '' : `?turnstile=${encodeURIComponent(turnstileToken)}`
	return api.post<StoredUser>(`/api/user/login${query}`, payload, { handleUnauthorized: false })
}

export function fetchOAuthState(api: Api) {
	const affiliateCode = readStorage(storageKeys.affiliateCode)
	const query = affiliateCode ? `?aff=${encodeURIComponent(affiliateCode)}` : ''
	return api.get<string>(`/api/oauth/state${query}`)
}

export function wechatLogin(api: Api, code: string) {
	return api.request<StoredUser>(`/api/oauth/wechat?code=${encodeURIComponent(code)}`, { handleUnauthorized: false })
}

export function telegramLogin(api: Api, fields: Record<string, string | number | undefined>) {
	const query = new URLSearchParams()
	for (const [key, value] of Object.entries(fields)) if (value !== undefined) query.set(key, String(value))
	return api.request<StoredUser>(`/api/oauth/telegram/login?${query}`, { handleUnauthorized: false })
}

/** Where the browser goes to authorise; the provider sends it back to /oauth/<provider>. */
export function oauthAuthorizeUrl(provider: 'github' | 'linuxdo', clientId: string, state: string) {
	const id = encodeURIComponent(clientId)
	const stateValue = encodeURIComponent(state)
	if (provider === 'github') return `https://github.com/login/oauth/authorize?client_id=${id}&state=${stateValue}&scope=user:email`
	return `https://connect.linux.do/oauth2/authorize?response_type=code&client_id=${id}&state=${stateValue}`
}
