/** Server rendering of the redemption code page through a real app and real sessions. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { markup, renderPage } from './page'

describe('the redemption code page, server-rendered', () => {
	let ferry: TestApp
	let admin: Caller
	let user: Caller
	const ids: Record<string, number> = {}
	const keys: Record<string, string> = {}

	const render = (path: string, caller: Caller, extraCookie = '') => renderPage(ferry, path, [caller.cookie, extraCookie])

	/** The HTML of one table row, found by its row key (the code id). */
	function row(html: string, id: number) {
		const start = html.indexOf(`data-row-key="${id}"`)
		if (start < 0) return ''
		return html.slice(start, html.indexOf('</tr>', start))
	}

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		admin = await ferry.createUser('admin', ROLE.admin)
		user = await ferry.createUser('carol')
		for (const [name, quota] of [['spring', 1_000_000], ['summer', 250_000], ['autumn', 500_000]] as const) {
			const created = await ferry.call('POST', '/api/redemption/', { as: admin, body: { name, quota } })
			keys[name] = created.body.data[0]
			const found = await ferry.call('GET', `/api/redemption/search?keyword=${name}`, { as: admin })
			ids[name] = found.body.data.items[0].id
		}
		await ferry.call('PUT', '/api/redemption/?status_only=true', { as: admin, body: { id: ids.summer, status: 2 } })
		expect((await ferry.call('POST', '/api/user/topup', { as: user, body: { key: keys.autumn } })).body.success).toBe(true)
	})
	afterAll(() => ferry.close())

	test('shows an admin the table with id, name, status tag, formatted quota, times and the redeemer', async () => {
		const { status, html } = await render('/redemption', admin)
		expect(status).toBe(200)
		for (const header of ['ID', '名称', '状态', '额度', '创建时间', '兑换时间', '兑换人ID', '操作']) expect(html).toContain(`>${header}</th>`)
		expect(html).toContain('添加兑换码')
		expect(html).toContain('复制所选兑换码')
		const spring = row(html, ids.spring!)
		expect(spring).toContain('spring')
		expect(spring).toContain('未使用')
		expect(spring).toContain('$2.00')
		expect(spring).toContain('尚未兑换')
		expect(row(html, ids.summer!)).toContain('已禁用')
		expect(row(html, ids.summer!)).toContain('$0.50')
		const autumn = row(html, ids.autumn!)
		expect(autumn).toContain('已使用')
		expect(autumn).toContain(`>${user.userId}<`)
	})

	test('offers enable or disable and edit only where the state allows', async () => {
		const { html } = await render('/redemption', admin)
		const spring = row(html, ids.spring!)
		for (const action of ['复制', '禁用', '编辑', '删除']) expect(spring).toContain(action)
		const summer = row(html, ids.summer!)
		expect(summer).toContain('启用')
		expect(summer).not.toContain('编辑')
		const autumn = row(html, ids.autumn!)
		for (const action of ['启用', '禁用', '编辑']) expect(autumn).not.toContain(action)
		expect(autumn).toContain('删除')
	})

	test('searches by name and by id from the URL', async () => {
		const byName = markup((await render('/redemption?keyword=spr', admin)).html)
		expect(row(byName, ids.spring!)).not.toBe('')
		expect(row(byName, ids.summer!)).toBe('')
		const byId = markup((await render(`/redemption?keyword=${ids.summer}`, admin)).html)
		expect(row(byId, ids.summer!)).not.toBe('')
		expect(row(byId, ids.spring!)).toBe('')
	})

	test('answers an ordinary user 403 with the not-allowed state and no code data', async () => {
		const { status, html } = await render('/redemption', user)
		expect(status).toBe(403)
		expect(html).toContain('无权进行此操作')
		expect(html).not.toContain('data-row-key')
		for (const secret of [...Object.values(keys), 'spring', 'summer']) expect(html).not.toContain(secret)
	})

	test('renders English when the language cookie asks for it', async () => {
		const { html } = await render('/redemption', admin, 'language=en')
		expect(html).toContain('<html lang="en"')
		expect(html).toContain('Add redemption code')
		expect(row(html, ids.spring!)).toContain('Unused')
		expect(row(html, ids.autumn!)).toContain('Used')
	})
})
