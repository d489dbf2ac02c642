import { Elysia } from 'elysia'
import { FERRY_VERSION, type ServerStatus } from '@shared/status'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'
import { onlineTopUpEnabled } from '../top-ups/service'

function serverStatus({ options, startTime }: Dependencies): ServerStatus {
	return {
		version: FERRY_VERSION,
		start_time: startTime,
		system_name: options.get('SystemName'),
		logo: options.get('Logo'),
		footer_html: options.get('Footer'),
		server_address: options.get('ServerAddress'),
		default_collapse_sidebar: options.get('DefaultCollapseSidebar'),
		quota_per_unit: options.get('QuotaPerUnit'),
		display_in_currency: options.get('DisplayInCurrencyEnabled'),
		display_token_stat: options.get('DisplayTokenStatEnabled'),
		usd_exchange_rate: options.get('USDExchangeRate'),
		price: options.get('Price'),
		min_topup: options.get('MinTopUp'),
		top_up_link: options.get('TopUpLink'),
		enable_online_topup: onlineTopUpEnabled(options),
		pay_methods: options.get('PayMethods'),
		enable_drawing: options.get('DrawingEnabled'),
		enable_task: options.get('TaskEnabled'),
		enable_data_export: options.get('DataExportEnabled'),
		data_export_default_time: options.get('DataExportDefaultTime'),
		data_export_interval: options.get('DataExportInterval'),
		mj_notify_enabled: options.get('MjNotifyEnabled'),
		chats: options.get('Chats'),
		chat_link: options.get('ChatLink'),
		chat_link2: options.get('ChatLink2'),
		default_use_auto_group: options.get('DefaultUseAutoGroup'),
		demo_site_enabled: options.get('DemoSiteEnabled'),
		self_use_mode_enabled: options.get('SelfUseModeEnabled'),
		password_login: options.get('PasswordLoginEnabled'),
		password_register: options.get('PasswordRegisterEnabled'),
		register_enabled: options.get('RegisterEnabled'),
		invitation_required: options.get('RegisterInvitationRequired'),
		email_verification: options.get('EmailVerificationEnabled'),
		turnstile_check: options.get('TurnstileCheckEnabled'),
		turnstile_site_key: options.get('TurnstileSiteKey'),
		github_oauth: options.get('GitHubOAuthEnabled'),
		github_client_id: options.get('GitHubClientId'),
		linuxdo_oauth: options.get('LinuxDOOAuthEnabled'),
		linuxdo_client_id: options.get('LinuxDOClientId'),
		oidc_enabled: options.get('oidc.enabled'),
		oidc_client_id: options.get('oidc.client_id'),
		oidc_authorization_endpoint: options.get('oidc.authorization_endpoint'),
		wechat_login: options.get('WeChatAuthEnabled'),
		wechat_qrcode: options.get('WeChatAccountQRCodeImageURL'),
		telegram_oauth: options.get('TelegramOAuthEnabled'),
		telegram_bot_name: options.get('TelegramBotName'),
	}
}

/** Public, unauthenticated reads: server flags and the admin-written content. */
export function statusRoutes(dependencies: Dependencies) {
	const { options } = dependencies
	return new Elysia()
		.use(authentication(dependencies))
		.get('/status', () => ok(serverStatus(dependencies)))
		.get('/notice', () => ok(options.get('Notice')))
		.get('/about', () => ok(options.get('About')))
		.get('/home_page_content', () => ok(options.get('HomePageContent')))
}
