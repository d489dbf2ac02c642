/** Server rendering of the channel list through a real app: admin-only, seeded rows, tag mode, English. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { markup, renderPage } from './page'

describe('the channel list page, rendered on the server', () => {
	let ferry: TestApp
	let root: Caller
	let user: Caller
	let disabledId = 0

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		root = await ferry.loginRoot()
		user = await ferry.createUser('plain', ROLE.user)
		const create = async (fields: Record<string, unknown>) => {
			const answer = await ferry.call('POST', '/api/channel/', { as: root, body: { type: CHANNEL_TYPE.openai, key: 'sk-secret-upstream', models: 'gpt-4o', ...fields } })
			return answer.body.data[0].id as number
		}
		await create({ name: 'Harbour OpenAI', group: 'default,vip', priority: 7, weight: 3 })
		await create({ name: 'Claude North', type: CHANNEL_TYPE.anthropic, models: 'claude-3', tag: 'northern' })
		await create({ name: 'Claude South', type: CHANNEL_TYPE.anthropic, models: 'claude-3-haiku', tag: 'northern' })
		disabledId = await create({ name: 'Sleepy Azure', type: CHANNEL_TYPE.azure })
		await ferry.call('PUT', '/api/channel/', { as: root, body: { id: disabledId, status: 3 } })
	})
	afterAll(() => ferry.close())

	/** `html` is the rendered page without the hydration data (which tag rows carry their channels in). */
	async function get(path: string, caller: Caller, cookies = '') {
		const { status, html } = await renderPage(ferry, path, [caller.cookie, cookies])
		return { status, whole: html, html: markup(html) }
	}
	/** The texts missing from the page: a short failure message instead of the whole page. */
	const missing = (html: string, texts: string[]) => texts.filter((text) => !html.includes(text))
	const present = (html: string, texts: string[]) => texts.filter((text) => html.includes(text))

	test('shows every channel with its type name, groups, status, priority and weight to an admin', async () => {
		const { status, html } = await get('/channel', root)
		expect(status).toBe(200)
		expect(missing(html, ['Harbour OpenAI', 'Claude North', 'Claude South', 'Sleepy Azure', 'Anthropic Claude', 'Azure OpenAI', '>vip<', '已启用', '已自动禁用', '未测试'])).toEqual([])
		expect(html).toMatch(/aria-label="Harbour OpenAI 的优先级"[^>]*value="7"/)
		expect(html).toMatch(/aria-label="Harbour OpenAI 的权重"[^>]*value="3"/)
		expect(missing(html, ['href="/channel/add"', `href="/channel/edit/${disabledId}"`, '测试所有渠道', '更新所有已启用渠道余额', '删除所有已禁用渠道', '修复数据库一致性', '刷新'])).toEqual([])
		// batch-only buttons wait for batch mode
		expect(present(html, ['删除所选渠道', '批量设置标签'])).toEqual([])
		expect(html).not.toContain('sk-secret-upstream')
	})

	test('refuses a normal user with the not-allowed state and no channel data', async () => {
		const { status, html, whole } = await get('/channel', user)
		expect(status).toBe(403)
		expect(missing(html, ['data-testid="not-allowed"', '无权进行此操作'])).toEqual([])
		expect(present(whole, ['Harbour OpenAI', 'Claude North', 'sk-secret-upstream'])).toEqual([])
	})

	test('searches by keyword, by model and by group from the URL', async () => {
		const byKeyword = (await get('/channel?keyword=harbour', root)).html
		expect(present(byKeyword, ['Harbour OpenAI', 'Claude North', 'value="harbour"'])).toEqual(['Harbour OpenAI', 'value="harbour"'])
		const byModel = (await get('/channel?model=haiku', root)).html
		expect(present(byModel, ['Claude South', 'Claude North', 'Harbour OpenAI'])).toEqual(['Claude South'])
		const byGroup = (await get('/channel?group=vip', root)).html
		expect(present(byGroup, ['Harbour OpenAI', 'Sleepy Azure', 'Claude North'])).toEqual(['Harbour OpenAI'])
	})

	test('folds tagged channels into one tag row with its actions in tag mode', async () => {
		const { html } = await get('/channel?tag_mode=true', root)
		// Enabling and disabling the whole tag are in the row's menu, which opens in the browser.
		expect(missing(html, ['northern', '2 个渠道', '编辑标签', 'aria-label="更多操作"', 'Harbour OpenAI', 'aria-label="northern 的优先级"'])).toEqual([])
		// the tag's channels are behind the row, not in the table
		expect(present(html, ['Claude North', 'Claude South'])).toEqual([])
	})

	test('pages with page_size from the URL', async () => {
		const { html } = await get('/channel?page_size=10&id_sort=true', root)
		expect(html).toContain('共 4 条')
	})

	test('renders in English with the language cookie', async () => {
		const { status, html } = await get('/channel', root, 'language=en')
		expect(status).toBe(200)
		expect(missing(html, ['<html lang="en"', 'Test all channels', 'Delete disabled channels', 'Fix database consistency', 'Not tested', 'Response time', 'Tag aggregation', 'Priority of Harbour OpenAI'])).toEqual([])
		expect(present(html, ['测试所有渠道', '自动禁用', '响应时间'])).toEqual([])
	})
})
