/** Server rendering of the channel editor (/channel/add, /channel/edit/:id) through a real app on SQLite. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { renderPage } from './page'

let ferry: TestApp
let root: Caller
let channelId = 0

beforeAll(async () => {
	ferry = await createTestApp(databaseTargets()[0]!)
	root = await ferry.loginRoot()
	const created = await ferry.call('POST', '/api/channel/', {
		as: root,
		body: {
			type: 3, name: 'azure-east', key: 'sk-secret-azure-key', base_url: 'https://east.openai.azure.com', other: '2024-02-01',
			models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', tag: 'azure-pool', priority: 7, weight: 3, model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
			max_input_tokens: 12_345,
		},
	})
	channelId = created.body.data[0].id
}, 30_000)

afterAll(() => ferry?.close())

const render = (path: string, as: Caller, language?: 'en') => renderPage(ferry, path, [as.cookie, language && `language=${language}`])

describe('the channel editor page rendered on the server', () => {
	test('create mode shows the empty form with the default group, auto-ban on and the batch toggle', async () => {
		const { status, html } = await render('/channel/add', root)
		expect(status).toBe(200)
		expect(html).toContain('<title>添加渠道 - ')
		expect(html).toContain('添加渠道')
		expect(html).toContain('OpenAI')
		expect(html).toContain('id="channel-name"')
		expect(html).toContain('id="channel-key"')
		expect(html).toContain('批量创建')
		expect(html).toMatch(/id="channel-auto-ban"[^>]*aria-checked="true"|aria-checked="true"[^>]*id="channel-auto-ban"/)
		expect(html).toMatch(/<ul aria-label="分组"[^>]*>.*?default.*?<\/ul>/s)
		for (const helper of ['填入相关模型', '填入所有模型', '获取模型列表', '清除所有模型']) expect(html).toContain(helper)
		expect(html).toContain('组织')
	})

	test('edit mode fills the form from the channel and never shows its key', async () => {
		const { status, html } = await render(`/channel/edit/${channelId}`, root)
		expect(status).toBe(200)
		expect(html).toContain('编辑渠道')
		expect(html).toContain('Azure OpenAI')
		expect(html).toContain('value="azure-east"')
		expect(html).toContain('value="https://east.openai.azure.com"')
		expect(html).toContain('value="2024-02-01"')
		expect(html).toContain('默认 API 版本')
		expect(html).toContain('value="azure-pool"')
		expect(html).toContain('value="7"')
		expect(html).toContain('value="3"')
		expect(html).toContain('gpt-4o-mini')
		expect(html).toMatch(/<ul aria-label="分组"[^>]*>.*?vip.*?<\/ul>/s)
		expect(html).toContain('gpt-4o-2024-08-06')
		expect(html).toMatch(/id="channel-max-input-tokens"[^>]*value="12345"|value="12345"[^>]*id="channel-max-input-tokens"/)
		expect(html).toContain('密钥不会显示；留空表示不修改')
		expect(html).not.toContain('sk-secret-azure-key')
		expect(html).not.toContain('批量创建')
	})

	test('create mode offers the three ways to read the key: one key, one channel per key, or one channel holding them all', async () => {
		const { html } = await render('/channel/add', root)
		expect(html).toContain('创建方式')
		for (const mode of ['单个密钥', '批量创建', '多密钥渠道']) expect(html).toContain(mode)
		expect(html).toMatch(/role="radio"[^>]*aria-checked="true"[^>]*value="single"|value="single"[^>]*aria-checked="true"/)
	})

	test('edit mode of a multi-key channel shows its way of picking a key and its keys by index and hint, never a key and no key field', async () => {
		const keys = ['sk-render-pool-zero-000000000aaaa', 'sk-render-pool-one-0000000000bbbb']
		const created = await ferry.call('POST', '/api/channel/', {
			as: root, body: { type: 1, name: 'render-pool', mode: 'multi_key', multi_key_mode: 'polling', key: keys.join('\n'), models: 'gpt-4o' },
		})
		const id = created.body.data[0].id
		const { status, html } = await render(`/channel/edit/${id}`, root)
		expect(status).toBe(200)
		expect(html).toContain('密钥池')
		expect(html).toContain('依次轮流')
		expect(html).toContain('…aaaa')
		expect(html).toContain('…bbbb')
		expect(html).toContain('data-key-index="1"')
		expect(html).not.toMatch(/\sid="channel-key"/)
		for (const key of keys) expect(html).not.toContain(key.slice(0, 16))
		const english = await render(`/channel/edit/${id}`, root, 'en')
		expect(english.html).toContain('Key pool')
		expect(english.html).toContain('Test all keys')
	})

	test('an unknown channel id shows the server message, in the page\'s language, and a way back', async () => {
		const { status, html } = await render('/channel/edit/999999', root)
		expect(status).toBe(200)
		expect(html).toContain('渠道不存在，请刷新后重试')
		expect(html).not.toContain('channel not found')
		expect(html).toContain('返回渠道列表')
		const english = await render('/channel/edit/999999', root, 'en')
		expect(english.html).toContain('channel not found, refresh and retry')
		expect(english.html).not.toContain('渠道不存在')
	})

	test('an id that is not a number answers 404', async () => {
		const { status } = await render('/channel/edit/abc', root)
		expect(status).toBe(404)
	})

	test('a normal user gets 403 and none of the channel data', async () => {
		const user = await ferry.createUser('plainuser', ROLE.user)
		for (const path of ['/channel/add', `/channel/edit/${channelId}`]) {
			const { status, html } = await render(path, user)
			expect(status).toBe(403)
			expect(html).toContain('无权进行此操作')
			expect(html).not.toContain('azure-east')
			expect(html).not.toContain('id="channel-key"')
		}
	})

	test('an admin (role 10) may open the editor', async () => {
		const admin = await ferry.createUser('editoradmin', ROLE.admin)
		const { status, html } = await render(`/channel/edit/${channelId}`, admin)
		expect(status).toBe(200)
		expect(html).toContain('value="azure-east"')
	})

	test('renders in English with the language cookie', async () => {
		const { html } = await render(`/channel/edit/${channelId}`, root, 'en')
		expect(html).toContain('<html lang="en"')
		expect(html).toContain('Edit channel')
		expect(html).toContain('Default API version')
		expect(html).toContain('Model redirect')
		expect(html).toContain('Fill related models')
		expect(html).toContain('Keys are never shown; leave empty to keep the current key')
		expect(html).not.toContain('默认 API 版本')
	})
})
