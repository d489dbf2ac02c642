/**
 * Server rendering of the registration, password-reset and OAuth-callback pages through a real Ferry
 * app: what the HTML holds for the server's sign-up switches, in zh and in en.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { createFakeProviders, FAKE_CLIENT, type FakeProviders } from '../helpers/fake-oauth'
import { markup, renderPage } from './page'

describe('the sign-up and recovery pages rendered by the server', () => {
	let app: TestApp
	let providers: FakeProviders

	beforeEach(async () => {
		providers = createFakeProviders()
		app = await createTestApp(databaseTargets()[0]!, { fetch: providers.fetch })
	})

	afterEach(async () => {
		await app.close()
	})

	const render = (path: string, cookie?: string) => renderPage(app, path, [cookie])

	test('/register offers username (max 12), password and its repeat, and no email fields while email verification is off', async () => {
		const { status, html } = await render('/register?aff=ABCD')
		expect(status).toBe(200)
		expect(html).toContain('<title>注册 - Ferry</title>')
		expect(html).toMatch(/<input[^>]*maxLength="12"[^>]*name="username"/)
		expect(html).toMatch(/<input[^>]*type="password"[^>]*maxLength="20"[^>]*name="password"/)
		expect(html).toMatch(/<input[^>]*type="password"[^>]*maxLength="20"[^>]*name="password2"/)
		expect(html).toContain('输入密码，长度 8~20 位')
		expect(html).not.toContain('name="email"')
		expect(html).not.toContain('获取验证码')
		expect(html).toContain('href="/login"')
	})

	test('/register adds the email and verification-code fields when the server asks for email verification', async () => {
		await app.dependencies.options.set('EmailVerificationEnabled', 'true')
		const { html } = await render('/register')
		expect(html).toContain('name="email"')
		expect(html).toContain('name="verification_code"')
		expect(html).toContain('获取验证码')
	})

	test('/register offers an optional invitation code filled from the link, and marks it required when the server asks for an invitation', async () => {
		const codeInput = (html: string) => /<input[^>]*id="register-aff-code"[^>]*>/.exec(markup(html))?.[0] ?? ''
		const optional = await render('/register?aff=ABCD')
		expect(optional.html).toContain('邀请码（选填）')
		expect(codeInput(optional.html)).toContain('name="aff_code"')
		expect(codeInput(optional.html)).toContain('value="ABCD"')
		expect(codeInput(optional.html)).not.toContain('required')
		await app.dependencies.options.set('RegisterInvitationRequired', 'true')
		const required = await render('/register')
		expect(codeInput(required.html)).toContain('required=""')
		expect(required.html).toContain('输入邀请码（必填）')
		const english = await render('/register', 'language=en')
		expect(english.html).toContain('Invitation code')
		expect(english.html).toContain('Enter your invitation code (required)')
	})

	test('/register says registration is closed, with no form, when RegisterEnabled is off', async () => {
		await app.dependencies.options.set('RegisterEnabled', 'false')
		const { status, html } = await render('/register')
		expect(status).toBe(200)
		expect(html).toContain('管理员已关闭新用户注册')
		expect(markup(html)).not.toContain('<form')
	})

	test('/register points to third-party accounts, with no password form, when PasswordRegisterEnabled is off', async () => {
		await app.dependencies.options.set('PasswordRegisterEnabled', 'false')
		await app.dependencies.options.set('GitHubOAuthEnabled', 'true')
		const { html } = await render('/register')
		expect(html).toContain('管理员已关闭密码注册，请使用第三方账户注册')
		expect(markup(html)).not.toContain('name="password"')
		expect(html).toContain('GitHub')
	})

	test('/register renders in English with the language cookie', async () => {
		const { html } = await render('/register', 'language=en')
		expect(html).toContain('<html lang="en"')
		expect(html).toContain('Register for Ferry')
		expect(html).toContain('Confirm password')
		expect(html).toContain('Enter a password, 8 to 20 characters')
		expect(html).toContain('Already have an account?')
	})

	test('/reset asks for the email with a send button, in zh and in en', async () => {
		const zh = await render('/reset')
		expect(zh.status).toBe(200)
		expect(zh.html).toContain('name="email"')
		expect(zh.html).toContain('发送重置邮件')
		const en = await render('/reset', 'language=en')
		expect(en.html).toContain('Send reset mail')
		expect(en.html).toContain('Back to login')
	})

	test('the reset-confirm page shows the email from the link, and no new password before confirming', async () => {
		const { status, html } = await render('/user/reset?email=sea%40example.com&token=abc')
		expect(status).toBe(200)
		expect(html).toContain('value="sea@example.com"')
		expect(html).toContain('确认重置密码')
		expect(html).not.toContain('密码重置完成')
		expect(html).not.toContain('重置链接无效或已过期')
		const en = await render('/user/reset?email=sea%40example.com&token=abc', 'language=en')
		expect(en.html).toContain('Confirm password reset')
	})

	test('the reset-confirm page without a token says the link is invalid', async () => {
		const { html } = await render('/user/reset?email=sea%40example.com')
		expect(html).toContain('重置链接无效或已过期')
	})

	test('the OAuth callback renders a spinner and leaves the one-time state to the browser', async () => {
		const { options } = app.dependencies
		await options.set('GitHubOAuthEnabled', 'true')
		await options.set('GitHubClientId', FAKE_CLIENT.id)
		await options.set('GitHubClientSecret', FAKE_CLIENT.secret)
		const issued = await app.call('GET', '/api/oauth/state')
		const cookie = issued.headers.get('set-cookie')!.split(';')[0]!
		providers.github.authorize('code-1', { id: 9001, login: 'petrel', name: 'Petrel', email: null })

		const { status, html } = await render(`/oauth/github?code=code-1&state=${issued.body.data}`, cookie)
		expect(status).toBe(200)
		expect(html).toContain('正在处理授权…')
		expect(html).toContain('animate-spin')
		expect(providers.requests).toEqual([])

		const signIn = await app.call('GET', `/api/oauth/github?code=code-1&state=${issued.body.data}`, { headers: { cookie } })
		expect(signIn.body).toMatchObject({ success: true, data: { username: expect.any(String) } })
	})

	test('the LinuxDO callback route renders too, in English', async () => {
		const { status, html } = await render('/oauth/linuxdo?code=a&state=b', 'language=en')
		expect(status).toBe(200)
		expect(html).toContain('Completing authorization…')
	})

	test('the OIDC callback route renders too, in English', async () => {
		const { status, html } = await render('/oauth/oidc?code=a&state=b', 'language=en')
		expect(status).toBe(200)
		expect(html).toContain('Completing authorization…')
	})
})
