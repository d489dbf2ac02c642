/**
 * Password guessing over real HTTP on loopback, behind a trusted proxy: Ferry trusts 127.0.0.1,
 * so `X-Forwarded-For` names each attempt's client, as a reverse proxy would.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { MESSAGES } from '@shared/api'
import { USER_MESSAGES } from '@shared/user'
import { LOGIN_LIMITS } from '@/api/users/login-limits'
import { createTestApp, testConfig, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

const OWNER_PASSWORD = 'owner-password-1'
/** Unknown usernames are checked against a full-cost argon2 hash: fifty of them take a while. */
const SPRAY_TIMEOUT = 60_000

for (const target of databaseTargets()) {
	describe(`password guessing on ${target.dialect}`, () => {
		let ferry: TestApp
		let origin: string

		beforeEach(async () => {
			ferry = await createTestApp(target, { config: { ...testConfig, trustedProxies: ['127.0.0.1'] } })
			await ferry.createUser('owner', 1, OWNER_PASSWORD)
			ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
			origin = `http://127.0.0.1:${ferry.app.server!.port}`
		})

		afterEach(async () => {
			await ferry.app.stop(true)
			await ferry.close()
		})

		async function attempt(username: string, password: string, from: string) {
			const response = await fetch(`${origin}/api/user/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
				body: JSON.stringify({ username, password }),
			})
			return { status: response.status, body: await response.json() as { success: boolean; message: string } }
		}

		const wrongGuesses = async (username: string, addresses: string[]) => {
			const answers = []
			for (const address of addresses) answers.push(await attempt(username, 'wrong-guess', address))
			return answers
		}

		const addresses = (count: number, prefix = '198.51.100') => Array.from({ length: count }, (_, index) => `${prefix}.${index + 1}`)

		test('after 15 wrong passwords from 15 addresses the owner signs in with the right one from a new address', async () => {
			const answers = await wrongGuesses('owner', addresses(15))
			expect(answers.every((answer) => answer.status === 200 && answer.body.message === inEnglish(USER_MESSAGES.wrongCredentials))).toBe(true)
			const owner = await attempt('owner', OWNER_PASSWORD, '203.0.113.7')
			expect(owner.status).toBe(200)
			expect(owner.body).toMatchObject({ success: true, data: { username: 'owner' } })
		})

		test('the super admin cannot be locked out either', async () => {
			await wrongGuesses('root', addresses(30))
			expect((await attempt('root', '123456', '203.0.113.8')).body.success).toBe(true)
		})

		test('one address guessing one account is refused with 429 within ten attempts, the right password included', async () => {
			const answers = await wrongGuesses('owner', Array(LOGIN_LIMITS.perAccountAddress.limit + 1).fill('198.51.100.1'))
			const firstRefusal = answers.findIndex((answer) => answer.status === 429)
			expect(firstRefusal).toBeGreaterThan(0)
			expect(firstRefusal).toBeLessThanOrEqual(LOGIN_LIMITS.perAccountAddress.limit)
			expect(answers[firstRefusal]!.body).toEqual({ success: false, message: MESSAGES.tooManyRequests })
			expect((await attempt('owner', OWNER_PASSWORD, '198.51.100.1')).status).toBe(429)
		})

		test('once an account draws many attempts, each further address gets only a few guesses on it', async () => {
			await wrongGuesses('owner', addresses(LOGIN_LIMITS.perAccount.limit))
			const strict = LOGIN_LIMITS.perAccountAddressUnderPressure.limit
			const fresh = await wrongGuesses('owner', Array(strict + 1).fill('203.0.113.50'))
			expect(fresh.slice(0, strict).every((answer) => answer.status === 200)).toBe(true)
			expect(fresh[strict]!.status).toBe(429)
			// Another account from that address is untouched.
			expect((await attempt('root', '123456', '203.0.113.50')).body.success).toBe(true)
		})

		test('typing the email instead of the username buys no extra guesses', async () => {
			const root = await ferry.loginRoot()
			await ferry.call('PUT', '/api/user/', { as: root, body: { id: (await ferry.login('owner', OWNER_PASSWORD)).userId, email: 'owner@example.com' } })
			const limit = LOGIN_LIMITS.perAccountAddress.limit
			const byName = await wrongGuesses('owner', Array(limit).fill('198.51.100.9'))
			expect(byName.some((answer) => answer.status === 429)).toBe(true)
			expect((await attempt('owner@example.com', 'wrong-guess', '198.51.100.9')).status).toBe(429)
		})

		test('one address spraying many accounts is refused once it passes the per-address limit', async () => {
			const limit = LOGIN_LIMITS.perAddress.limit
			const answers = []
			for (let index = 0; index <= limit; index++) answers.push(await attempt(`user${index}`, 'wrong-guess', '198.51.100.77'))
			expect(answers.slice(0, limit).every((answer) => answer.status === 200)).toBe(true)
			expect(answers[limit]!.status).toBe(429)
		}, SPRAY_TIMEOUT)

		test('the addresses of one IPv6 /64 count as one address, and guesses from it do not keep the owner out', async () => {
			const sameNetwork = Array.from({ length: LOGIN_LIMITS.perAccountAddress.limit + 2 }, (_, index) => `2001:db8:1:2::${(index + 1).toString(16)}`)
			const answers = await wrongGuesses('owner', sameNetwork)
			expect(answers.at(-1)!.status).toBe(429)
			expect((await attempt('owner', OWNER_PASSWORD, '2001:db8:9:9::1')).body.success).toBe(true)
		})
	})
}
