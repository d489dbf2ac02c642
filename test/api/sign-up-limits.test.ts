/**
 * What every new account passes over real HTTP on loopback, behind a trusted proxy (Ferry trusts
 * 127.0.0.1, so `X-Forwarded-For` names each sign-up's client): the number of accounts per address
 * and window, and the invitation an administrator may require, by password and through GitHub.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { USER_MESSAGES } from '@shared/user'
import { inEnglish, renderMessage } from '@shared/messages'
import { OPTION_DEFINITIONS } from '@shared/option'
import { createMemoryRateLimiter } from '@/lib/rate-limiter'
import { createTestApp, testConfig, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { createFakeProviders, FAKE_CLIENT, type FakeProviders } from '../helpers/fake-oauth'

const HOUR_MS = 3_600_000

for (const target of databaseTargets()) {
	describe(`sign-up limits on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let origin: string
		let providers: FakeProviders
		/** The rate limiter's clock, in milliseconds: a test moves it to end a window. */
		let limiterTime: number

		beforeEach(async () => {
			limiterTime = 1_000_000
			providers = createFakeProviders()
			ferry = await createTestApp(target, {
				config: { ...testConfig, trustedProxies: ['127.0.0.1'] }, fetch: providers.fetch, rateLimiter: createMemoryRateLimiter(() => limiterTime),
			})
			root = await ferry.loginRoot()
			ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
			origin = `http://127.0.0.1:${ferry.app.server!.port}`
		})

		afterEach(async () => {
			await ferry.app.stop(true)
			await ferry.close()
		})

		async function setOption(key: string, value: string | number) {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value: String(value) } })
			if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
		}

		async function register(username: string, from: string, { affCode = '', language = '' } = {}) {
			const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': from }
			if (language) headers.cookie = `language=${language}`
			const response = await fetch(`${origin}/api/user/register`, {
				method: 'POST', headers, body: JSON.stringify({ username, password: 'password123', aff_code: affCode }),
			})
			return { status: response.status, body: await response.json() as { success: boolean; message: string } }
		}

		async function accountExists(username: string) {
			const { users } = ferry.store.tables
			return (await ferry.store.db.select({ id: users.id }).from(users).where(eq(users.username, username))).length === 1
		}

		/** A first GitHub sign-in from `from`, through a state carrying `affCode`. */
		async function gitHubSignIn(githubId: number, from: string, affCode = '') {
			const code = `code-${githubId}`
			providers.github.authorize(code, { id: githubId, login: `octo${githubId}`, name: null, email: null })
			const headers = { 'x-forwarded-for': from }
			const state = await fetch(`${origin}/api/oauth/state?aff=${affCode}`, { headers })
			const stateCookie = state.headers.getSetCookie().find((cookie) => cookie.startsWith('ferry_oauth_state='))!.split(';')[0]!
			const { data } = await state.json() as { data: string }
			const response = await fetch(`${origin}/api/oauth/github?code=${code}&state=${data}`, { headers: { ...headers, cookie: stateCookie } })
			return { status: response.status, body: await response.json() as { success: boolean; message: string; data?: { id: number } } }
		}

		async function enableGitHub() {
			for (const [key, value] of Object.entries({ GitHubOAuthEnabled: 'true', GitHubClientId: FAKE_CLIENT.id, GitHubClientSecret: FAKE_CLIENT.secret })) await setOption(key, value)
		}

		describe('accounts per client address', () => {
			test('by default one address opens 5 accounts in 24 hours; the sixth is a 429 in the console envelope, and other addresses are not held back', async () => {
				expect(OPTION_DEFINITIONS.RegisterAddressLimit.defaultValue).toBe(5)
				expect(OPTION_DEFINITIONS.RegisterAddressWindowHours.defaultValue).toBe(24)
				for (let index = 1; index <= 5; index++) expect((await register(`gull${index}`, '198.51.100.7')).body.success).toBe(true)
				const sixth = await register('gull6', '198.51.100.7')
				expect(sixth).toEqual({ status: 429, body: { success: false, message: inEnglish(USER_MESSAGES.registerAddressLimit) } })
				expect(await accountExists('gull6')).toBe(false)
				expect((await register('tern1', '198.51.100.8')).body.success).toBe(true)
			})

			test('the refusal is in the console\'s language', async () => {
				await setOption('RegisterAddressLimit', 1)
				expect((await register('gull1', '198.51.100.7')).body.success).toBe(true)
				const refused = await register('gull2', '198.51.100.7', { language: 'zh' })
				expect(refused.status).toBe(429)
				expect(refused.body.message).toBe(renderMessage('zh', USER_MESSAGES.registerAddressLimit))
				expect(refused.body.message).toBe('该网络地址注册的新账户已达上限，请稍后再试')
			})

			test('an IPv6 /64 counts as one address, whatever its interface identifiers', async () => {
				await setOption('RegisterAddressLimit', 2)
				expect((await register('gull1', '2001:db8:1:2::1')).body.success).toBe(true)
				expect((await register('gull2', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).body.success).toBe(true)
				expect((await register('gull3', '2001:db8:1:2::ffff')).status).toBe(429)
				expect((await register('gull4', '2001:db8:1:3::1')).body.success).toBe(true)
			})

			test('the window and the limit are the administrator\'s: after the window the address opens accounts again, and 0 lifts the limit', async () => {
				await setOption('RegisterAddressLimit', 2)
				await setOption('RegisterAddressWindowHours', 1)
				for (const name of ['gull1', 'gull2']) expect((await register(name, '198.51.100.7')).body.success).toBe(true)
				expect((await register('gull3', '198.51.100.7')).status).toBe(429)
				limiterTime += HOUR_MS + 1
				expect((await register('gull3', '198.51.100.7')).body.success).toBe(true)
				await setOption('RegisterAddressLimit', 0)
				for (let index = 4; index <= 10; index++) expect((await register(`gull${index}`, '198.51.100.7')).body.success).toBe(true)
			})

			test('a refused form (a taken name) costs no allowance', async () => {
				await setOption('RegisterAddressLimit', 1)
				for (let attempt = 0; attempt < 3; attempt++) expect((await register('root', '198.51.100.7')).body.message).toBe(inEnglish(USER_MESSAGES.usernameTaken))
				expect((await register('gull1', '198.51.100.7')).body.success).toBe(true)
			})

			test('accounts made through GitHub count against the same address, and signing in to an existing one does not', async () => {
				await enableGitHub()
				await setOption('RegisterAddressLimit', 2)
				expect((await register('gull1', '198.51.100.7')).body.success).toBe(true)
				expect((await gitHubSignIn(101, '198.51.100.7')).body.success).toBe(true)
				const third = await gitHubSignIn(102, '198.51.100.7')
				expect(third).toEqual({ status: 429, body: { success: false, message: inEnglish(USER_MESSAGES.registerAddressLimit) } })
				expect(await accountExists('github_102')).toBe(false)
				expect((await gitHubSignIn(101, '198.51.100.7')).body.success).toBe(true)
			})

			test('the options take whole numbers and refuse a negative limit and a window of zero hours', async () => {
				const put = async (key: string, value: string) => (await ferry.call('PUT', '/api/option/', { as: root, body: { key, value } })).body.success
				expect(await put('RegisterAddressLimit', '3')).toBe(true)
				expect(await put('RegisterAddressWindowHours', '48')).toBe(true)
				expect(await put('RegisterAddressLimit', '-1')).toBe(false)
				expect(await put('RegisterAddressWindowHours', '0')).toBe(false)
				expect(ferry.dependencies.options.get('RegisterAddressLimit')).toBe(3)
				expect(ferry.dependencies.options.get('RegisterAddressWindowHours')).toBe(48)
			})
		})

		describe('an invitation required', () => {
			test('/api/status says whether registration needs an invitation code', async () => {
				expect((await ferry.call('GET', '/api/status')).body.data.invitation_required).toBe(false)
				await setOption('RegisterInvitationRequired', 'true')
				expect((await ferry.call('GET', '/api/status')).body.data.invitation_required).toBe(true)
			})

			test('a password registration without a code, or with a code nobody owns, is refused and creates nothing; a valid code registers', async () => {
				await setOption('RegisterInvitationRequired', 'true')
				const without = await register('gull1', '198.51.100.7')
				expect(without).toEqual({ status: 200, body: { success: false, message: inEnglish(USER_MESSAGES.invitationRequired) } })
				const zh = await register('gull1', '198.51.100.7', { language: 'zh' })
				expect(zh.body.message).toBe('管理员要求凭邀请码注册，请填写邀请码')
				const unknown = await register('gull1', '198.51.100.7', { affCode: 'no-such-code' })
				expect(unknown.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.invalidAffCode) })
				expect(await accountExists('gull1')).toBe(false)
				const rootCode = (await ferry.call('GET', '/api/user/aff', { as: root })).body.data as string
				expect((await register('gull1', '198.51.100.7', { affCode: rootCode })).body.success).toBe(true)
				const { users } = ferry.store.tables
				const [gull] = await ferry.store.db.select({ inviterId: users.inviterId }).from(users).where(eq(users.username, 'gull1'))
				expect(gull!.inviterId).toBe(root.userId)
			})

			test('refused sign-ups do not count against the address', async () => {
				await setOption('RegisterInvitationRequired', 'true')
				await setOption('RegisterAddressLimit', 1)
				for (let attempt = 0; attempt < 3; attempt++) expect((await register('gull1', '198.51.100.7')).body.success).toBe(false)
				const rootCode = (await ferry.call('GET', '/api/user/aff', { as: root })).body.data as string
				expect((await register('gull1', '198.51.100.7', { affCode: rootCode })).body.success).toBe(true)
			})

			test('the code of a deleted user is no invitation', async () => {
				await setOption('RegisterInvitationRequired', 'true')
				const gone = await ferry.createUser('gone')
				const code = (await ferry.call('GET', '/api/user/aff', { as: gone })).body.data as string
				expect((await ferry.call('DELETE', `/api/user/${gone.userId}`, { as: root })).body.success).toBe(true)
				expect((await register('gull1', '198.51.100.7', { affCode: code })).body.message).toBe(inEnglish(USER_MESSAGES.invalidAffCode))
			})

			test('a first GitHub sign-in without a valid invitation is refused, one through an invitation link creates the account, and existing accounts still sign in', async () => {
				await enableGitHub()
				expect((await gitHubSignIn(201, '198.51.100.7')).body.success).toBe(true)
				await setOption('RegisterInvitationRequired', 'true')
				const refused = await gitHubSignIn(202, '198.51.100.7')
				expect(refused.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.invitationRequired) })
				expect(await accountExists('github_202')).toBe(false)
				expect((await gitHubSignIn(203, '198.51.100.7', 'no-such-code')).body.message).toBe(inEnglish(USER_MESSAGES.invalidAffCode))
				const rootCode = (await ferry.call('GET', '/api/user/aff', { as: root })).body.data as string
				expect((await gitHubSignIn(202, '198.51.100.7', rootCode)).body.success).toBe(true)
				expect(await accountExists('github_202')).toBe(true)
				expect((await gitHubSignIn(201, '198.51.100.7')).body.success).toBe(true)
			})

			test('an administrator still creates users without a code', async () => {
				await setOption('RegisterInvitationRequired', 'true')
				const made = await ferry.call('POST', '/api/user/', { as: root, body: { username: 'purser', password: 'password123', display_name: 'purser' } })
				expect(made.body.success).toBe(true)
			})
		})
	})
}
