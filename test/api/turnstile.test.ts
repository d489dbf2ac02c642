/**
 * The server side of the Turnstile check, over real HTTP behind a trusted proxy. Cloudflare's
 * siteverify URL is fixed, so the fake stands in as Ferry's outbound fetch: it answers in
 * siteverify's JSON shape, accepts each issued token once, and only with the configured secret.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { TURNSTILE_MESSAGES, TURNSTILE_VERIFY_URL } from '@/api/verification/turnstile'
import type { Dependencies } from '@/dependencies'
import type { MailMessage } from '@/lib/mailer'
import { createTestApp, testConfig, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

const SECRET_KEY = 'turnstile-secret-for-tests'
const CLIENT = '198.51.100.23'

type Verification = { secret: string | null; response: string | null; remoteip: string | null }

for (const target of databaseTargets()) {
	describe(`the Turnstile check on ${target.dialect}`, () => {
		let ferry: TestApp
		let origin: string
		let siteverifyUp = true
		const issued = new Set<string>()
		const verifications: Verification[] = []
		const mails: MailMessage[] = []

		const siteverify = (async (input: string | URL | Request, init?: RequestInit) => {
			const url = input instanceof Request ? input.url : String(input)
			if (url !== TURNSTILE_VERIFY_URL) throw new TypeError(`fake network: no route to ${url}`)
			if (!siteverifyUp) throw new TypeError('fake network: connection refused')
			const form = new URLSearchParams(await new Request(url, init).text())
			verifications.push({ secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') })
			const success = form.get('secret') === SECRET_KEY && issued.delete(form.get('response') ?? '')
			return Response.json({ success, 'error-codes': success ? [] : ['invalid-input-response'] })
		}) as Dependencies['fetch']

		beforeEach(async () => {
			siteverifyUp = true
			issued.clear()
			verifications.length = 0
			mails.length = 0
			ferry = await createTestApp(target, {
				config: { ...testConfig, trustedProxies: ['127.0.0.1'] },
				fetch: siteverify,
				mailer: { send: async (message) => void mails.push(message) },
			})
			const root = await ferry.loginRoot()
			await ferry.call('PUT', '/api/user/self', { as: root, body: { password: 'root-password-1' } })
			const { options } = ferry.dependencies
			await options.set('ServerAddress', 'https://ferry.test')
			await options.set('TurnstileSecretKey', SECRET_KEY)
			await options.set('TurnstileCheckEnabled', 'true')
			ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
			origin = `http://127.0.0.1:${ferry.app.server!.port}`
		})

		afterEach(async () => {
			await ferry.app.stop(true)
			await ferry.close()
		})

		/** The protected calls, each with `?turnstile=` when a token is given. */
		const protectedCalls = {
			login: (query: string) => send('POST', `/api/user/login${query}`, { username: 'root', password: 'root-password-1' }),
			register: (query: string) => send('POST', `/api/user/register${query}`, { username: 'newcomer', password: 'password123', password2: 'password123' }),
			emailCode: (query: string) => send('GET', `/api/verification?email=gannet%40example.com&purpose=register${query.replace('?', '&')}`),
			resetMail: (query: string) => send('GET', `/api/reset_password?email=root%40example.com${query.replace('?', '&')}`),
		}

		async function send(method: string, path: string, body?: unknown) {
			const response = await fetch(`${origin}${path}`, {
				method,
				headers: { 'x-forwarded-for': CLIENT, ...(body ? { 'content-type': 'application/json' } : {}) },
				body: body ? JSON.stringify(body) : undefined,
			})
			return { status: response.status, body: await response.json() as { success: boolean; message: string } }
		}

		test('login, registration, the email code and the reset mail go through with a token siteverify accepts, sent with the secret and the client address', async () => {
			const { users } = ferry.store.tables
			await ferry.store.db.update(users).set({ email: 'root@example.com' }).where(eq(users.username, 'root'))
			for (const [name, call] of Object.entries(protectedCalls)) {
				const token = `token-for-${name}`
				issued.add(token)
				const answer = await call(`?turnstile=${token}`)
				expect({ name, ...answer.body }).toMatchObject({ name, success: true })
				expect(verifications.at(-1)).toEqual({ secret: SECRET_KEY, response: token, remoteip: CLIENT })
			}
			expect(mails.map((mail) => mail.to).sort()).toEqual(['gannet@example.com', 'root@example.com'])
		})

		test('without a token each protected call answers the wait message and Cloudflare is not asked', async () => {
			for (const call of Object.values(protectedCalls)) {
				for (const query of ['', '?turnstile=']) {
					expect((await call(query)).body).toEqual({ success: false, message: inEnglish(TURNSTILE_MESSAGES.missing) })
				}
			}
			expect(verifications).toHaveLength(0)
		})

		test('a token siteverify refuses, or one used before, is refused, and nothing happens', async () => {
			issued.add('used-once')
			expect((await protectedCalls.login('?turnstile=used-once')).body.success).toBe(true)
			for (const call of Object.values(protectedCalls)) {
				for (const token of ['used-once', 'made-up']) {
					expect((await call(`?turnstile=${token}`)).body).toEqual({ success: false, message: inEnglish(TURNSTILE_MESSAGES.failed) })
				}
			}
			expect(mails).toHaveLength(0)
		})

		test('when siteverify cannot be reached the check fails closed with a clear message, not a 500', async () => {
			siteverifyUp = false
			issued.add('good-token')
			const answer = await protectedCalls.login('?turnstile=good-token')
			expect(answer).toEqual({ status: 200, body: { success: false, message: inEnglish(TURNSTILE_MESSAGES.failed) } })
		})
	})
}
