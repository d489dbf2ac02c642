/**
 * The management API answers in the caller's language (issue 16): the console sends
 * `Accept-Language` with every call; a caller that names no language of Ferry's (a script) is
 * answered in English. The log list words the lines Ferry writes in the reader's language too.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { acceptedLanguage } from '@/api/language'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const allowAll = { hit: () => true }
const chinese = /[\u4e00-\u9fff]/
const zh = { 'accept-language': 'zh-CN,zh;q=0.9' }
const en = { 'accept-language': 'en-US,en;q=0.9' }

describe('the accepted language', () => {
	test('is the best-weighted of zh and en a header asks for, and none for other languages', () => {
		expect(acceptedLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh')
		expect(acceptedLanguage('fr-FR,en;q=0.5,zh;q=0.7')).toBe('zh')
		expect(acceptedLanguage('en-GB')).toBe('en')
		expect(acceptedLanguage('fr,de;q=0.5')).toBeUndefined()
		expect(acceptedLanguage('zh;q=0,en;q=0.1')).toBe('en')
		expect(acceptedLanguage(null)).toBeUndefined()
	})
})

for (const target of databaseTargets()) {
	describe(`the API in the caller's language on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target, { rateLimiter: allowAll })
			root = await ferry.loginRoot()
		})
		afterEach(() => ferry.close())

		test('a failed sign-in answers in Chinese or English as asked, in English when no language is named', async () => {
			const body = { username: 'root', password: 'not-the-password' }
			expect((await ferry.call('POST', '/api/user/login', { body, headers: zh })).body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' })
			expect((await ferry.call('POST', '/api/user/login', { body, headers: en })).body).toEqual({ success: false, message: 'username or password is wrong, or the user has been banned' })
			expect((await ferry.call('POST', '/api/user/login', { body })).body.message).toBe('username or password is wrong, or the user has been banned')
			// The console's language cookie decides for a caller that sends no Accept-Language.
			expect((await ferry.call('POST', '/api/user/login', { body, headers: { cookie: 'language=zh' } })).body.message).toBe('用户名或密码错误，或用户已被封禁')
		})

		test('permission refusals, validation with values and not-found answers follow the language', async () => {
			const user = await ferry.createUser('sailor')
			expect((await ferry.call('GET', '/api/user/', { as: user, headers: zh })).body.message).toBe('无权进行此操作')
			expect((await ferry.call('GET', '/api/user/', { as: user, headers: en })).body.message).toBe('insufficient permission for this operation')
			const badIps = { name: 'main', allow_ips: '10.0.0.0/33' }
			expect((await ferry.call('POST', '/api/token/', { as: user, body: badIps, headers: zh })).body.message).toBe('不是有效的 IP 地址或 CIDR 网段：10.0.0.0/33')
			expect((await ferry.call('POST', '/api/token/', { as: user, body: badIps, headers: en })).body.message).toBe('not a valid IP address or CIDR range: 10.0.0.0/33')
			// A field zod refuses in its own (English) words is named by its path instead.
			const wrongType = await ferry.call('POST', '/api/token/', { as: user, body: { name: 'main', unlimited_quota: 'yes' }, headers: zh })
			expect(wrongType.body.message).toBe('参数错误：unlimited_quota')
			expect((await ferry.call('DELETE', '/api/token/987654/', { as: user, headers: zh })).body.message).toBe('令牌不存在')
		})

		test('an option refused for its value names the option and the rule in the language', async () => {
			const zhAnswer = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: 'many' }, headers: zh })
			expect(zhAnswer.body).toEqual({ success: false, message: 'RetryTimes 的值无效：请输入数字' })
			const shape = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'GroupRatio', value: '{"vip": "high"}' }, headers: zh })
			expect(shape.body.message).toBe('GroupRatio 的值无效：必须把每个名称映射为 0 到 10000 之间的数字；“vip”不符合')
			expect(shape.body.message).not.toMatch(/expected|received/)
			const enAnswer = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: 'many' }, headers: en })
			expect(enAnswer.body).toEqual({ success: false, message: 'RetryTimes please enter a number' })
		})

		test('success messages follow the language, and protocol words stay as they are', async () => {
			const reset = await ferry.call('POST', '/api/option/rest_model_ratio', { as: root, headers: zh })
			expect(reset.body).toEqual({ success: true, message: '模型倍率已重置为默认值' })
			expect((await ferry.call('POST', '/api/option/rest_model_ratio', { as: root, headers: en })).body.message).toBe('model ratios have been reset to the defaults')
			const codes = await ferry.call('POST', '/api/redemption/', { as: root, body: { name: 'gift', quota: 1000, count: 1 } })
			const redeemed = await ferry.call('POST', '/api/user/topup', { as: root, body: { key: codes.body.data[0] }, headers: zh })
			expect(redeemed.body).toMatchObject({ success: true, message: '兑换成功', data: 1000 })
		})

		test('the log list words Ferry\'s own lines in the reader\'s language and keeps older lines as stored', async () => {
			const codes = await ferry.call('POST', '/api/redemption/', { as: root, body: { name: 'gift', quota: 1000, count: 1 } })
			await ferry.call('POST', '/api/user/topup', { as: root, body: { key: codes.body.data[0] } })
			await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'SystemName', value: 'Harbour' } })
			const { logs } = ferry.store.tables
			await ferry.store.db.insert(logs).values({ userId: root.userId, username: 'root', type: 4, content: 'a line from before the codes', quota: 0 })
			const contents = async (headers: Record<string, string>) =>
				(await ferry.call('GET', '/api/log/?p=1&page_size=50', { as: root, headers })).body.data.items.map((entry: { content: string }) => entry.content)
			const zhLines = await contents(zh)
			expect(zhLines).toContain('使用兑换码 #1（gift）兑换 1000 额度')
			expect(zhLines).toContain('将设置 SystemName 改为 Harbour')
			expect(zhLines).toContain('超级管理员的初始额度')
			expect(zhLines).toContain('a line from before the codes')
			const enLines = await contents(en)
			expect(enLines).toContain('redeemed code #1 (gift) for 1000 quota')
			expect(enLines).toContain('Set the option SystemName to Harbour')
			expect(enLines).toContain('initial quota of the super admin')
			expect(enLines.filter((line: string) => chinese.test(line))).toEqual([])
		})
	})
}
