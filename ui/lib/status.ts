import { useRouteLoaderData } from 'react-router'
import { DEFAULT_LOGO, DEFAULT_SYSTEM_NAME, type ServerStatus } from '@shared/status'
import type { Api } from '@ui/lib/api'

/** `/api/status` as the console reads it: every field present, with the server's defaults when missing. */
export type Status = ServerStatus

const defaults: ServerStatus = {
	version: '',
	start_time: 0,
	system_name: DEFAULT_SYSTEM_NAME,
	logo: DEFAULT_LOGO,
	footer_html: '',
	server_address: '',
	default_collapse_sidebar: false,
	quota_per_unit: 500_000,
	display_in_currency: true,
	display_token_stat: true,
	usd_exchange_rate: 7.3,
	price: 7.3,
	min_topup: 1,
	top_up_link: '',
	enable_online_topup: false,
	pay_methods: [],
	enable_drawing: false,
	enable_task: false,
	enable_data_export: false,
	data_export_default_time: 'hour',
	data_export_interval: 5,
	mj_notify_enabled: false,
	chats: [],
	chat_link: '',
	chat_link2: '',
	default_use_auto_group: false,
	demo_site_enabled: false,
	self_use_mode_enabled: false,
	password_login: true,
	password_register: true,
	register_enabled: true,
	invitation_required: false,
	email_verification: false,
	turnstile_check: false,
	turnstile_site_key: '',
	github_oauth: false,
	github_client_id: '',
	linuxdo_oauth: false,
	linuxdo_client_id: '',
	oidc_enabled: false,
	oidc_client_id: '',
	oidc_authorization_endpoint: '',
	wechat_login: false,
	wechat_qrcode: '',
	telegram_oauth: false,
	telegram_bot_name: '',
}

function normaliseStatus(raw: unknown): Status {
	const value = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
	const status: Record<string, unknown> = { ...defaults }
	for (const [key, fallback] of Object.entries(defaults)) {
		const given = value[key]
		if (Array.isArray(fallback)) status[key] = Array.isArray(given) ? given : fallback
		else if (typeof given === typeof fallback) status[key] = given
	}
	// An empty name or logo means "unset": the brand defaults apply.
	status.system_name ||= DEFAULT_SYSTEM_NAME
	status.logo ||= DEFAULT_LOGO
	return status as Status
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
	return (useRouteLoaderData('root') as { status: Status } | undefined)?.status ?? normaliseStatus(undefined)
}
