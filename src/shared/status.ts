/** `GET /api/status`: the public server flags the console caches (docs/specification/console.md#layout). */
export type ServerStatus = {
	version: string
	start_time: number
	system_name: string
	logo: string
	footer_html: string
	server_address: string
	default_collapse_sidebar: boolean
	quota_per_unit: number
	display_in_currency: boolean
	display_token_stat: boolean
	usd_exchange_rate: number
	price: number
	min_topup: number
	top_up_link: string
	enable_online_topup: boolean
	/** `min_topup`: the method's own minimum in dollars, when it has one (the larger of it and `min_topup` applies). */
	pay_methods: { name: string; type: string; color?: string; min_topup?: number }[]
	enable_drawing: boolean
	enable_task: boolean
	enable_data_export: boolean
	data_export_default_time: string
	/** Minutes between two exports of the dashboard's usage buckets. */
	data_export_interval: number
	mj_notify_enabled: boolean
	chats: Record<string, string>[]
	chat_link: string
	chat_link2: string
	default_use_auto_group: boolean
	demo_site_enabled: boolean
	self_use_mode_enabled: boolean
	password_login: boolean
	password_register: boolean
	register_enabled: boolean
	/** New accounts need a valid invitation code (`RegisterInvitationRequired`). */
	invitation_required: boolean
	email_verification: boolean
	turnstile_check: boolean
	turnstile_site_key: string
	github_oauth: boolean
	github_client_id: string
	linuxdo_oauth: boolean
	linuxdo_client_id: string
	oidc_enabled: boolean
	oidc_client_id: string
	/** Where the login page sends the browser to sign in with OpenID Connect. */
	oidc_authorization_endpoint: string
	wechat_login: boolean
	wechat_qrcode: string
	telegram_oauth: boolean
	telegram_bot_name: string
}

export const FERRY_VERSION = '0.1.0'
export const DEFAULT_SYSTEM_NAME = 'Ferry'
export const DEFAULT_LOGO = '/logo.png'
