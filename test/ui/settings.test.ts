/**
 * The settings page rendered by the server through a real app: the personal tab's profile,
 * models, invitation and binding rows come from the signed-in account, in zh and en.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { renderPage } from './page'
import { exemptFromLedgerAudit } from '../helpers/ledger-audit'

const QUOTA_PER_UNIT = 500_000
const MODEL_NAMES = Array.from({ length: 12 }, (_, index) => `model-${String(index + 1).padStart(2, '0')}`)

describe('the settings page rendered on the server', () => {
	let app: TestApp
	let root: Caller
	let walker: Caller

	beforeAll(async () => {
		app = await createTestApp(databaseTargets()[0]!)
		root = await app.loginRoot()
		walker = await app.createUser('walker')
		const { users } = app.store.tables
		exemptFromLedgerAudit(app.store, 'balances written as display fixtures')
		await app.store.db.update(users).set({
			quota: 3 * QUOTA_PER_UNIT, usedQuota: QUOTA_PER_UNIT / 2, requestCount: 42, affQuota: 2 * QUOTA_PER_UNIT,
			affHistoryQuota: 5 * QUOTA_PER_UNIT, affCount: 7, email: 'walker@example.com', displayName: 'Walker Sea',
		}).where(eq(users.id, walker.userId))
		const channel = await app.call('POST', '/api/channel/', {
			as: root, body: { type: 1, name: 'harbour', key: 'sk-upstream', group: 'default', models: MODEL_NAMES.join(','), base_url: 'https://upstream.example' },
		})
		expect(channel.body.success).toBe(true)
		// Only priced models are offered to users.
		await app.dependencies.options.set('ModelRatio', JSON.stringify(Object.fromEntries(MODEL_NAMES.map((name) => [name, 1]))))
	})

	afterAll(async () => {
		await app.close()
	})

	const render = (path: string, caller?: Caller, language?: 'en') => renderPage(app, path, [caller?.cookie, language && `language=${language}`])

	const testIdElement = (html: string, testId: string) => html.match(new RegExp(`<[^>]*data-testid="${testId}"[^>]*>([^<]*)<`))

	test('shows the profile of the signed-in user with balance, consumption and request count', async () => {
		const { response, html } = await render('/setting', walker)
		expect(response.status).toBe(200)
		expect(html).toContain('Walker Sea')
		expect(html).toContain('普通用户')
		expect(html).not.toContain('>管理员<')
		expect(testIdElement(html, 'user-id')![1]).toBe(`ID: ${walker.userId}`)
		expect(testIdElement(html, 'user-group')![1]).toBe('分组: default')
		const balance = testIdElement(html, 'balance')!
		expect(balance[0]).toContain(`data-quota="${3 * QUOTA_PER_UNIT}"`)
		expect(balance[1]).toBe('$3.00')
		expect(testIdElement(html, 'used-quota')![1]).toBe('$0.50')
		expect(testIdElement(html, 'request-count')![1]).toBe('42')
	})

	test('lists the first ten available models and offers the rest behind a toggle', async () => {
		const { html } = await render('/setting', walker)
		for (const model of MODEL_NAMES.slice(0, 10)) expect(html).toContain(`>${model}</button>`)
		expect(html).not.toContain('>model-11<')
		expect(html).toContain('更多 2 个模型')
	})

	test('shows the invitation income, count and the link built from the account\'s code', async () => {
		const { html } = await render('/setting', walker)
		const code = (await app.call('GET', '/api/user/aff', { as: walker })).body.data as string
		expect(code.length).toBeGreaterThan(0)
		expect(testIdElement(html, 'aff-quota')![1]).toBe('$2.00')
		expect(testIdElement(html, 'aff-history-quota')![1]).toBe('$5.00')
		expect(testIdElement(html, 'aff-count')![1]).toBe('7')
		expect(testIdElement(html, 'invitation-link')![1]).toBe(`/register?aff=${code}`)
		expect(html).toContain('划转到余额')
	})

	test('shows the bound email and "not bound" for the other sign-in methods, disabled while the server flags are off', async () => {
		const { html } = await render('/setting', walker)
		expect(html).toContain('walker@example.com')
		expect(html.match(/未绑定/g)?.length).toBe(5)
		const github = html.slice(html.indexOf('data-testid="binding-github"'), html.indexOf('data-testid="binding-telegram"'))
		expect(github).toMatch(/<button[^>]*disabled=""/)
		await app.dependencies.options.set('GitHubOAuthEnabled', 'true')
		await app.dependencies.options.set('GitHubClientId', 'client-id')
		try {
			const enabled = (await render('/setting', walker)).html
			const row = enabled.slice(enabled.indexOf('data-testid="binding-github"'), enabled.indexOf('data-testid="binding-telegram"'))
			expect(row).not.toMatch(/<button[^>]*disabled=""/)
		} finally {
			await app.dependencies.options.set('GitHubOAuthEnabled', 'false')
		}
	})

	test('offers the OIDC binding only while OIDC sign-in is on', async () => {
		const oidcRow = (html: string) => html.slice(html.indexOf('data-testid="binding-oidc"'), html.indexOf('</li>', html.indexOf('data-testid="binding-oidc"')))
		const off = oidcRow((await render('/setting', walker)).html)
		expect(off).toContain('OIDC')
		expect(off).toMatch(/<button[^>]*disabled=""/)
		await app.dependencies.options.set('oidc.enabled', 'true')
		try {
			expect(oidcRow((await render('/setting', walker)).html)).not.toMatch(/<button[^>]*disabled=""/)
		} finally {
			await app.dependencies.options.set('oidc.enabled', 'false')
		}
	})

	test('offers unbinding, with its confirmation text, only on the rows that are bound, in zh and en', async () => {
		const { users } = app.store.tables
		await app.store.db.update(users).set({ githubId: '5832', oidcId: 'walker-sub' }).where(eq(users.id, walker.userId))
		try {
			const { html } = await render('/setting', walker)
			expect(testIdElement(html, 'unbind-github')?.[1]).toBe('解绑')
			expect(testIdElement(html, 'unbind-oidc')?.[1]).toBe('解绑')
			for (const provider of ['wechat', 'telegram', 'linuxdo']) expect(html).not.toContain(`data-testid="unbind-${provider}"`)
			const english = (await render('/setting', walker, 'en')).html
			expect(testIdElement(english, 'unbind-github')?.[1]).toBe('Unbind')
		} finally {
			await app.store.db.update(users).set({ githubId: '', oidcId: '' }).where(eq(users.id, walker.userId))
		}
	})

	test('offers the access token, password and account deletion actions without generating a token while rendering', async () => {
		const { html } = await render('/setting', walker)
		expect(html).toContain('生成系统访问令牌')
		expect(html).toContain('修改密码')
		expect(html).toContain('删除个人账户')
		const { users } = app.store.tables
		const [row] = await app.store.db.select({ hash: users.accessTokenHash }).from(users).where(eq(users.id, walker.userId))
		expect(row!.hash).toBeNull()
	})

	// The super admin's other tabs are covered by test/ui/settings-admin.test.ts.
	test('tags the super admin as the super admin, as the user list does, and opens on the personal tab', async () => {
		const { response, html } = await render('/setting', root)
		expect(response.status).toBe(200)
		expect(html).toContain('>超级管理员<')
		expect(html).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*>个人设置</)
	})

	test('sends a visitor without a session to the login page', async () => {
		const { response } = await render('/setting')
		expect(response.status).toBe(302)
		expect(response.headers.get('location')).toBe('/login')
	})

	test('renders English when the language cookie asks for it', async () => {
		const { response, html } = await render('/setting', walker, 'en')
		expect(response.status).toBe(200)
		expect(html).toContain('<html lang="en"')
		for (const text of ['Ordinary user', 'Balance', 'Historical consumption', 'Available models', '2 more models', 'Pending income', 'Invitation link', 'Not bound', 'Generate system access token', 'Delete personal account']) {
			expect(html).toContain(text)
		}
		expect(html).not.toContain('当前余额')
	})
})
