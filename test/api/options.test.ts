import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { DEFAULT_MODEL_RATIO } from '@shared/default-prices'
import { OPTION_DEFINITIONS, OPTION_MESSAGES, SECRET_OPTION_KEYS } from '@shared/option'
import { createOptionStore } from '@/db/stores/options'
import { silentLogger } from '@/lib/logger'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

for (const target of databaseTargets()) {
	describe(`options on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
		})
		afterEach(() => ferry.close())

		const put = (key: string, value: unknown) => ferry.call('PUT', '/api/option/', { as: root, body: { key, value } })
		const listed = async () => Object.fromEntries(((await ferry.call('GET', '/api/option/', { as: root })).body.data as { key: string; value: string }[]).map((option) => [option.key, option.value]))

		test('lists every non-secret option with its default as a string', async () => {
			const options = await listed()
			expect(options).toMatchObject({ QuotaPerUnit: '500000', USDExchangeRate: '7.3', Price: '7.3', MinTopUp: '1', PasswordLoginEnabled: 'true', DataExportInterval: '5', DataExportDefaultTime: 'hour' })
			expect(Object.keys(options)).toHaveLength(Object.keys(OPTION_DEFINITIONS).length - SECRET_OPTION_KEYS.length)
		})

		test('never returns secret-valued options, even when they are set', async () => {
			await put('ServerAddress', 'https://ferry.example')
			for (const key of SECRET_OPTION_KEYS) expect((await put(key, 'super-secret-value')).body.success).toBe(true)
			const answer = await ferry.call('GET', '/api/option/', { as: root })
			expect(JSON.stringify(answer.body)).not.toContain('super-secret-value')
			expect(SECRET_OPTION_KEYS).toEqual(expect.arrayContaining(['GitHubClientSecret', 'SMTPToken', 'EpayKey', 'TurnstileSecretKey', 'TelegramBotToken', 'WeChatServerToken']))
		})

		test('saves a toggle and keeps it across a restart', async () => {
			expect((await put('RegisterEnabled', 'false')).body.success).toBe(true)
			expect((await listed()).RegisterEnabled).toBe('false')
			const reopened = await createOptionStore(ferry.store, silentLogger)
			expect(reopened.get('RegisterEnabled')).toBe(false)
		})

		test('accepts a routing policy per group and affinity rules reading a header or a body field', async () => {
			expect((await put('GroupRoutingPolicy', '{"vip":"least_latency","default":"round_robin"}')).body.success).toBe(true)
			expect((await put('AffinityRules', '[{"model":"claude-*","path":"/v1/messages","body":"metadata.conversation"},{"header":"x-thread"}]')).body.success).toBe(true)
			expect(await listed()).toMatchObject({ GroupRoutingPolicy: '{"vip":"least_latency","default":"round_robin"}', AffinityTTLSeconds: '3600', AffinityMaxEntries: '100000' })
		})

		test('accepts numbers and booleans sent as JSON values', async () => {
			expect((await put('RetryTimes', 3)).body.success).toBe(true)
			expect((await put('DemoSiteEnabled', true)).body.success).toBe(true)
			expect(await listed()).toMatchObject({ RetryTimes: '3', DemoSiteEnabled: 'true' })
		})

		test.each([
			['GroupRatio', '{not json', 'GroupRatio is not a valid JSON string'],
			['TopupGroupRatio', '[1,', 'TopupGroupRatio is not a valid JSON string'],
			['PayMethods', 'nope', 'PayMethods is not a valid JSON string'],
			['DataExportInterval', '0', 'DataExportInterval must not be less than 1'],
			['MinTopUp', '0', 'MinTopUp must not be less than 1'],
			['Price', '-1', 'Price must not be less than 0'],
			['QuotaForNewUser', '-5', 'QuotaForNewUser must not be less than 0'],
			['RetryTimes', 'many', 'RetryTimes please enter a number'],
			['DataExportDefaultTime', 'month', 'DataExportDefaultTime must be one of hour, day, week'],
			['RegisterEnabled', 'yes', 'RegisterEnabled must be true or false'],
			['GroupRoutingPolicy', '{"vip":', 'GroupRoutingPolicy is not a valid JSON string'],
			['GroupRoutingPolicy', '{"vip":"fastest"}', 'GroupRoutingPolicy is not a valid JSON string: '],
			['AffinityRules', '[{"model":"claude-*","header":"x-a","body":"metadata.user_id"}]', 'AffinityRules is not a valid JSON string: '],
			['AffinityRules', '[{"model":"claude-*"}]', 'AffinityRules is not a valid JSON string: '],
			['AffinityTTLSeconds', '0', 'AffinityTTLSeconds must not be less than 1'],
		])('refuses %s = %s with a clear message', async (key, value, message) => {
			const answer = await put(key, value)
			expect(answer.body.success).toBe(false)
			expect(answer.body.message).toStartWith(message)
		})

		test.each([
			['ModelPrice', '{"gpt-4o":1e300}', 'ModelPrice must map each name to a number from 0 to 10000; "gpt-4o" does not'],
			['ModelRatio', '{"gpt-4o":2,"o1":10001}', 'ModelRatio must map each name to a number from 0 to 10000; "o1" does not'],
			['CompletionRatio', '{"gpt-4o":-1}', 'CompletionRatio must map each name to a number from 0 to 10000; "gpt-4o" does not'],
			['CacheRatio', '{"gpt-4o":"0.5"}', 'CacheRatio must map each name to a number from 0 to 10000; "gpt-4o" does not'],
			['CreateCacheRatio', '{"gpt-4o":1e300}', 'CreateCacheRatio must map each name to a number from 0 to 10000; "gpt-4o" does not'],
			['AudioRatio', '{"gpt-4o":1e400}', 'AudioRatio must map each name to a number from 0 to 10000; "gpt-4o" does not'],
			['AudioCompletionRatio', '{"gpt-4o":1e300}', 'AudioCompletionRatio must map each name to a number from 0 to 10000; "gpt-4o" does not'],
			['GroupRatio', '{"default":1e300}', 'GroupRatio must map each name to a number from 0 to 10000; "default" does not'],
			['GroupGroupRatio', '{"vip":{"default":1e300}}', 'GroupGroupRatio must map each name to a number from 0 to 10000; "vip.default" does not'],
			['GroupRatio', '[1]', 'GroupRatio is not a valid JSON string: '],
			['QuotaPerUnit', '1e300', 'QuotaPerUnit must not be more than 1000000000'],
			['PreConsumedQuota', '1e300', 'PreConsumedQuota must not be more than 100000000'],
			['RetryTimes', '1e300', 'RetryTimes must not be more than 100'],
			['USDExchangeRate', '1e300', 'USDExchangeRate must not be more than 1000000'],
			['TaskPollingIntervalSeconds', '1e10', 'TaskPollingIntervalSeconds must not be more than 604800'],
			['ChannelTestIntervalMinutes', '1e10', 'ChannelTestIntervalMinutes must not be more than 10080'],
			['ChannelTestFailuresToDisable', '0', 'ChannelTestFailuresToDisable must not be less than 1'],
			['ChannelTestFailuresToDisable', '101', 'ChannelTestFailuresToDisable must not be more than 100'],
			['ChannelTestPrompt', ' \n ', 'ChannelTestPrompt must not be blank'],
			['StreamCacheQueueLength', '1e300', 'StreamCacheQueueLength must not be more than 100000'],
			['SMTPPort', '70000', 'SMTPPort must not be more than 65535'],
		])('refuses %s = %s, out of its bounds, with a message naming them', async (key, value, message) => {
			const before = (await listed())[key]
			const answer = await put(key, value)
			expect(answer.body.success).toBe(false)
			expect(answer.body.message).toStartWith(message)
			expect((await listed())[key]).toBe(before)
		})

		test('words a refused ratio in the console\'s language', async () => {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'GroupRatio', value: '{"vip":1e300}' }, headers: { 'accept-language': 'zh-CN' } })
			expect(answer.body).toEqual({ success: false, message: 'GroupRatio 的值无效：必须把每个名称映射为 0 到 10000 之间的数字；“vip”不符合' })
			const price = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'PreConsumedQuota', value: '1e300' }, headers: { 'accept-language': 'zh-CN' } })
			expect(price.body).toEqual({ success: false, message: 'PreConsumedQuota 的值无效：不能大于 100000000' })
		})

		test('a value stored out of its bounds (before them, or by hand) is not used: the option keeps its default', async () => {
			const { options } = ferry.store.tables
			await ferry.store.db.insert(options).values([{ key: 'QuotaPerUnit', value: '1e300' }, { key: 'GroupRatio', value: '{"default":1e300}' }])
			const reopened = await createOptionStore(ferry.store, silentLogger)
			expect(reopened.get('QuotaPerUnit')).toBe(OPTION_DEFINITIONS.QuotaPerUnit.defaultValue)
			expect(reopened.get('GroupRatio')).toEqual(OPTION_DEFINITIONS.GroupRatio.defaultValue)
		})

		test('refuses an unknown key', async () => {
			expect((await put('NoSuchOption', '1')).body).toEqual({ success: false, message: 'unknown option: NoSuchOption' })
		})

		test('strips trailing slashes from addresses', async () => {
			await put('ServerAddress', 'https://ferry.example/')
			await put('WorkerUrl', 'https://worker.example//')
			expect(await listed()).toMatchObject({ ServerAddress: 'https://ferry.example', WorkerUrl: 'https://worker.example' })
		})

		test('asks for the server address before payment settings', async () => {
			expect((await put('EpayId', '1001')).body).toEqual({ success: false, message: inEnglish(OPTION_MESSAGES.serverAddressFirst) })
			await put('ServerAddress', 'https://ferry.example')
			expect((await put('EpayId', '1001')).body.success).toBe(true)
		})

		test.each([
			['PayAddress', 'https://epay.example'],
			['EpayKey', 'merchant-key'],
			['Price', '7.5'],
			['MinTopUp', '2'],
			['TopupGroupRatio', '{"default":1,"vip":0.9}'],
			['PayMethods', '[{"name":"Alipay","type":"alipay","color":"#1677ff"}]'],
			['CustomCallbackAddress', 'https://callback.example'],
		])('saves payment setting %s only once the server address is set', async (key, value) => {
			expect((await put(key, value)).body).toEqual({ success: false, message: inEnglish(OPTION_MESSAGES.serverAddressFirst) })
			await put('ServerAddress', 'https://ferry.example')
			expect((await put(key, value)).body.success).toBe(true)
			if (key !== 'EpayKey') expect((await listed())[key]).toBe(key === 'TopupGroupRatio' || key === 'PayMethods' ? JSON.stringify(JSON.parse(value)) : value)
		})

		test('lets a payment setting be cleared without a server address', async () => {
			expect((await put('PayAddress', '')).body.success).toBe(true)
		})

		test('strips trailing slashes from the pay, callback and WeChat server addresses', async () => {
			await put('ServerAddress', 'https://ferry.example')
			await put('PayAddress', 'https://epay.example/')
			await put('CustomCallbackAddress', 'https://callback.example//')
			await put('WeChatServerAddress', 'https://wechat.example/')
			expect(await listed()).toMatchObject({ PayAddress: 'https://epay.example', CustomCallbackAddress: 'https://callback.example', WeChatServerAddress: 'https://wechat.example' })
		})

		test('resets model ratios to the defaults', async () => {
			await put('ModelRatio', '{"gpt-4o":99}')
			const reset = await ferry.call('POST', '/api/option/rest_model_ratio', { as: root })
			expect(reset.body.success).toBe(true)
			expect(JSON.parse((await listed()).ModelRatio!)).toEqual(DEFAULT_MODEL_RATIO)
		})

		test('a missing key or value is a 400', async () => {
			expect((await ferry.call('PUT', '/api/option/', { as: root, body: { value: '1' } })).status).toBe(400)
		})
	})
}
