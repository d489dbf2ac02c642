/** The public pricing page rendered by the server, for a visitor and for a signed-in user, on SQLite. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { hydrationData, markup, renderPage } from './page'

const RENDER_TIMEOUT = 60_000

/** The text of the table body, tags stripped, so assertions read like the page. */
function tableText(html: string) {
	const body = html.slice(html.indexOf('<tbody'), html.indexOf('</tbody>'))
	return body.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

/** The rendered row of one model, tags stripped. */
function rowText(html: string, model: string) {
	const start = html.indexOf(`data-model="${model}"`)
	if (start < 0) throw new Error(`no row for ${model}`)
	return html.slice(start, html.indexOf('</tr>', start)).replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

describe('the pricing page, rendered on the server', () => {
	let ferry: TestApp
	let root: Caller
	let sailor: Caller

	async function setOption(key: string, value: unknown) {
		const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value: JSON.stringify(value) } })
		if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
	}

	const render = (caller?: Caller, language?: 'en') => renderPage(ferry, '/pricing', [caller?.cookie, language && `language=${language}`])

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		root = await ferry.loginRoot()
		await setOption('ModelRatio', { 'harbour-chat': 2.5 })
		await setOption('CompletionRatio', { 'harbour-chat': 4 })
		await setOption('ModelPrice', { 'harbour-draw': 0.04 })
		await setOption('GroupRatio', { default: 1, vip: 1.5, svip: 6 })
		await setOption('UserUsableGroups', { default: '默认分组', vip: 'VIP 分组' })
		const channel = await ferry.call('POST', '/api/channel/', { as: root, body: { type: 1, name: 'main', key: 'sk-upstream', models: 'harbour-chat,harbour-draw', group: 'default,vip,svip' } })
		if (!channel.body.success) throw new Error(channel.body.message)
		sailor = await ferry.createUser('sailor')
		await ferry.call('PUT', '/api/user/', { as: root, body: { id: sailor.userId, group: 'vip' } })
	}, RENDER_TIMEOUT)

	afterAll(() => ferry.close())

	test('is public: a visitor gets the model table priced in the default group, per million tokens in USD', async () => {
		const { status, html } = await render()
		expect(status).toBe(200)
		expect(tableText(html)).toContain('harbour-chat')
		const chat = rowText(html, 'harbour-chat')
		expect(chat).toContain('提示 $5 / 1M tokens')
		expect(chat).toContain('补全 $20 / 1M tokens')
		expect(chat).toContain('按量计费')
		const draw = rowText(html, 'harbour-draw')
		expect(draw).toContain('$0.04 / 次')
		expect(draw).toContain('按次计费')
	})

	test('a signed-in user in the vip group sees prices in their group: 7.5 and 30 per million, and the per-call price times 1.5', async () => {
		const { html } = await render(sailor)
		const chat = rowText(html, 'harbour-chat')
		expect(chat).toContain('提示 $7.5 / 1M tokens')
		expect(chat).toContain('补全 $30 / 1M tokens')
		expect(rowText(html, 'harbour-draw')).toContain('$0.06 / 次')
	})

	test('the group view offers only the usable groups, each with its ratio tag in the specified colours', async () => {
		const page = markup((await render()).html)
		const groupView = page.slice(page.indexOf('data-testid="group-view"'))
		expect(groupView).toContain('data-group="default"')
		expect(groupView).toContain('data-group="vip"')
		expect(groupView).not.toContain('data-group="svip"')
		const tierOf = (group: string) => groupView.match(new RegExp(`data-group="${group}"(?:(?!</button>)[^])*?data-tier="(\\w+)"`))?.[1]
		expect(tierOf('default')).toBe('green')
		expect(tierOf('vip')).toBe('blue')
		expect(groupView).toContain('VIP 分组')
		// The model rows name the usable groups serving them, never the hidden one.
		expect(rowText(page, 'harbour-chat')).not.toContain('svip')
	})

	test('hands the browser the loader data it rendered with, including group ratios and usable groups', async () => {
		const data = hydrationData((await render(sailor)).html)
		const pricing = Object.entries(data.loaderData).find(([id]) => id.includes('pricing'))?.[1]
		expect(pricing.group_ratio).toMatchObject({ vip: 1.5 })
		expect(Object.keys(pricing.usable_group).sort()).toEqual(['default', 'vip'])
		expect(pricing.data.map((entry: { model_name: string }) => entry.model_name)).toEqual(['harbour-chat', 'harbour-draw'])
	})

	test('renders in English from the dictionary', async () => {
		const { html } = await render(undefined, 'en')
		const page = markup(html)
		expect(page).toContain('Model pricing')
		expect(rowText(page, 'harbour-chat')).toContain('Prompt $5')
		expect(rowText(page, 'harbour-draw')).toContain('$0.04 / call')
	})

	test('the top bar links to the pricing page', async () => {
		const page = markup((await render()).html)
		expect(page).toMatch(/<a[^>]*href="\/pricing"[^>]*>[^<]*定价/)
	})
})
