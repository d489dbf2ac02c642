/** Server rendering of the user administration page through a real app and real sessions. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { renderPage } from './page'

describe('the user administration page, server-rendered', () => {
	let ferry: TestApp
	let root: Caller
	const ids: Record<string, number> = {}

	const render = (path: string, caller: Caller, extraCookie = '') => renderPage(ferry, path, [caller.cookie, extraCookie])

	/** The HTML of one table row, found by its row key (the user id). */
	function row(html: string, id: number) {
		const start = html.indexOf(`data-row-key="${id}"`)
		if (start < 0) return ''
		return html.slice(start, html.indexOf('</tr>', start))
	}

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		root = await ferry.loginRoot()
		const create = async (username: string, display_name: string) => {
			const answer = await ferry.call('POST', '/api/user/', { as: root, body: { username, display_name, password: 'password123' } })
			ids[username] = answer.body.data.id
		}
		await create('carol', 'Caroline')
		await create('dave', 'David')
		await create('gone', 'Gone')
		await ferry.call('PUT', '/api/user/', { as: root, body: { id: ids.dave, group: 'vip', quota: 1_500_000 } })
		await ferry.call('POST', '/api/user/manage', { as: root, body: { id: ids.gone, action: 'delete' } })
		const rootCode = (await ferry.call('GET', '/api/user/aff', { as: root })).body.data
		const invited = await ferry.call('POST', '/api/user/register', { body: { username: 'invited', password: 'password123', aff_code: rootCode } })
		expect(invited.body.success).toBe(true)
		const listed = await ferry.call('GET', '/api/user/search?keyword=invited', { as: root })
		ids.invited = listed.body.data.items[0].id
	})
	afterAll(() => ferry.close())

	test('shows an admin the title, the users with display names, groups, role and status tags', async () => {
		const { status, html } = await render('/user', root)
		expect(status).toBe(200)
		expect(html).toContain('管理用户')
		expect(html).toContain('添加用户')
		for (const header of ['ID', '用户名', '分组', '统计信息', '邀请信息', '角色', '状态', '操作']) expect(html).toContain(`>${header}</th>`)
		expect(row(html, 1)).toContain('超级管理员')
		expect(row(html, ids.carol!)).toContain('Caroline')
		expect(row(html, ids.carol!)).toContain('普通用户')
		expect(row(html, ids.carol!)).toContain('已激活')
		expect(row(html, ids.dave!)).toContain('vip')
	})

	test('shows remaining quota, used quota and call count through the currency display', async () => {
		const { html } = await render('/user', root)
		expect(row(html, ids.dave!)).toContain('剩余额度 $3.00')
		expect(row(html, ids.dave!)).toContain('已用额度 $0.00')
		expect(row(html, ids.dave!)).toContain('调用次数 0')
	})

	test('shows the invitation count, the inviter id, and "no inviter" for an uninvited user', async () => {
		const { html } = await render('/user', root)
		expect(row(html, 1)).toContain('邀请人数 1')
		expect(row(html, 1)).toContain('无邀请人')
		expect(row(html, ids.invited!)).toContain('邀请人 ID 1')
		expect(row(html, ids.invited!)).toContain('邀请总收益')
	})

	test('tags a deactivated user and offers it no actions', async () => {
		const { html } = await render('/user', root)
		const gone = row(html, ids.gone!)
		expect(gone).toContain('已注销')
		for (const action of ['提升', '降级', '禁用', '编辑', '注销</button>', '更多操作']) expect(gone).not.toContain(action)
		// Edit and disable on the row; promote and deactivate are in its menu, which opens in the browser.
		const carol = row(html, ids.carol!)
		for (const action of ['编辑</button>', '禁用</button>', 'aria-label="更多操作"']) expect(carol).toContain(action)
	})

	test('filters by keyword and by group from the URL', async () => {
		const byKeyword = (await render('/user?keyword=caro', root)).html
		expect(row(byKeyword, ids.carol!)).not.toBe('')
		expect(row(byKeyword, ids.dave!)).toBe('')
		expect(byKeyword).toContain('value="caro"')
		const byGroup = (await render('/user?group=vip', root)).html
		expect(row(byGroup, ids.dave!)).not.toBe('')
		expect(row(byGroup, ids.carol!)).toBe('')
		expect(row(byGroup, 1)).toBe('')
	})

	test('pages the list by the URL: page size and page number', async () => {
		const first = (await render('/user?page_size=10', root)).html
		expect(first).toContain('共 5 条')
		const second = (await render('/user?p=2&page_size=10', root)).html
		expect(second).toContain('暂无数据')
	})

	test('lets an admin (role 10) in', async () => {
		const admin = await ferry.createUser('helper', ROLE.admin)
		const { status, html } = await render('/user', admin)
		expect(status).toBe(200)
		expect(row(html, ids.carol!)).toContain('Caroline')
	})

	test('answers an ordinary user 403 with the not-allowed state and no user data', async () => {
		const user = await ferry.login('carol', 'password123')
		const { status, html } = await render('/user', user)
		expect(status).toBe(403)
		expect(html).toContain('无权进行此操作')
		// carol's own name is in the header; nobody else's may be
		for (const other of ['David', 'dave', 'invited', 'helper']) expect(html).not.toContain(other)
		expect(html).not.toContain('data-row-key')
	})

	test('renders English when the language cookie asks for it', async () => {
		const { html } = await render('/user', root, 'language=en')
		expect(html).toContain('<html lang="en"')
		expect(html).toContain('Manage users')
		expect(html).toContain('Add user')
		expect(row(html, ids.carol!)).toContain('Ordinary user')
		expect(row(html, ids.gone!)).toContain('Deactivated')
		expect(row(html, ids.dave!)).toContain('Remaining $3.00')
		expect(html).not.toContain('管理用户')
	})
})
