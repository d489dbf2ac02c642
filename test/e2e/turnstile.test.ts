/**
 * The Turnstile widget in Chromium against Ferry from source. Cloudflare is replaced on both
 * sides, so nothing leaves the machine: the browser's request for Cloudflare's script is answered
 * by playwright with a stub that renders a placeholder and hands the page a token when the test
 * says the check has passed; Ferry's siteverify call goes to a fake that accepts each issued
 * token once with the right secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { TURNSTILE_VERIFY_URL } from '@/api/verification/turnstile'
import type { Dependencies } from '@/dependencies'
import type { MailMessage } from '@/lib/mailer'
import { ROLE } from '@shared/user'
import { TURNSTILE_SCRIPT_URL } from '@ui/features/auth/turnstile'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, type PageOptions, startConsoleHarness } from '../helpers/browser'

const SITE_KEY = '1x-site-key-for-tests'
const SECRET_KEY = '1x-secret-key-for-tests'
const PASSWORD = 'password123'
const WAIT_MESSAGE = { zh: '请几秒后重试，Turnstile 检查正在进行', en: 'Retry in a few seconds, the Turnstile check is running' }
/** The first page after a ui/ change waits for the console assets to rebuild. */
const JOURNEY_TIMEOUT = 60_000

/** Cloudflare's `window.turnstile`, as far as the console uses it; `__turnstileStub` lets the test pass the check. */
const STUB_SCRIPT = `
window.__turnstileStub = { renders: [], resets: [], removed: [], params: undefined };
window.turnstile = {
	render(container, params) {
		const stub = window.__turnstileStub;
		stub.params = params;
		stub.renders.push({ sitekey: params.sitekey, language: params.language });
		container.textContent = 'Turnstile (stub)';
		return 'widget-' + stub.renders.length;
	},
	reset(id) { window.__turnstileStub.resets.push(id); },
	remove(id) { window.__turnstileStub.removed.push(id); },
};`

type StubState = { renders: { sitekey: string; language: string }[]; resets: string[]; removed: string[] }
type Verification = { secret: string | null; response: string | null; accepted: boolean }

