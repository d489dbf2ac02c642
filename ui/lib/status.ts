import { useRouteLoaderData } from 'react-router'
import { DEFAULT_LOGO, DEFAULT_SYSTEM_NAME, type ServerStatus } from '@shared/status'
import type { Api } from '@ui/lib/api'

/** The /api/status fields the console reads so far; any of them may be missing on the wire. */
export type Status = Pick<
	ServerStatus,
	| 'system_name'
	| 'logo'
	| 'footer_html'
	| 'turnstile_check'
	| 'turnstile_site_key'
	| 'github_oauth'
	| 'github_client_id'
	| 'linuxdo_oauth'
	| 'linuxdo_client_id'
	| 'wechat_login'
	| 'wechat_qrcode'
	| 'telegram_oauth'
	| 'telegram_bot_name'
>

export function normaliseStatus(raw: unknown): Status {
	const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
	const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : '')
	const flag = (key: string) => value[key] === true
	return {
		system_name: text('system_name') || DEFAULT_SYSTEM_NAME,
		logo: text('logo') || DEFAULT_LOGO,
		footer_html: text('footer_html'),
		turnstile_check: flag('turnstile_check'),
		turnstile_site_key: text('turnstile_site_key'),
		github_oauth: flag('github_oauth'),
		github_client_id: text('github_client_id'),
		linuxdo_oauth: flag('linuxdo_oauth'),
		linuxdo_client_id: text('linuxdo_client_id'),
		wechat_login: flag('wechat_login'),
		wechat_qrcode: text('wechat_qrcode'),
		telegram_oauth: flag('telegram_oauth'),
		telegram_bot_name: text('telegram_bot_name'),
	}
}

/** A console that cannot reach /api/status still renders, with the default brand and no extras. */
export async function loadStatus(api: Api): Promise<Status> {
	try {
		const envelope = await api.get('/api/status')
		return normaliseStatus(envelope.success ? envelope.data : undefined)
	} catch {
		return normaliseStatus(undefined)
	}
}

export function useStatus(): Status {
	return (useRouteLoaderData('root') as Status | undefined) ?? normaliseStatus(undefined)
}
