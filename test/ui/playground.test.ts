/** The playground and chat pages rendered by the server for a signed-in user, through a real app on SQLite. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { hydrationData, markup, renderPage } from './page'

const RENDER_TIMEOUT = 60_000

describe('the playground, rendered on the server', () => {
	let ferry: TestApp
	let alice: Caller
	let aliceKey: string

	const render = (path: string, caller: Caller | undefined, language?: 'en') => renderPage(ferry, path, [caller?.cookie, language && `language=${language}`, 'tz=UTC'])

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		const root = await ferry.loginRoot()
		const channel = await ferry.call('POST', '/api/channel/', { as: root, body: { type: 1, name: 'harbour', key: 'sk-upstream', base_url: 'https://api.example.test', models: 'gpt-4o,gpt-4o-mini', group: 'default' } })
		if (!channel.body.success) throw new Error(`creating a channel failed: ${channel.body.message}`)
		alice = await ferry.createUser('alice')
		const token = await ferry.call('POST', '/api/token/', { as: alice, body: { name: 'alice-key', unlimited_quota: true } })
		aliceKey = token.body.data[0].key
	}, RENDER_TIMEOUT)

	afterAll(() => ferry.close())

	test('shows the settings sidebar with the user\'s groups and models, temperature at 0.1 and max tokens at 0', async () => {
		const { status, html } = await render('/playground', alice)
		expect(status).toBe(200)
		const page = markup(html)
		for (const label of ['分组', '模型', '温度', '最大 Token 数', '系统提示词', '发送', '新对话', '在下方输入消息，开始对话']) expect(page).toContain(label)
		// Radix fills the selects' shown value after hydration: the browser test checks gpt-4o-mini is chosen.
		expect(page).toMatch(/id="playground-temperature"[^>]*value="0.1"|value="0.1"[^>]*id="playground-temperature"/)
		expect(page).toMatch(/id="playground-temperature" type="range" min="0.1" max="1" step="0.1"/)
		expect(page).toMatch(/id="playground-max-tokens"[^>]*value="0"/)
		const { loaderData } = hydrationData(html)
		expect(loaderData.playground).toEqual({ models: ['gpt-4o', 'gpt-4o-mini'], groups: { default: { desc: 'default group', ratio: 1 }, vip: { desc: 'vip group', ratio: 1 } }, unpricedModels: [] })
	})

	test('speaks English when asked', async () => {
		const page = markup((await render('/playground', alice, 'en')).html)
		for (const label of ['Temperature', 'Max tokens', 'System prompt', 'New conversation', 'Send']) expect(page).toContain(label)
	})

	test('sends a visitor without a session to the login page', async () => {
		const { status, response } = await render('/playground', undefined)
		expect([302, 303, 307]).toContain(status)
		expect(response.headers.get('location')).toStartWith('/login')
	})

	test('renders the chat frame without the token key: the browser fetches it', async () => {
		await ferry.dependencies.options.set('Chats', JSON.stringify([{ Web: 'https://chat.example.test/?key={key}' }]))
		const { status, html } = await render('/chat/0', alice)
		expect(status).toBe(200)
		expect(markup(html)).toContain('正在打开聊天…')
		expect(html).not.toContain(aliceKey)
		expect(html).not.toContain(aliceKey.slice(3))
	})
})

describe('the playground\'s code highlighting', () => {
	test('marks keywords, strings, numbers and comments, and its pieces join back to the code exactly', async () => {
		const { highlight } = await import('@ui/features/playground/markdown/highlight')
		const code = 'const x1 = 42 // note\nlet s = "a \\" b"\n/* open'
		const pieces = highlight(code, 'ts')
		expect(pieces.map((piece) => piece.text).join('')).toBe(code)
		const marked = pieces.filter((piece) => piece.kind).map((piece) => `${piece.kind}:${piece.text}`)
		expect(marked).toEqual(['keyword:const', 'number:42', 'comment:// note', 'keyword:let', 'string:"a \\" b"', 'comment:/* open'])
		expect(highlight('# done\necho "hi"', 'bash').filter((piece) => piece.kind).map((piece) => piece.kind)).toEqual(['comment', 'keyword', 'string'])
		// An unknown language gets strings and numbers only; a huge block none.
		expect(highlight('if x then 3', 'cobol').filter((piece) => piece.kind).map((piece) => piece.text)).toEqual(['3'])
		expect(highlight('"'.repeat(50_000), 'js')).toEqual([{ text: '"'.repeat(50_000) }])
	})
})
