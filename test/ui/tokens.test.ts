/** The token page rendered by the server for a signed-in user, through a real app on SQLite. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { hydrationData, renderPage } from './page'

const RENDER_TIMEOUT = 60_000

/** The text of the table body, tags stripped, so assertions read like the page. */
function tableText(html: string) {
	const body = html.slice(html.indexOf('<tbody'), html.indexOf('</tbody>'))
	return body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

describe('the token page, rendered on the server', () => {
	let ferry: TestApp
	let alice: Caller
	let bob: Caller
	const keys: Record<string, string> = {}

	async function createToken(owner: Caller, body: Record<string, unknown>) {
		const answer = await ferry.call('POST', '/api/token/', { as: owner, body })
		if (!answer.body.success) throw new Error(`creating a token failed: ${answer.body.message}`)
		keys[body.name as string] = answer.body.data[0].key
		return answer.body.data[0] as { id: number; key: string }
	}

	const render = (path: string, caller: Caller | undefined, language?: 'en') => renderPage(ferry, path, [caller?.cookie, language && `language=${language}`, 'tz=UTC'])

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		alice = await ferry.createUser('alice')
		bob = await ferry.createUser('bob')
		await createToken(alice, { name: 'alpha-main' })
		await createToken(alice, { name: 'beta-unlimited', unlimited_quota: true, remain_quota: 0, expired_time: 4_102_444_800 })
		await createToken(alice, { name: 'gamma-limited', remain_quota: 5_000_000, model_limits_enabled: true, model_limits: 'gpt-4o-mini' })
		const disabled = await createToken(alice, { name: 'delta-off' })
		await ferry.call('PUT', '/api/token/?status_only=true', { as: alice, body: { id: disabled.id, status: 2 } })
		const expired = await createToken(alice, { name: 'epsilon-old' })
		const { tokens } = ferry.store.tables
		await ferry.store.db.update(tokens).set({ expiredTime: 1_000 }).where(eq(tokens.id, expired.id))
		await createToken(alice, { name: 'zeta-empty', remain_quota: 0 })
		await createToken(bob, { name: 'bobs-secret' })
	}, RENDER_TIMEOUT)

	afterAll(() => ferry.close())

	test('shows the user\'s tokens with masked keys, quotas, expiry, group and the four state tags', async () => {
		const { response, html } = await render('/token', alice)
		expect(response.status).toBe(200)
		const text = tableText(html)
		for (const name of ['alpha-main', 'beta-unlimited', 'gamma-limited', 'delta-off', 'epsilon-old', 'zeta-empty']) expect(text).toContain(name)
		for (const tag of ['已启用', '已禁用', '已过期', '已耗尽', '限制模型', '无限额度', '永不过期', '2100-01-01 00:00:00', '$1.00', '$10.00', '用户分组']) expect(text).toContain(tag)
		// the key shows masked in the table: its start and end only
		const key = keys['alpha-main']!
		expect(text).toContain(`${key.slice(0, 7)}**********${key.slice(-4)}`)
		expect(text).not.toContain(key)
		for (const action of ['复制', '聊天', '禁用', '启用', '编辑', '删除']) expect(text).toContain(action)
		expect(html).toContain('添加令牌')
		expect(html).toContain('复制所选令牌')
	}, RENDER_TIMEOUT)

	test('never shows another user\'s tokens', async () => {
		const { html } = await render('/token', alice)
		expect(html).not.toContain('bobs-secret')
		const forBob = tableText((await render('/token', bob)).html)
		expect(forBob).toContain('bobs-secret')
		expect(forBob).not.toContain('alpha-main')
	}, RENDER_TIMEOUT)

	test('searches by part of the name and by the whole key from the URL, and fills the search fields', async () => {
		const byName = await render('/token?keyword=gamma', alice)
		expect(tableText(byName.html)).toContain('gamma-limited')
		expect(tableText(byName.html)).not.toContain('alpha-main')
		expect(byName.html).toMatch(/name="keyword"[^>]*value="gamma"/)
		const byKey = await render(`/token?token=${keys['delta-off']}`, alice)
		expect(tableText(byKey.html)).toContain('delta-off')
		expect(tableText(byKey.html)).not.toContain('gamma-limited')
		expect(tableText((await render('/token?keyword=nothing-like-this', alice)).html)).toContain('没有符合搜索条件的令牌')
	}, RENDER_TIMEOUT)

	test('pages through the tokens as the URL asks, newest first', async () => {
		const { html } = await render('/token?page_size=10&p=1', alice)
		expect(hydrationData(html).loaderData.token.tokens).toMatchObject({ page: 1, page_size: 10, total: 6 })
		expect(hydrationData(html).loaderData.token.tokens.items[0].name).toBe('zeta-empty')
		const second = hydrationData((await render('/token?page_size=10&p=2', alice)).html).loaderData.token.tokens
		expect(second).toMatchObject({ page: 2, total: 6, items: [] })
	}, RENDER_TIMEOUT)

	test('hands the editor the user\'s models and usable groups with their ratios', async () => {
		const data = hydrationData((await render('/token', alice)).html).loaderData.token
		expect(Array.isArray(data.models)).toBe(true)
		expect(data.groups).toMatchObject({ default: { ratio: 1 } })
	}, RENDER_TIMEOUT)

	test('renders in English with the language cookie', async () => {
		const { response, html } = await render('/token', alice, 'en')
		expect(response.status).toBe(200)
		expect(html).toContain('<html lang="en"')
		const text = tableText(html)
		for (const label of ['Enabled', 'Disabled', 'Expired', 'Exhausted', 'Model-limited', 'Unlimited quota', 'Never expires', 'Copy', 'Chat', 'Edit', 'Delete']) expect(text).toContain(label)
		expect(html).toContain('Add token')
		expect(html).toContain('Copy selected tokens')
		expect(html).toContain('Search by token name')
		expect(html).not.toContain('添加令牌')
	}, RENDER_TIMEOUT)

	test('sends a visitor without a session to the login page', async () => {
		const { response } = await render('/token', undefined)
		expect(response.status).toBe(302)
		expect(response.headers.get('location')).toBe('/login')
	}, RENDER_TIMEOUT)
})
