/**
 * Server rendering of the console, through a bare Elysia app with a fake in-process API.
 * (Elysia reads the path at a fixed offset into the URL: test URLs need a real host such as localhost.)
 */
import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { createConsole } from '@/console'
import { hydrationData } from './page'

type FakeApi = { status?: Record<string, unknown>; requests: Request[] }

function createFerry(status: Record<string, unknown> = { system_name: 'Harbour Gate' }) {
	const fake: FakeApi = { status, requests: [] }
	const handleApi = async (request: Request) => {
		fake.requests.push(request)
		if (new URL(request.url).pathname === '/api/status') return Response.json({ success: true, message: '', data: fake.status })
		return Response.json({ success: false, message: 'not found', data: null }, { status: 404 })
	}
	// The console plugin is made asynchronously: requests wait until the app has it.
	const app = new Elysia().use(createConsole({ handleApi, sessionUserId: async () => undefined }))
	const get = async (path: string, headers: Record<string, string> = {}) => {
		await app.modules
		const response = await app.handle(new Request(`http://localhost${path}`, { headers }))
		return { response, text: await response.text() }
	}
	return { app, fake, get }
}

describe('the console login page', () => {
	test('answers 200 HTML with the login form, the client bundle and the hydration data', async () => {
		const { get } = createFerry()
		const { response, text } = await get('/login')
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
		expect(text.startsWith('<!DOCTYPE html>')).toBe(true)
		expect(text).toMatch(/<form[^>]*method="post"/)
		expect(text).toContain('name="username"')
		expect(text).toContain('type="password"')
		expect(text).toContain('href="/register"')
		expect(text).toContain('href="/reset"')
		expect(text).toMatch(/<script type="module" src="\/assets\/client-[\w-]+\.js"/)
		expect(hydrationData(text).loaderData.root).toMatchObject({ status: { system_name: 'Harbour Gate' }, user: null })
	})

	test('shows the expired-session message only when ?expired=true', async () => {
		const { get } = createFerry()
		expect((await get('/login?expired=true')).text).toContain('未登录或登录已过期，请重新登录')
		expect((await get('/login')).text).not.toContain('未登录或登录已过期')
	})

	test('titles the page with the system name and falls back to the Ferry brand and /logo.png', async () => {
		expect((await createFerry().get('/login')).text).toContain('<title>登录 - Harbour Gate</title>')
		const { text } = await createFerry({ system_name: '', logo: '' }).get('/login')
		expect(text).toContain('<title>登录 - Ferry</title>')
		expect(text).toContain('<img src="/logo.png"')
	})

	test('offers third-party logins only for the providers /api/status switches on', async () => {
		const plain = (await createFerry().get('/login')).text
		expect(plain).not.toContain('其他登录方式')
		const { text } = await createFerry({ github_oauth: true, telegram_oauth: true }).get('/login')
		expect(text).toContain('其他登录方式')
		expect(text).toContain('GitHub')
		expect(text).toContain('Telegram')
		expect(text).not.toContain('LinuxDO')
	})

	test('offers the OIDC sign-in button when /api/status says OIDC is on, in the console\'s language', async () => {
		expect((await createFerry().get('/login')).text).not.toContain('使用 OIDC 登录')
		const on = { oidc_enabled: true, oidc_client_id: 'ferry', oidc_authorization_endpoint: 'https://idp.example.com/authorize' }
		expect((await createFerry(on).get('/login')).text).toContain('使用 OIDC 登录')
		expect((await createFerry(on).get('/login', { cookie: 'language=en' })).text).toContain('Sign in with OIDC')
	})

	test('renders English when the language cookie asks for it', async () => {
		const { text } = await createFerry().get('/login', { cookie: 'language=en' })
		expect(text).toContain('<html lang="en"')
		expect(text).toContain('Forgot password?')
	})

	test('calls the API in-process with the visitor cookie', async () => {
		const { get, fake } = createFerry()
		await get('/login', { cookie: 'session=abc' })
		const statusRequest = fake.requests.find((request) => request.url === 'http://localhost/api/status')
		expect(statusRequest?.headers.get('cookie')).toBe('session=abc')
	})

	test('escapes < in the hydration data so a status value cannot close the script', async () => {
		const { text } = await createFerry({ system_name: '</script><script>alert(1)</script>' }).get('/login')
		const script = text.slice(text.indexOf('window.__staticRouterHydrationData'))
		expect(script.slice(0, script.indexOf('</script>'))).toContain('\\u003c/script>\\u003cscript>')
		expect(text).not.toContain('<script>alert(1)</script>')
	})
})

