/**
 * The super admin's settings tabs rendered by the server through a real app: root sees operation,
 * system and other with the stored option values (never a secret); an admin and an ordinary user
 * see only the personal tab and get no option data in the page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { hydrationData, markup, renderPage } from './page'

const SECRETS = { SMTPToken: 'smtp-secret-7f3a', EpayKey: 'epay-secret-91c2', GitHubClientSecret: 'github-secret-55d0', WorkerValidKey: 'worker-secret-c4e8' }
const SENSITIVE_WORD = 'canary-sensitive-word'

describe('the super admin settings tabs rendered on the server', () => {
	let app: TestApp
	let root: Caller
	let admin: Caller
	let user: Caller

	beforeAll(async () => {
		app = await createTestApp(databaseTargets()[0]!)
		root = await app.loginRoot()
		admin = await app.createUser('deckhand', ROLE.admin)
		user = await app.createUser('passenger')
		const { options } = app.dependencies
		await options.set('ServerAddress', 'https://ferry.example')
		for (const [key, value] of Object.entries(SECRETS)) await options.set(key, value)
		await options.set('SensitiveWords', SENSITIVE_WORD)
		await options.set('QuotaPerUnit', '250000')
		await options.set('GroupRatio', '{"default":1,"vip":2.5}')
		await options.set('SystemName', 'Harbour Gate')
		await options.set('About', 'about-text-of-the-harbour')
	})

	afterAll(async () => {
		await app.close()
	})

	const render = (path: string, caller: Caller, language?: 'en') => renderPage(app, path, [caller.cookie, language && `language=${language}`])
	const inputValue = (html: string, key: string) => html.match(new RegExp(`id="option-${key}"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*id="option-${key}"`))?.slice(1).find((value) => value !== undefined)
	const textareaValue = (html: string, key: string) => html.match(new RegExp(`<textarea[^>]*id="option-${key}"[^>]*>([^<]*)</textarea>`))?.[1]

	test('offers root the operation, system and other tabs next to the personal one', async () => {
		const { status, html } = await render('/setting', root)
		expect(status).toBe(200)
		for (const name of ['个人设置', '运营设置', '系统设置', '其他设置']) expect(markup(html)).toContain(`>${name}</button>`)
	})

	test('shows root the operation tab with the stored values, JSON indented', async () => {
		const { status, html } = await render('/setting?tab=operation', root)
		expect(status).toBe(200)
		const page = markup(html)
		expect(page).toContain('data-testid="operation-tab"')
		for (const section of ['general', 'drawing', 'sensitive', 'log', 'dashboard', 'monitoring', 'quota', 'chat', 'group', 'model-ratio']) {
			expect(page).toContain(`data-testid="section-${section}"`)
		}
		expect(inputValue(page, 'QuotaPerUnit')).toBe('250000')
		expect(inputValue(page, 'PreConsumedQuota')).toBe('500')
		expect(textareaValue(page, 'SensitiveWords')).toBe(SENSITIVE_WORD)
		expect(textareaValue(page, 'GroupRatio')).toBe(JSON.stringify({ default: 1, vip: 2.5 }, null, 2).replaceAll('"', '&quot;'))
		expect(page).toContain('data-testid="log-cleanup"')
	})

	test('shows the quota options in dollars when the console shows currency, and in quota units when it does not', async () => {
		const { options } = app.dependencies
		await options.set('QuotaForNewUser', '500000')
		await options.set('QuotaRemindThreshold', '125000')
		try {
			const dollars = markup((await render('/setting?tab=operation', root)).html)
			expect(inputValue(dollars, 'QuotaForNewUser')).toBe('2')
			expect(inputValue(dollars, 'QuotaRemindThreshold')).toBe('0.5')
			expect(inputValue(dollars, 'PreConsumedQuota')).toBe('500')
			expect(dollars).toContain('新用户初始额度（美元）')
			expect(markup((await render('/setting?tab=operation', root, 'en')).html)).toContain('Initial quota of new users (USD)')
			await options.set('DisplayInCurrencyEnabled', 'false')
			const units = markup((await render('/setting?tab=operation', root)).html)
			expect(inputValue(units, 'QuotaForNewUser')).toBe('500000')
			expect(inputValue(units, 'QuotaRemindThreshold')).toBe('125000')
			expect(units).not.toContain('新用户初始额度（美元）')
		} finally {
			await options.set('DisplayInCurrencyEnabled', 'true')
			await options.set('QuotaForNewUser', '0')
			await options.set('QuotaRemindThreshold', '1000')
		}
	})

	test('shows root the request rate limit fields with their stored values, in English too', async () => {
		const { options } = app.dependencies
		await options.set('ModelRequestRateLimitCount', '120')
		await options.set('ModelRequestRateLimitGroup', '{"vip":[600,500]}')
		const { html } = await render('/setting?tab=operation', root, 'en')
		const page = markup(html)
		expect(page).toContain('data-testid="section-rate-limit"')
		expect(page).toContain('>Request rate limits<')
		expect(inputValue(page, 'ModelRequestRateLimitDurationMinutes')).toBe('1')
		expect(inputValue(page, 'ModelRequestRateLimitCount')).toBe('120')
		expect(inputValue(page, 'ModelRequestRateLimitSuccessCount')).toBe('1000')
		expect(textareaValue(page, 'ModelRequestRateLimitGroup')).toBe(JSON.stringify({ vip: [600, 500] }, null, 2).replaceAll('"', '&quot;'))
		expect(page).toContain('id="option-ModelRequestRateLimitEnabled"')
	})

	test('shows root the system tab with the server address, and every secret field empty', async () => {
		const { html } = await render('/setting?tab=system', root)
		const page = markup(html)
		expect(page).toContain('data-testid="system-tab"')
		expect(inputValue(page, 'ServerAddress')).toBe('https://ferry.example')
		for (const key of Object.keys(SECRETS)) expect(inputValue(page, key)).toBe('')
		expect(page).toContain('留空则保持不变')
		expect(page).toContain('允许通过密码进行登录')
	})

	test('never puts a secret option into the page, in any tab', async () => {
		for (const tab of ['operation', 'system', 'other']) {
			const { html } = await render(`/setting?tab=${tab}`, root)
			for (const secret of Object.values(SECRETS)) expect(html).not.toContain(secret)
			const options = hydrationData(html).loaderData['setting']?.options as Record<string, string>
			expect(options.ServerAddress).toBe('https://ferry.example')
			for (const key of Object.keys(SECRETS)) expect(options).not.toHaveProperty(key)
		}
	})

	test('shows root the other tab with the content options, in English too', async () => {
		const { html } = await render('/setting?tab=other', root, 'en')
		const page = markup(html)
		expect(page).toContain('data-testid="other-tab"')
		expect(inputValue(page, 'SystemName')).toBe('Harbour Gate')
		expect(textareaValue(page, 'About')).toBe('about-text-of-the-harbour')
		expect(page).toContain('>Personalisation<')
		expect(page).toContain('>Operation</button>')
	})

	for (const [who, caller] of [['an admin', () => admin], ['an ordinary user', () => user]] as const) {
		test(`shows ${who} only the personal tab and no option data, whatever the tab asked`, async () => {
			for (const tab of ['operation', 'system', 'other']) {
				const { status, html } = await render(`/setting?tab=${tab}`, caller())
				expect(status).toBe(200)
				const page = markup(html)
				expect(page).toContain('>个人设置</button>')
				for (const name of ['运营设置', '系统设置', '其他设置']) expect(page).not.toContain(name)
				expect(page).toContain('data-testid="profile-card"')
				expect(page).not.toContain('data-testid="operation-tab"')
				expect(html).not.toContain(SENSITIVE_WORD)
				expect(hydrationData(html).loaderData['setting']?.options).toBeNull()
			}
		})
	}
})
