/**
 * The chat frames `/chat/{id}` and `/chat2link` in Chromium (docs/specification/playground-and-chat.md#chat-links): the first enabled token's
 * key and the server address fill the configured link; without an enabled token the page says so
 * and goes to /token.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { chatTemplate, frameTarget } from '@ui/features/chat/chat-frame'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const PAGE_TIMEOUT_MS = 60_000
const STEP_TIMEOUT_MS = 10_000

type Visitor = Caller & { username: string; role: number }

describe('the chat link rules', () => {
	test('picks the id-th chat link, the older single link when no list is set, and nothing beyond', () => {
		const chats: Record<string, string>[] = [{ First: 'https://one.test/?key={key}' }, { Second: 'app://two?key={key}' }]
		expect(chatTemplate({ chats, chat_link: 'https://old.test' }, 1)).toBe('app://two?key={key}')
		expect(chatTemplate({ chats, chat_link: '' }, 2)).toBeUndefined()
		expect(chatTemplate({ chats: [], chat_link: 'https://old.test/{key}' }, 0)).toBe('https://old.test/{key}')
		expect(chatTemplate({ chats: [], chat_link: '' }, 0)).toBeUndefined()
	})

	test('embeds web links, opens app links by navigation and calls an empty or scheme-less template a configuration error', () => {
		expect(frameTarget('https://chat.test/?k={key}&s={address}', 'sk-abc', 'http://ferry.test')).toEqual({ kind: 'embed', url: 'https://chat.test/?k=sk-abc&s=http%3A%2F%2Fferry.test' })
		expect(frameTarget('ama://set-api-key?server={address}&key={key}', 'sk-abc', 'http://ferry.test')).toEqual({ kind: 'open', url: 'ama://set-api-key?server=http%3A%2F%2Fferry.test&key=sk-abc' })
		expect(frameTarget('  ', 'sk-abc', 'http://ferry.test')).toEqual({ kind: 'misconfigured' })
		expect(frameTarget('chat.test/{key}', 'sk-abc', 'http://ferry.test')).toEqual({ kind: 'misconfigured' })
	})
})

describe.skipIf(!browserExecutable)('the chat frames in a browser', () => {
	let harness: ConsoleHarness
	let frameBase: string

	async function createVisitor(username: string): Promise<Visitor> {
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username, password: 'password123', display_name: username } })
		if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`)
		return { ...(await harness.ferry.login(username, 'password123')), username, role: ROLE.user }
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		// Any loopback page does as the chat client: the fake upstream answers its model list.
		frameBase = `${harness.startUpstream().url}/v1/models`
		await harness.ferry.dependencies.options.set('Chats', JSON.stringify([
			{ 'Web chat': `${frameBase}?key={key}&server={address}` },
			{ 'Second': `${frameBase}?second={key}` },
			{ 'App': 'cherrystudio://providers/api-keys?v=1&key={key}' },
		]))
		await harness.ferry.dependencies.options.set('ChatLink2', `${frameBase}?link2={key}`)
		await fetch(`${harness.origin}/login`)
	}, 90_000)

	afterAll(() => harness?.close(), 30_000)

	test('without an enabled token, says so and goes to /token', async () => {
		const visitor = await createVisitor('tokenless')
		const disabled = await harness.createToken({ name: 'off' }, visitor)
		await harness.ferry.call('PUT', '/api/token/?status_only=true', { as: visitor, body: { id: disabled.id, status: 2 } })
		const opened = await harness.open('/chat/0', { as: visitor, language: 'zh' })
		const { page } = opened
		await page.getByText('没有可用的已启用令牌').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await page.locator('iframe').count()).toBe(0)
		await page.waitForURL((url) => url.pathname === '/token', { timeout: STEP_TIMEOUT_MS })
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('fills the first enabled token\'s key and the server address into the chosen link, shown in a full-height frame', async () => {
		const visitor = await createVisitor('chatter')
		const disabled = await harness.createToken({ name: 'older-off' }, visitor)
		await harness.ferry.call('PUT', '/api/token/?status_only=true', { as: visitor, body: { id: disabled.id, status: 2 } })
		const enabled = await harness.createToken({ name: 'on' }, visitor)
		const opened = await harness.open('/chat/0', { as: visitor, language: 'zh' })
		const { page } = opened
		const frame = page.locator('iframe')
		await frame.waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await frame.getAttribute('src')).toBe(`${frameBase}?key=${enabled.key}&server=${encodeURIComponent(harness.origin)}`)
		expect((await frame.boundingBox())!.height).toBeGreaterThan(400)

		await page.goto(`${harness.origin}/chat/1`)
		await page.locator('iframe').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await page.locator('iframe').getAttribute('src')).toBe(`${frameBase}?second=${enabled.key}`)

		await page.goto(`${harness.origin}/chat2link`)
		await page.locator('iframe').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await page.locator('iframe').getAttribute('src')).toBe(`${frameBase}?link2=${enabled.key}`)

		await page.goto(`${harness.origin}/chat/7`)
		await page.getByText('请联系管理员配置聊天链接').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await page.locator('iframe').count()).toBe(0)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('an app link is offered as a button instead of being opened on load, with the address and key for any other client', async () => {
		const visitor = await createVisitor('app-user')
		const enabled = await harness.createToken({ name: 'app' }, visitor)
		const opened = await harness.open('/chat/2', { as: visitor, language: 'zh' })
		const { page, context } = opened
		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		const button = page.getByRole('link', { name: '在应用中打开' })
		await button.waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await button.getAttribute('href')).toBe(`cherrystudio://providers/api-keys?v=1&key=${enabled.key}`)
		expect(new URL(page.url()).pathname).toBe('/chat/2')
		expect(await page.getByText('聊天将在它的应用中打开').count()).toBe(1)
		// Without the app the button does nothing: the page says so and hands over the address and the key.
		const manual = page.getByTestId('chat-manual-setup')
		expect(await manual.getByTestId('chat-base-url').textContent()).toBe(`${harness.origin}/v1`)
		await manual.getByRole('button', { name: '复制密钥' }).click()
		await page.waitForFunction(async (key) => (await navigator.clipboard.readText()) === key, enabled.key)
		await harness.screenshot(page, 'chat-app-link')
		// Nothing tried to navigate: no blocked-navigation error (with the key in it) reached the console.
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the side menu\'s chat entry opens the first link', async () => {
		const visitor = await createVisitor('menuchat')
		await harness.createToken({ name: 'on' }, visitor)
		const opened = await harness.open('/token', { as: visitor, language: 'zh' })
		const { page } = opened
		await page.locator('a[href="/chat/0"]').first().click()
		await page.waitForURL((url) => url.pathname === '/chat/0', { timeout: STEP_TIMEOUT_MS })
		await page.locator('iframe').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await page.locator('iframe').getAttribute('src')).toStartWith(`${frameBase}?key=sk-`)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)
})
