/**
 * Registration, password reset, the OAuth callback, home and about in Chromium against Ferry from
 * source: each journey really reaches the server (mails are caught by a recording mailer, GitHub is
 * the fake provider), and no page logs a console error, a page error or a hydration error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { MailMessage } from '@/lib/mailer'
import type { Dependencies } from '@/dependencies'
import { ROLE } from '@shared/user'
import { RESEND_COUNTDOWN_SECONDS } from '@ui/features/auth/use-countdown'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, startConsoleHarness } from '../helpers/browser'
import { createFakeProviders, FAKE_CLIENT, type FakeProviders } from '../helpers/fake-oauth'

const TICK_MILLISECONDS = 1000
/** The first page after a ui/ change waits for the console assets to rebuild. */
const JOURNEY_TIMEOUT = 60_000

describe.skipIf(!browserExecutable)('sign-up, recovery, OAuth callback and public content pages in a browser', () => {
	let harness: ConsoleHarness
	let providers: FakeProviders
	const mails: MailMessage[] = []

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const { dependencies } = harness.ferry
		dependencies.mailer = { send: async (message) => void mails.push(message) }
		providers = createFakeProviders()
		dependencies.fetch = providers.fetch as unknown as Dependencies['fetch']
		await dependencies.options.set('ServerAddress', harness.origin)
		await dependencies.options.set('GitHubOAuthEnabled', 'true')
		await dependencies.options.set('GitHubClientId', FAKE_CLIENT.id)
		await dependencies.options.set('GitHubClientSecret', FAKE_CLIENT.secret)
	}, 60_000)

	afterAll(async () => {
		await harness?.close()
	})

	const toast = (opened: OpenedPage, text: string) => opened.page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 10_000 })
	const errorToast = (opened: OpenedPage, text: string) => opened.page.getByRole('alert').filter({ hasText: text }).first().waitFor({ timeout: 10_000 })

	async function userRecord(username: string) {
		const found = await harness.ferry.call('GET', `/api/user/search?keyword=${username}`, { as: harness.root })
		return found.body.data.items.find((item: { username: string }) => item.username === username)
	}

	function lastMailTo(address: string) {
		const mail = mails.findLast((message) => message.to === address)
		if (!mail) throw new Error(`no mail to ${address}`)
		return mail
	}

	test('registering checks the password rules in the browser, sends the invitation code and lands on /login', async () => {
		const rootAff = (await harness.ferry.call('GET', '/api/user/aff', { as: harness.root })).body.data as string
		const opened = await harness.open(`/register?aff=${rootAff}`)
		const { page } = opened
		expect(await page.evaluate(() => localStorage.getItem('aff'))).toBe(rootAff)
		async function form(password: string, repeat: string) {
			await page.getByLabel('用户名').fill('gull')
			await page.getByLabel('密码', { exact: true }).fill(password)
			await page.getByLabel('确认密码').fill(repeat)
		}
		await form('short', 'short')
		await page.getByRole('button', { name: '注册', exact: true }).click()
		await errorToast(opened, '密码长度不得小于 8 位')
		await form('longenough1', 'longenough2')
		await page.getByRole('button', { name: '注册', exact: true }).click()
		await errorToast(opened, '两次输入的密码不一致')
		expect(opened.paths).not.toContain('/api/user/register')

		await form('longenough1', 'longenough1')
		await page.getByRole('button', { name: '注册', exact: true }).click()
		await page.waitForURL(`${harness.origin}/login`)
		await toast(opened, '注册成功，请登录')
		expect(await userRecord('gull')).toMatchObject({ username: 'gull', inviter_id: harness.root.userId })
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'gull', password: 'longenough1' } })).body.success).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('with email verification on, the code button mails a code, rests 30 seconds counting down, and the code registers (en)', async () => {
		const { options } = harness.ferry.dependencies
		await options.set('EmailVerificationEnabled', 'true')
		try {
			const opened = await harness.open('/register', { language: 'en' })
			const { page } = opened
			await page.getByRole('button', { name: 'Get code' }).click()
			await errorToast(opened, 'Please enter an email address')
			await page.clock.install()
			await page.getByLabel('Email').fill('tern@example.com')
			await page.getByRole('button', { name: 'Get code' }).click()
			await toast(opened, 'The verification code has been sent')
			const code = /<strong>(\d{6})<\/strong>/.exec(lastMailTo('tern@example.com').html)?.[1]
			expect(code).toMatch(/^\d{6}$/)
			for (let left = RESEND_COUNTDOWN_SECONDS; left > 0; left--) {
				const resend = page.getByRole('button', { name: `Resend (${left})` })
				await resend.waitFor()
				expect(await resend.isDisabled()).toBe(true)
				await page.clock.runFor(TICK_MILLISECONDS)
			}
			expect(await page.getByRole('button', { name: 'Get code' }).isEnabled()).toBe(true)

			await page.getByLabel('Username').fill('tern')
			await page.getByLabel('Password', { exact: true }).fill('seabird-42')
			await page.getByLabel('Confirm password').fill('seabird-42')
			await page.getByLabel('Verification code').fill(code!)
			await page.getByRole('button', { name: 'Register', exact: true }).click()
			await page.waitForURL(`${harness.origin}/login`)
			expect(await userRecord('tern')).toMatchObject({ email: 'tern@example.com' })
			expectNoErrors(opened)
			await opened.close()
		} finally {
			await options.set('EmailVerificationEnabled', 'false')
		}
	}, JOURNEY_TIMEOUT)

	test('with an invitation required, the invitation code field is required: empty it is refused in the browser, a wrong one by the server, a valid one registers', async () => {
		const { options } = harness.ferry.dependencies
		await options.set('RegisterInvitationRequired', 'true')
		try {
			const rootAff = (await harness.ferry.call('GET', '/api/user/aff', { as: harness.root })).body.data as string
			const opened = await harness.open('/register')
			const { page } = opened
			const code = page.getByLabel('邀请码', { exact: true })
			expect(await code.getAttribute('required')).not.toBeNull()
			expect(await code.getAttribute('placeholder')).toBe('输入邀请码（必填）')
			await page.getByLabel('用户名').fill('noddy')
			await page.getByLabel('密码', { exact: true }).fill('longenough1')
			await page.getByLabel('确认密码').fill('longenough1')
			await code.fill('')
			await page.getByRole('button', { name: '注册', exact: true }).click()
			await errorToast(opened, '请输入邀请码')
			expect(await code.getAttribute('aria-invalid')).toBe('true')
			expect(opened.paths).not.toContain('/api/user/register')

			await code.fill('no-such-code')
			await page.getByRole('button', { name: '注册', exact: true }).click()
			await errorToast(opened, '邀请码无效')
			expect(await userRecord('noddy')).toBeUndefined()

			await code.fill(rootAff)
			await page.getByRole('button', { name: '注册', exact: true }).click()
			await page.waitForURL(`${harness.origin}/login`)
			expect(await userRecord('noddy')).toMatchObject({ username: 'noddy', inviter_id: harness.root.userId })
			expectNoErrors(opened)
			await opened.close()
		} finally {
			await options.set('RegisterInvitationRequired', 'false')
		}
	}, JOURNEY_TIMEOUT)

	test('a reset mail leads to the confirm page, which shows the new password once and then reads "password reset complete"', async () => {
		const heron = await harness.ferry.createUser('heron')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: heron.userId, email: 'heron@example.com' } })
		const request = await harness.open('/reset')
		await request.page.getByLabel('邮箱').fill('heron@example.com')
		await request.page.getByRole('button', { name: '发送重置邮件' }).click()
		await toast(request, '重置邮件发送成功，请检查邮箱')
		const resting = request.page.getByRole('button', { name: /^重试 \(\d+\)$/ })
		await resting.waitFor()
		expect(await resting.isDisabled()).toBe(true)
		expectNoErrors(request)
		await request.close()

		const href = /href="([^"]+)"/.exec(lastMailTo('heron@example.com').html)![1]!
		const link = new URL(href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))))
		expect(link.pathname).toBe('/user/reset')
		const confirm = await harness.open(link.pathname + link.search)
		expect(await confirm.page.getByLabel('邮箱').inputValue()).toBe('heron@example.com')
		await confirm.page.getByRole('button', { name: '确认重置密码' }).click()
		const done = confirm.page.getByRole('button', { name: '密码重置完成' })
		await done.waitFor()
		expect(await done.isDisabled()).toBe(true)
		const password = await confirm.page.getByLabel('新密码', { exact: true }).inputValue()
		expect(password.length).toBeGreaterThanOrEqual(8)
		await confirm.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		await confirm.page.getByRole('button', { name: '复制新密码' }).click()
		await toast(confirm, '已复制到剪贴板')
		expect(await confirm.page.evaluate(() => navigator.clipboard.readText())).toBe(password)
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'heron', password } })).body.success).toBe(true)
		expectNoErrors(confirm)
		await confirm.close()
	}, JOURNEY_TIMEOUT)

	test('a wrong reset link shows the server message and no password, and a link without a token cannot be confirmed', async () => {
		const opened = await harness.open('/user/reset?email=heron%40example.com&token=not-the-token')
		await opened.page.getByRole('button', { name: '确认重置密码' }).click()
		await errorToast(opened, '重置链接无效或已过期')
		expect(await opened.page.getByLabel('新密码', { exact: true }).count()).toBe(0)
		expectNoErrors(opened)
		await opened.close()

		const tokenless = await harness.open('/user/reset?email=heron%40example.com')
		await tokenless.page.getByRole('alert').filter({ hasText: '重置链接无效或已过期' }).waitFor()
		expect(await tokenless.page.getByRole('button', { name: '确认重置密码' }).isDisabled()).toBe(true)
		expectNoErrors(tokenless)
		await tokenless.close()
	}, JOURNEY_TIMEOUT)

	async function issueState(opened: OpenedPage, userId?: number) {
		return opened.page.evaluate(async (id) => {
			const headers: Record<string, string> = id === undefined ? {} : { 'New-Api-User': String(id) }
			const answer = await fetch('/api/oauth/state', { headers })
			return ((await answer.json()) as { data: string }).data
		}, userId)
	}

	test('the GitHub callback signs a visitor in, stores the user and goes to /token', async () => {
		const opened = await harness.open('/login')
		const state = await issueState(opened)
		providers.github.authorize('sign-in-code', { id: 7001, login: 'puffin', name: 'Puffin', email: null })
		await opened.page.goto(`${harness.origin}/oauth/github?code=sign-in-code&state=${state}`)
		await opened.page.waitForURL(`${harness.origin}/token`)
		await toast(opened, '登录成功')
		const stored = await opened.page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'))
		expect(stored).toMatchObject({ role: ROLE.user })
		expect(await userRecord(stored.username)).toMatchObject({ github_id: '7001' })
		expect(opened.pageErrors).toEqual([])
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('the GitHub callback for a signed-in user binds the account and goes to /setting', async () => {
		const auk = await harness.ferry.createUser('auk')
		const opened = await harness.open('/setting', { as: { ...auk, username: 'auk', role: ROLE.user } })
		const state = await issueState(opened, auk.userId)
		providers.github.authorize('bind-code', { id: 7002, login: 'auk-gh', name: null, email: null })
		await opened.page.goto(`${harness.origin}/oauth/github?code=bind-code&state=${state}`)
		await opened.page.waitForURL(`${harness.origin}/setting`)
		await toast(opened, '绑定成功')
		expect(await userRecord('auk')).toMatchObject({ github_id: '7002' })
		expect(opened.pageErrors).toEqual([])
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('a failed callback shows the server message and goes to /setting (en)', async () => {
		const skua = await harness.ferry.createUser('skua')
		const opened = await harness.open('/oauth/github?code=any&state=forged', { as: { ...skua, username: 'skua', role: ROLE.user }, language: 'en' })
		await errorToast(opened, 'the authorization state is invalid or expired')
		await opened.page.waitForURL(`${harness.origin}/setting`)
		expect(opened.pageErrors).toEqual([])
		await opened.close()
	}, JOURNEY_TIMEOUT)

	test('home and about render the admin Markdown, run none of its scripts, and hydrate cleanly in zh and en', async () => {
		const { options } = harness.ferry.dependencies
		const hostile = '<img src="/missing.png" onerror="window.__injected = true"> [tap](javascript:window.__injected=true)'
		await options.set('HomePageContent', `# Harbour **home**\n\n- first\n- second\n\n${hostile}`)
		await options.set('About', `## About the harbour\n\n\`\`\`\n<b>kept as text</b>\n\`\`\`\n\n${hostile}`)
		try {
			for (const language of ['zh', 'en'] as const) {
				const home = await harness.open('/', { language })
				expect(await home.page.getByRole('heading', { level: 1, name: 'Harbour home' }).count()).toBe(1)
				expect(await home.page.locator('[data-slot="admin-content"] li').allTextContents()).toEqual(['first', 'second'])
				await home.page.getByText('tap', { exact: true }).click()
				expect(await home.page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined()
				expect(home.pageErrors).toEqual([])
				expect(home.consoleErrors.filter((text) => !text.includes('404'))).toEqual([])
				await home.close()

				const about = await harness.open('/about', { language })
				expect(await about.page.getByRole('heading', { level: 2, name: 'About the harbour' }).count()).toBe(1)
				expect(await about.page.locator('pre code').textContent()).toBe('<b>kept as text</b>')
				expect(await about.page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined()
				expect(about.pageErrors).toEqual([])
				expect(about.consoleErrors.filter((text) => !text.includes('404'))).toEqual([])
				await about.close()
			}
		} finally {
			await options.set('HomePageContent', '')
			await options.set('About', '')
		}
	}, JOURNEY_TIMEOUT)

	test('with home page content set, home shows the notice above the content in zh and en', async () => {
		const { options } = harness.ferry.dependencies
		await options.set('HomePageContent', '# Harbour **home**')
		await options.set('Notice', 'Maintenance on **Sunday**')
		try {
			for (const language of ['zh', 'en'] as const) {
				const home = await harness.open('/', { language })
				await home.page.getByRole('heading', { level: 1, name: 'Harbour home' }).waitFor()
				const notice = home.page.getByTestId('site-notice')
				expect(await notice.getByText(language === 'zh' ? '公告' : 'Notice', { exact: true }).count()).toBe(1)
				expect(await notice.locator('strong').textContent()).toBe('Sunday')
				expect(await notice.isVisible()).toBe(true)
				expectNoErrors(home)
				await home.close()
			}
		} finally {
			await options.set('HomePageContent', '')
			await options.set('Notice', '')
		}
	}, JOURNEY_TIMEOUT)

	test('without admin content, home shows the default landing with the notice and about its default text', async () => {
		await harness.ferry.dependencies.options.set('Notice', 'Maintenance on **Sunday**')
		try {
			const home = await harness.open('/', { language: 'en' })
			await home.page.getByRole('link', { name: 'Log in' }).first().waitFor()
			expect(await home.page.locator('[data-slot="admin-content"] strong').textContent()).toBe('Sunday')
			expectNoErrors(home)
			await home.close()
			const about = await harness.open('/about')
			await about.page.getByText('管理员暂未设置关于页面的内容。').waitFor()
			expectNoErrors(about)
			await about.close()
		} finally {
			await harness.ferry.dependencies.options.set('Notice', '')
		}
	}, JOURNEY_TIMEOUT)
})