describe.skipIf(!browserExecutable)('the Turnstile check in a browser', () => {
	let harness: ConsoleHarness
	const mails: MailMessage[] = []
	const verifications: Verification[] = []
	/** Tokens the stub has handed out and siteverify has not yet accepted. */
	const issued = new Set<string>()
	const scriptRequests: string[] = []
	let tokenCount = 0

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const { dependencies } = harness.ferry
		dependencies.mailer = { send: async (message) => void mails.push(message) }
		const original = dependencies.fetch
		dependencies.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
			const url = input instanceof Request ? input.url : String(input)
			if (url !== TURNSTILE_VERIFY_URL) return original(input as never, init as never)
			const form = new URLSearchParams(await new Request(url, init).text())
			const accepted = form.get('secret') === SECRET_KEY && issued.delete(form.get('response') ?? '')
			verifications.push({ secret: form.get('secret'), response: form.get('response'), accepted })
			return Response.json({ success: accepted, 'error-codes': accepted ? [] : ['invalid-input-response'] })
		}) as Dependencies['fetch']
		await dependencies.options.set('ServerAddress', harness.origin)
		await dependencies.options.set('TurnstileSiteKey', SITE_KEY)
		await dependencies.options.set('TurnstileSecretKey', SECRET_KEY)
	}, 60_000)

	afterEach(async () => {
		await harness.ferry.dependencies.options.set('TurnstileCheckEnabled', 'false')
		await harness.ferry.dependencies.options.set('EmailVerificationEnabled', 'false')
	})

	afterAll(async () => {
		await harness?.close()
	})

	async function standInForCloudflare(context: BrowserContext) {
		await context.route('https://challenges.cloudflare.com/**', async (route) => {
			const url = route.request().url()
			scriptRequests.push(url)
			if (url === TURNSTILE_SCRIPT_URL) await route.fulfill({ contentType: 'text/javascript', body: STUB_SCRIPT })
			else await route.abort()
		})
	}

	const stub = (page: Page) => page.evaluate(() => (window as unknown as { __turnstileStub: StubState }).__turnstileStub)

	/** The check passes: the stub calls the widget's callback with a new token. */
	async function passCheck(page: Page) {
		const token = `stub-token-${++tokenCount}`
		issued.add(token)
		await page.evaluate((value) => (window as unknown as { __turnstileStub: { params: { callback(token: string): void } } }).__turnstileStub.params.callback(value), token)
		return token
	}

	async function openWithCheck(path: string, options: Pick<PageOptions, 'language'> = {}) {
		const opened = await harness.open(path, { ...options, prepare: standInForCloudflare })
		await opened.page.waitForFunction(() => (window as unknown as { __turnstileStub?: StubState }).__turnstileStub?.renders.length === 1)
		return opened
	}

	const notice = (opened: OpenedPage, text: string) => opened.page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 10_000 })
	const calls = (opened: OpenedPage, path: string) => opened.paths.filter((requested) => requested === path).length

	test('with the check off no page loads Cloudflare\'s script and login sends no token', async () => {
		await harness.ferry.createUser('plover', ROLE.user, PASSWORD)
		const before = scriptRequests.length
		const opened = await harness.open('/login', { prepare: standInForCloudflare })
		await opened.page.getByLabel('用户名').fill('plover')
		await opened.page.getByLabel('密码', { exact: true }).fill(PASSWORD)
		await opened.page.getByRole('button', { name: '登录', exact: true }).click()
		await opened.page.waitForURL(`${harness.origin}/token`)
		expect(scriptRequests.length).toBe(before)
		expect(verifications).toHaveLength(0)
		expectNoErrors(opened)
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('login renders the widget with the site key, shows the wait message instead of submitting, then sends the widget\'s token', async () => {
		await harness.ferry.createUser('godwit', ROLE.user, PASSWORD)
		await harness.ferry.dependencies.options.set('TurnstileCheckEnabled', 'true')
		const opened = await openWithCheck('/login')
		const { page } = opened
		expect(scriptRequests.at(-1)).toBe(TURNSTILE_SCRIPT_URL)
		expect((await stub(page)).renders).toEqual([{ sitekey: SITE_KEY, language: 'zh-cn' }])
		await page.getByLabel('用户名').fill('godwit')
		await page.getByLabel('密码', { exact: true }).fill(PASSWORD)
		await page.getByRole('button', { name: '登录', exact: true }).click()
		await notice(opened, WAIT_MESSAGE.zh)
		expect(calls(opened, '/api/user/login')).toBe(0)

		const token = await passCheck(page)
		await page.getByRole('button', { name: '登录', exact: true }).click()
		await page.waitForURL(`${harness.origin}/token`)
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: token, accepted: true })
		expectNoErrors(opened)
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('a token is used once: after a refused login the widget runs again and the next attempt waits for its new token', async () => {
		await harness.ferry.createUser('dunlin', ROLE.user, PASSWORD)
		await harness.ferry.dependencies.options.set('TurnstileCheckEnabled', 'true')
		const opened = await openWithCheck('/login', { language: 'en' })
		const { page } = opened
		await page.getByLabel('Username').fill('dunlin')
		await page.getByLabel('Password', { exact: true }).fill('not-the-password')
		const first = await passCheck(page)
		await page.getByRole('button', { name: 'Log in', exact: true }).click()
		await page.getByRole('alert').first().waitFor({ timeout: 10_000 })
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: first, accepted: true })
		expect((await stub(page)).resets).toEqual(['widget-1'])

		await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
		await page.getByRole('button', { name: 'Log in', exact: true }).click()
		await notice(opened, WAIT_MESSAGE.en)
		expect(calls(opened, '/api/user/login')).toBe(1)
		const second = await passCheck(page)
		await page.getByRole('button', { name: 'Log in', exact: true }).click()
		await page.waitForURL(`${harness.origin}/token`)
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: second, accepted: true })
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('registration with email verification takes one token for the code and a fresh one for registering', async () => {
		const { options } = harness.ferry.dependencies
		await options.set('TurnstileCheckEnabled', 'true')
		await options.set('EmailVerificationEnabled', 'true')
		const opened = await openWithCheck('/register')
		const { page } = opened
		await page.getByLabel('邮箱').fill('knot@example.com')
		await page.getByRole('button', { name: '获取验证码' }).click()
		await notice(opened, WAIT_MESSAGE.zh)
		expect(calls(opened, '/api/verification')).toBe(0)
		const codeToken = await passCheck(page)
		await page.getByRole('button', { name: '获取验证码' }).click()
		await notice(opened, '验证码已发送，请检查邮箱')
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: codeToken, accepted: true })
		const code = /<strong>(\d{6})<\/strong>/.exec(mails.findLast((mail) => mail.to === 'knot@example.com')!.html)![1]!

		await page.getByLabel('用户名').fill('knot')
		await page.getByLabel('密码', { exact: true }).fill(PASSWORD)
		await page.getByLabel('确认密码').fill(PASSWORD)
		await page.getByLabel('验证码').fill(code)
		await page.getByRole('button', { name: '注册', exact: true }).click()
		await notice(opened, WAIT_MESSAGE.zh)
		expect(calls(opened, '/api/user/register')).toBe(0)
		const registerToken = await passCheck(page)
		await page.getByRole('button', { name: '注册', exact: true }).click()
		await page.waitForURL(`${harness.origin}/login`)
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: registerToken, accepted: true })
		issued.add('token-for-the-api-login')
		const login = await harness.ferry.call('POST', '/api/user/login?turnstile=token-for-the-api-login', { body: { username: 'knot', password: PASSWORD } })
		expect(login.body).toMatchObject({ success: true, data: { username: 'knot' } })
		expectNoErrors(opened)
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('the reset page sends the mail only with a token (en)', async () => {
		const stint = await harness.ferry.createUser('stint', ROLE.user, PASSWORD)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: stint.userId, email: 'stint@example.com' } })
		await harness.ferry.dependencies.options.set('TurnstileCheckEnabled', 'true')
		const opened = await openWithCheck('/reset', { language: 'en' })
		const { page } = opened
		expect((await stub(page)).renders).toEqual([{ sitekey: SITE_KEY, language: 'en' }])
		await page.getByLabel('Email').fill('stint@example.com')
		await page.getByRole('button', { name: 'Send reset mail' }).click()
		await notice(opened, WAIT_MESSAGE.en)
		expect(calls(opened, '/api/reset_password')).toBe(0)
		const token = await passCheck(page)
		await page.getByRole('button', { name: 'Send reset mail' }).click()
		await notice(opened, 'The reset mail has been sent, please check your inbox')
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: token, accepted: true })
		expect(mails.some((mail) => mail.to === 'stint@example.com')).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('binding an email in the personal settings sends the code only with a token', async () => {
		const sanderling = await harness.ferry.createUser('sanderling', ROLE.user, PASSWORD)
		await harness.ferry.dependencies.options.set('TurnstileCheckEnabled', 'true')
		const opened = await harness.open('/setting', { as: { ...sanderling, username: 'sanderling', role: ROLE.user }, prepare: standInForCloudflare })
		const { page } = opened
		await page.getByTestId('binding-email').getByRole('button', { name: '绑定' }).click()
		const dialog = page.getByRole('dialog')
		await page.waitForFunction(() => (window as unknown as { __turnstileStub?: StubState }).__turnstileStub?.renders.length === 1)
		await dialog.getByLabel('邮箱').fill('sanderling@example.com')
		await dialog.getByRole('button', { name: '获取验证码' }).click()
		await notice(opened, WAIT_MESSAGE.zh)
		expect(opened.paths.includes('/api/verification')).toBe(false)
		const token = await passCheck(page)
		await dialog.getByRole('button', { name: '获取验证码' }).click()
		await notice(opened, '验证码发送成功，请检查邮箱')
		expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: token, accepted: true })
		expect(mails.some((mail) => mail.to === 'sanderling@example.com')).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, JOURNEY_TIMEOUT)
})
