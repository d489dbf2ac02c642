import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { MESSAGES } from '@shared/api'
import { USER_MESSAGES } from '@shared/user'
import { VERIFICATION_MESSAGES } from '@/api/verification/messages'
import { MAILER_MESSAGES } from '@/lib/mailer'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { createFakeProviders } from '../helpers/fake-oauth'
import { type FakeSmtp, startFakeSmtp } from '../helpers/fake-smtp'
import { inEnglish } from '@shared/messages'

const SMTP_ACCOUNT = 'ferry@mail.test'
const SMTP_TOKEN = 'smtp-token-never-shown'

function codeIn(html: string): string {
	const code = /<strong>(\d{6})<\/strong>/.exec(html)?.[1]
	if (!code) throw new Error(`no six-digit code in the mail: ${html}`)
	return code
}

function resetLinkIn(html: string): URL {
	const href = /href="([^"]+)"/.exec(html)?.[1]
	if (!href) throw new Error(`no link in the mail: ${html}`)
	const decoded = href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replaceAll('&amp;', '&')
	return new URL(decoded)
}

for (const target of databaseTargets()) {
	describe(`email verification and password reset (${target.dialect})`, () => {
		let app: TestApp
		let smtp: FakeSmtp

		beforeEach(async () => {
			smtp = await startFakeSmtp()
			app = await createTestApp(target, { fetch: createFakeProviders().fetch })
			const { options } = app.dependencies
			// The fake relay listens on loopback: mail follows the private-upstream consent.
			await options.set('PrivateUpstreamsEnabled', 'true')
			await options.set('SMTPServer', smtp.host)
			await options.set('SMTPPort', String(smtp.port))
			await options.set('SMTPAccount', SMTP_ACCOUNT)
			await options.set('SMTPToken', SMTP_TOKEN)
			await options.set('ServerAddress', 'https://ferry.test')
		})

		afterEach(async () => {
			smtp.stop()
			await app.close()
		})

		const requestCode = (email: string, as?: Caller) =>
			app.call('GET', `/api/verification?email=${encodeURIComponent(email)}`, { as })

		async function userWithEmail(username: string, email: string) {
			const caller = await app.createUser(username)
			const root = await app.loginRoot()
			const updated = await app.call('PUT', '/api/user/', { as: root, body: { id: caller.userId, email } })
			expect(updated.body.success).toBe(true)
			return caller
		}

		test('mails a six-digit code through SMTP that registration accepts once, and refuses a wrong code', async () => {
			await app.dependencies.options.set('EmailVerificationEnabled', 'true')
			const sent = await requestCode('alice@example.com')
			expect(sent.body).toMatchObject({ success: true })
			expect(smtp.messages).toHaveLength(1)
			const mail = smtp.messages[0]!
			expect(mail.to).toEqual(['alice@example.com'])
			expect(mail.from).toBe(SMTP_ACCOUNT)
			expect(mail.auth).toEqual({ user: SMTP_ACCOUNT, pass: SMTP_TOKEN })
			const code = codeIn(mail.html)
			const wrong = code === '000000' ? '111111' : '000000'

			const register = (username: string, verificationCode: string) => app.call('POST', '/api/user/register', {
				body: { username, password: 'password123', password2: 'password123', email: 'alice@example.com', verification_code: verificationCode },
			})
			expect((await register('alice', wrong)).body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.verificationCodeWrong) })
			expect((await register('alice', code)).body.success).toBe(true)
			// The address now belongs to alice, so a second account cannot take it with the same code.
			expect((await register('alice2', code)).body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.emailInUse) })
			const alice = await app.login('alice', 'password123')
			expect((await app.call('GET', '/api/user/self', { as: alice })).body.data.email).toBe('alice@example.com')
		})

		test('refuses an address whose domain is not on the whitelist when the restriction is on', async () => {
			await app.dependencies.options.set('EmailDomainRestrictionEnabled', 'true')
			await app.dependencies.options.set('EmailDomainWhitelist', 'example.com, corp.test')
			const outside = await requestCode('mallory@elsewhere.test')
			expect(outside.body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.emailDomainNotAllowed) })
			expect((await requestCode('bob@Corp.Test')).body.success).toBe(true)
			expect(smtp.messages.map((mail) => mail.to[0]?.toLowerCase())).toEqual(['bob@corp.test'])
		})

		test('refuses plus aliases, and dots in Gmail addresses, when the alias restriction is on', async () => {
			await app.dependencies.options.set('EmailAliasRestrictionEnabled', 'true')
			for (const alias of ['carol+shop@example.com', 'ca.rol@gmail.com']) {
				expect((await requestCode(alias)).body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.emailAliasNotAllowed) })
			}
			expect((await requestCode('ca.rol@example.com')).body.success).toBe(true)
		})

		test('refuses an address that an account already uses, whatever its case', async () => {
			await userWithEmail('dave', 'dave@example.com')
			expect((await requestCode('Dave@Example.com')).body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.emailInUse) })
			expect(smtp.messages).toHaveLength(0)
		})

		test('answers 429 to a second code for the same address within the 30-second resend window', async () => {
			expect((await requestCode('erin@example.com')).body.success).toBe(true)
			const again = await requestCode('erin@example.com')
			expect(again.status).toBe(429)
			expect(again.body).toMatchObject({ success: false, message: MESSAGES.tooManyRequests })
			expect((await requestCode('frank@example.com')).body.success).toBe(true)
			expect(smtp.messages).toHaveLength(2)
		})

		test('answers 400 to a malformed or missing address', async () => {
			expect((await requestCode('not-an-address')).status).toBe(400)
			const missing = await app.call('GET', '/api/verification')
			expect(missing.status).toBe(400)
			expect(missing.body.message).toBe(inEnglish(VERIFICATION_MESSAGES.emailRequired))
		})

		test('says SMTP is not configured when no SMTP server is set', async () => {
			await app.dependencies.options.set('SMTPServer', '')
			expect((await requestCode('gina@example.com')).body).toMatchObject({ success: false, message: inEnglish(MAILER_MESSAGES.notConfigured) })
		})

		test('requires a passing Turnstile check when the check is on', async () => {
			await app.dependencies.options.set('TurnstileCheckEnabled', 'true')
			expect((await requestCode('hank@example.com')).body.success).toBe(false)
			const failed = await app.call('GET', '/api/verification?email=hank@example.com&turnstile=bad-token')
			expect(failed.body.success).toBe(false)
			const passed = await app.call('GET', '/api/verification?email=hank@example.com&turnstile=good-turnstile-token')
			expect(passed.body.success).toBe(true)
			expect(smtp.messages).toHaveLength(1)
		})

		test('resets a password through the mailed link: the new password works, the old one and old sessions stop', async () => {
			const ivy = await userWithEmail('ivy', 'ivy@example.com')
			const asked = await app.call('GET', '/api/reset_password?email=ivy%40example.com')
			expect(asked.body.success).toBe(true)
			const link = resetLinkIn(smtp.messages[0]!.html)
			expect(link.origin + link.pathname).toBe('https://ferry.test/user/reset')
			expect(link.searchParams.get('email')).toBe('ivy@example.com')
			expect(smtp.messages[0]!.html).not.toContain(SMTP_TOKEN)

			const reset = await app.call('POST', '/api/user/reset', { body: { email: 'ivy@example.com', token: link.searchParams.get('token') } })
			expect(reset.body).toMatchObject({ success: true })
			const newPassword = reset.body.data as string
			expect(newPassword.length).toBeGreaterThanOrEqual(12)

			expect((await app.call('GET', '/api/user/self', { as: ivy })).status).toBe(401)
			const oldLogin = await app.call('POST', '/api/user/login', { body: { username: 'ivy', password: 'password123' } })
			expect(oldLogin.body.success).toBe(false)
			const fresh = await app.login('ivy', newPassword)
			expect((await app.call('GET', '/api/user/self', { as: fresh })).body.data.username).toBe('ivy')

			const replay = await app.call('POST', '/api/user/reset', { body: { email: 'ivy@example.com', token: link.searchParams.get('token') } })
			expect(replay.body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.resetLinkInvalid) })
		})

		test('refuses a reset token that was never issued', async () => {
			await userWithEmail('jack', 'jack@example.com')
			const reset = await app.call('POST', '/api/user/reset', { body: { email: 'jack@example.com', token: 'made-up-token' } })
			expect(reset.body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.resetLinkInvalid) })
			const login = await app.call('POST', '/api/user/login', { body: { username: 'jack', password: 'password123' } })
			expect(login.body.success).toBe(true)
		})

		test('says an address is not registered instead of mailing a reset link to it, and rate-limits asking', async () => {
			const unknown = await app.call('GET', '/api/reset_password?email=nobody%40example.com')
			expect(unknown.body).toMatchObject({ success: false, message: inEnglish(VERIFICATION_MESSAGES.emailNotRegistered) })
			expect(smtp.messages).toHaveLength(0)
			expect((await app.call('GET', '/api/reset_password?email=nobody%40example.com')).status).toBe(429)
		})

		describe('email binding', () => {
			test('binds an address to the signed-in user who received its code', async () => {
				const kim = await app.createUser('kim')
				expect((await requestCode('kim@example.com', kim)).body.success).toBe(true)
				const code = codeIn(smtp.messages[0]!.html)
				const bound = await app.call('GET', `/api/oauth/email/bind?email=kim%40example.com&code=${code}`, { as: kim })
				expect(bound.body.success).toBe(true)
				expect((await app.call('GET', '/api/user/self', { as: kim })).body.data.email).toBe('kim@example.com')
			})

			test('refuses a bind code issued to another user, and a registration code', async () => {
				const leo = await app.createUser('leo')
				const mia = await app.createUser('mia')
				await requestCode('leo@example.com', leo)
				const leoCode = codeIn(smtp.messages[0]!.html)
				const stolen = await app.call('GET', `/api/oauth/email/bind?email=leo%40example.com&code=${leoCode}`, { as: mia })
				expect(stolen.body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.verificationCodeWrong) })

				await app.call('GET', '/api/verification?email=mia%40example.com&purpose=register')
				const registrationCode = codeIn(smtp.messages[1]!.html)
				const misused = await app.call('GET', `/api/oauth/email/bind?email=mia%40example.com&code=${registrationCode}`, { as: mia })
				expect(misused.body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.verificationCodeWrong) })
				expect((await app.call('GET', '/api/user/self', { as: mia })).body.data.email).toBe('')
			})

			test('requires both the email and the code', async () => {
				const ned = await app.createUser('ned')
				const answer = await app.call('GET', '/api/oauth/email/bind?email=ned%40example.com', { as: ned })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe(inEnglish(VERIFICATION_MESSAGES.emailAndCodeRequired))
			})
		})
	})
}
