import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`server status on ${target.dialect}`, () => {
		let ferry: TestApp
		beforeEach(async () => {
			ferry = await createTestApp(target)
		})
		afterEach(() => ferry.close())

		test('is public and carries the flags the console reads', async () => {
			const answer = await ferry.call('GET', '/api/status')
			expect(answer.body.success).toBe(true)
			expect(answer.body.data).toMatchObject({
				system_name: '', logo: '', quota_per_unit: 500000, display_in_currency: true, usd_exchange_rate: 7.3, price: 7.3,
				min_topup: 1, enable_online_topup: false, enable_data_export: true, data_export_default_time: 'hour',
				enable_drawing: true, enable_task: true, github_oauth: false, turnstile_check: false, email_verification: false,
				default_use_auto_group: false, default_collapse_sidebar: false, chat_link: '', chat_link2: '', top_up_link: '',
			})
			for (const field of ['footer_html', 'server_address', 'mj_notify_enabled', 'chats', 'pay_methods', 'github_client_id', 'linuxdo_oauth', 'linuxdo_client_id', 'wechat_login', 'wechat_qrcode', 'telegram_oauth', 'telegram_bot_name', 'turnstile_site_key']) {
				expect(answer.body.data).toHaveProperty(field)
			}
		})

		test('follows option changes at once', async () => {
			await ferry.dependencies.options.set('SystemName', 'My Gateway')
			await ferry.dependencies.options.set('ServerAddress', 'https://pay.example')
			await ferry.dependencies.options.set('EpayId', '1')
			await ferry.dependencies.options.set('EpayKey', 'k')
			await ferry.dependencies.options.set('PayAddress', 'https://epay.example')
			const answer = await ferry.call('GET', '/api/status')
			expect(answer.body.data).toMatchObject({ system_name: 'My Gateway', enable_online_topup: true })
			expect(JSON.stringify(answer.body)).not.toContain('"k"')
		})

		test('serves the admin-written notice, about and home page content publicly', async () => {
			await ferry.dependencies.options.set('Notice', 'maintenance at noon')
			expect((await ferry.call('GET', '/api/notice')).body.data).toBe('maintenance at noon')
			expect((await ferry.call('GET', '/api/about')).body).toEqual({ success: true, message: '', data: '' })
			expect((await ferry.call('GET', '/api/home_page_content')).body.success).toBe(true)
		})

		test('maps each channel type to the models its channels serve, for admins', async () => {
			const root = await ferry.loginRoot()
			const { channels } = ferry.store.tables
			await ferry.store.db.insert(channels).values([
				{ type: 1, key: 'k1', models: 'gpt-4o,gpt-4o-mini' },
				{ type: 1, key: 'k2', models: 'gpt-4o, o3' },
				{ type: 14, key: 'k3', models: 'claude-sonnet-4-20250514' },
			])
			const answer = await ferry.call('GET', '/api/models', { as: root })
			// Each type also answers its adaptor's default models (test/api/channel-types.test.ts).
			expect(answer.body.data[1]).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-4o-mini', 'o3']))
			expect(answer.body.data[14]).toEqual(expect.arrayContaining(['claude-sonnet-4-20250514']))
		})

		test('lists group names for admins', async () => {
			const root = await ferry.loginRoot()
			expect((await ferry.call('GET', '/api/group/', { as: root })).body.data).toEqual(['default', 'vip', 'svip'])
		})
	})
}