describe('the console pipeline', () => {
	test('answers an unknown path with 404 and the not-found page', async () => {
		const { response, text } = await createFerry().get('/no/such/page')
		expect(response.status).toBe(404)
		expect(text).toContain('页面不存在，请检查地址')
	})

	test('renders the default home page for a visitor, with a link to /login', async () => {
		const { response, text } = await createFerry().get('/')
		expect(response.status).toBe(200)
		expect(text).toContain('href="/login"')
	})

	test('serves the client bundle and the stylesheet as long-cached assets', async () => {
		const { get } = createFerry()
		const page = (await get('/login')).text
		const client = page.match(/src="(\/assets\/client-[\w-]+\.js)"/)![1]!
		const stylesheet = page.match(/href="(\/assets\/styles-[\w-]+\.css)"/)![1]!
		const script = await get(client)
		expect(script.response.status).toBe(200)
		expect(script.response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
		expect(script.response.headers.get('cache-control')).toContain('immutable')
		// the minified bundle keeps property names: it is the client entry that reads the document props
		expect(script.text.includes('window.__documentProps')).toBe(true)
		const styles = await get(stylesheet)
		expect(styles.response.headers.get('content-type')).toBe('text/css; charset=utf-8')
		expect(styles.text.includes('--primary')).toBe(true)
	})

	test('sends text assets gzipped to a browser that accepts gzip, and plain to one that does not', async () => {
		const { get } = createFerry()
		const client = (await get('/login')).text.match(/src="(\/assets\/client-[\w-]+\.js)"/)![1]!
		const plain = await get(client)
		const zipped = await get(client, { 'accept-encoding': 'gzip, deflate, br' })
		expect(plain.response.headers.get('content-encoding')).toBeNull()
		expect(zipped.response.headers.get('content-encoding')).toBe('gzip')
		expect(zipped.response.headers.get('vary')).toBe('accept-encoding')
		const fresh = createFerry().app
		await fresh.modules
		const raw = await (await fresh.handle(new Request(`http://localhost${client}`, { headers: { 'accept-encoding': 'gzip' } }))).arrayBuffer()
		expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(raw)))).toBe(plain.text)
		expect(raw.byteLength).toBeLessThan(plain.text.length / 2)
	})

	test('answers 404 for an asset name it does not have', async () => {
		const { response } = await createFerry().get('/assets/client-missing.js')
		expect(response.status).toBe(404)
	})

	test('serves no file from outside the built assets, the manifest and the project files included', async () => {
		const { get } = createFerry()
		for (const path of ['/assets/manifest.json', '/assets/..%2fmanifest.json', '/assets/..%2f..%2f..%2fpackage.json', '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json']) {
			const { response, text } = await get(path)
			expect(response.status).toBe(404)
			expect(text).not.toContain('"client"')
			expect(text).not.toContain('"dependencies"')
		}
	})

	test('serves the default logo at /logo.png', async () => {
		const { response } = await createFerry().get('/logo.png')
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('image/png')
	})

	test('leaves /api and relay paths unhandled so that their own routes and 404 apply', async () => {
		const { get } = createFerry()
		for (const path of ['/api/anything', '/api', '/v1/chat/completions', '/v1beta/models', '/mj/submit', '/suno/fetch', '/pg/chat']) {
			const { response, text } = await get(path)
			expect(response.status).toBe(404)
			expect(response.headers.get('content-type') ?? '').not.toContain('text/html')
			expect(text).not.toContain('<html')
		}
	})

	test('yields to API routes registered on the same app, before or after the console', async () => {
		const handleApi = async () => Response.json({ success: true, message: '', data: {} })
		const api = new Elysia({ prefix: '/api' }).get('/status', () => ({ success: true, message: 'from api', data: {} }))
		for (const app of [new Elysia().use(api).use(createConsole({ handleApi, sessionUserId: async () => undefined })), new Elysia().use(createConsole({ handleApi, sessionUserId: async () => undefined })).use(api)]) {
			await app.modules
			const response = await app.handle(new Request('http://localhost/api/status'))
			expect(await response.json()).toMatchObject({ message: 'from api' })
		}
	})
})
