/** The self-service calls of the personal tab (docs/specification/accounts-and-settings.md#calls); shapes as src/api/users and src/api/oauth answer them. */
import { type TelegramFields, telegramQuery } from '@ui/features/auth/telegram-widget'
import type { OAuthStateEnvelope } from '@ui/features/auth/api'
import type { BindingProvider } from '@shared/oauth'
import type { Api } from '@ui/lib/api'

export function fetchUserModels(api: Api) {
	return api.get<string[]>('/api/user/models')
}

/** Answers the code the account got at creation; reading it changes nothing. */
export function fetchAffiliateCode(api: Api) {
	return api.get<string>('/api/user/aff')
}

export function transferAffiliateQuota(api: Api, quota: number) {
	return api.post<undefined>('/api/user/aff_transfer', { quota })
}

/** Replaces the system access token: the previous one stops working. Never from a loader. */
export function generateAccessToken(api: Api) {
	return api.get<string>('/api/user/token')
}

export function changePassword(api: Api, password: string, password2: string) {
	return api.put('/api/user/self', { password, password2 })
}

export function deleteOwnAccount(api: Api, username: string) {
	return api.delete('/api/user/self', { body: { username } })
}

/** `turnstileToken` is sent (possibly empty) only when the server has the Turnstile check on. */
export function sendBindingCode(api: Api, email: string, turnstileToken?: string) {
	const query = new URLSearchParams({ email, purpose: 'bind' })
	if (turnstileToken !== undefined) query.set('turnstile', turnstileToken)
	return api.get(`/api/verification?${query}`)
}

export function bindEmail(api: Api, email: string, code: string) {
	return api.get(`/api/oauth/email/bind?${new URLSearchParams({ email, code })}`)
}

export function bindWechat(api: Api, code: string) {
	return api.get(`/api/oauth/wechat/bind?${new URLSearchParams({ code })}`)
}


export function unbindProvider(api: Api, provider: BindingProvider) {
	return api.delete(`/api/oauth/${provider}/bind`)
}

export function bindTelegram(api: Api, fields: TelegramFields) {
	return api.get(`/api/oauth/telegram/bind?${telegramQuery(fields)}`)
}

/** A state issued to a signed-in browser makes the provider's callback bind instead of sign in. */
export function fetchBindingState(api: Api) {
	return api.get<string>('/api/oauth/state') as Promise<OAuthStateEnvelope>
}

/** Option texts by key as `GET /api/option/` answers them (root only); secret keys are never in it. */
export type OptionMap = Record<string, string>

export async function fetchOptions(api: Api): Promise<OptionMap | null> {
	const envelope = await api.get<{ key: string; value: string }[]>('/api/option/').catch(() => undefined)
	if (!envelope?.success) return null
	return Object.fromEntries(envelope.data.map(({ key, value }) => [key, value]))
}

/** One key at a time, both as strings (docs/specification/accounts-and-settings.md#calls); the server checks and normalises the value. */
export function updateOption(api: Api, key: string, value: string) {
	return api.put<undefined>('/api/option/', { key, value })
}

export function resetModelRatios(api: Api) {
	return api.post<undefined>('/api/option/rest_model_ratio')
}
