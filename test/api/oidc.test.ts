import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { aboutProvider, OAUTH_MESSAGES } from '@/api/oauth/messages'
import { inEnglish } from '@shared/messages'
import { USER_MESSAGES } from '@shared/user'
import { type Answer, type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { FAKE_OIDC_CLIENT, type FakeOidcProvider, startFakeOidcProvider } from '../helpers/fake-oidc'

function cookieFrom(answer: Answer, name: string): string | undefined {
	return answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))
}

for (const target of databaseTargets()) {
	describe(`OpenID Connect sign-in (${target.dialect})`, () => {
		let app: TestApp
		let provider: FakeOidcProvider
		let root: Caller

		beforeEach(async () => {
			provider = startFakeOidcProvider()
			app = await createTestApp(target)
			root = await app.loginRoot()
			// The provider is on loopback: the administrator's consent for private addresses.
			await app.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		})

		afterEach(async () => {
			await app.close()
			provider.stop()
		})

		async function setOption(key: string, value: string, headers: Record<string, string> = {}) {
			return app.call('PUT', '/api/option/', { as: root, body: { key, value }, headers })
		}

		async function configure() {
			for (const [key, value] of Object.entries({ 'oidc.client_id': FAKE_OIDC_CLIENT.id, 'oidc.client_secret': FAKE_OIDC_CLIENT.secret })) {
				expect((await setOption(key, value)).body.success).toBe(true)
			}
			expect((await setOption('oidc.well_known', provider.wellKnown)).body.success).toBe(true)
			expect((await setOption('oidc.enabled', 'true')).body.success).toBe(true)
		}

		async function startAuthorization(as?: Caller) {
			const answer = await app.call('GET', '/api/oauth/state', { as })
			const cookie = cookieFrom(answer, 'ferry_oauth_state')!
			return { state: answer.body.data as string, challenge: (answer.body as { code_challenge?: string }).code_challenge!, cookie: cookie.split(';')[0]! }
		}

		async function callback(code: string, state: string, cookie: string, { as, headers = {} }: { as?: Caller; headers?: Record<string, string> } = {}) {
			const path = `/api/oauth/oidc?code=${code}&state=${state}`
			if (as) return app.call('GET', path, { as: { ...as, cookie: `${as.cookie}; ${cookie}` }, headers })
			return app.call('GET', path, { headers: { ...headers, cookie } })
		}

		async function signIn(code: string) {
			const { state, cookie } = await startAuthorization()
			return callback(code, state, cookie)
		}

		test('saving the well-known URL fills the endpoints from discovery, and /api/status tells the login page', async () => {
			await configure()
			const status = await app.call('GET', '/api/status')
			expect(status.body.data).toMatchObject({
				oidc_enabled: true,
				oidc_client_id: FAKE_OIDC_CLIENT.id,
				oidc_authorization_endpoint: `${provider.issuer}/authorize`,
			})
			const options = (await app.call('GET', '/api/option/', { as: root })).body.data as { key: string; value: string }[]
			const value = (key: string) => options.find((option) => option.key === key)?.value
			expect(value('oidc.token_endpoint')).toBe(`${provider.issuer}/token`)
			expect(value('oidc.user_info_endpoint')).toBe(`${provider.issuer}/userinfo`)
		})

		test('never answers the client secret from GET /api/option', async () => {
			await configure()
			const answer = await app.call('GET', '/api/option/', { as: root })
			expect(answer.body.data.some((option: { key: string }) => option.key === 'oidc.client_secret')).toBe(false)
			expect(JSON.stringify(answer.body)).not.toContain(FAKE_OIDC_CLIENT.secret)
		})

		test('refuses a well-known URL that cannot be read, in the console\'s language, keeping the endpoints', async () => {
			await configure()
			const answer = await setOption('oidc.well_known', `${provider.issuer}/nothing-here`, { 'accept-language': 'zh-CN' })
			expect(answer.body).toEqual({ success: false, message: 'OIDC 未接受授权，请重试' })
			const status = await app.call('GET', '/api/status')
			expect(status.body.data.oidc_authorization_endpoint).toBe(`${provider.issuer}/authorize`)
		})

		test('signs in, creating the account from the userinfo claims on first sight and finding it afterwards', async () => {
			await configure()
			provider.authorize('code-1', { sub: 'a1b2-c3d4', preferred_username: 'ada', email: 'ada@example.com' })
			const first = await signIn('code-1')
			expect(first.body.success).toBe(true)
			expect(first.body.data).toMatchObject({ display_name: 'ada', role: 1 })
			expect(first.body.data.username).toStartWith('oidc_')
			const session = { userId: first.body.data.id, cookie: cookieFrom(first, 'ferry_session')!.split(';')[0]! }
			expect((await app.call('GET', '/api/user/self', { as: session })).body.data.oidc_id).toBe('a1b2-c3d4')

			provider.authorize('code-2', { sub: 'a1b2-c3d4', preferred_username: 'renamed' })
			const second = await signIn('code-2')
			expect(second.body.data.id).toBe(first.body.data.id)
		})

		test('sends the PKCE verifier of the challenge its state answer gave, and the provider refuses any other', async () => {
			await configure()
			const started = await startAuthorization()
			expect(started.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
			provider.authorize('code-pkce', { sub: 'pkce-sub' }, started.challenge)
			const signedIn = await callback('code-pkce', started.state, started.cookie)
			expect(signedIn.body.success).toBe(true)

			// A code issued for another browser's challenge: this browser's verifier does not match it.
			const other = await startAuthorization()
			const mine = await startAuthorization()
			provider.authorize('code-stolen', { sub: 'pkce-sub' }, other.challenge)
			const refused = await callback('code-stolen', mine.state, mine.cookie)
			expect(refused.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.codeRejected, 'OIDC')) })
			expect(provider.state.tokenRequests).toBe(2)
		})

		test('refuses a state other than the one given to this browser, before asking the provider', async () => {
			await configure()
			provider.authorize('code-1', { sub: 'x' })
			const { cookie } = await startAuthorization()
			const { state: otherBrowsersState } = await startAuthorization()
			const mismatched = await callback('code-1', otherBrowsersState, cookie)
			expect(mismatched.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.stateInvalid) })
			expect(provider.state.tokenRequests).toBe(0)
		})

		test('binds to the signed-in user who started it, and refuses an account bound elsewhere', async () => {
			await configure()
			const olive = await app.createUser('olive')
			provider.authorize('code-1', { sub: 'olive-sub' })
			const started = await startAuthorization(olive)
			const bound = await callback('code-1', started.state, started.cookie, { as: olive })
			expect(bound.body).toEqual({ success: true, message: 'bind' })
			expect((await app.call('GET', '/api/user/self', { as: olive })).body.data.oidc_id).toBe('olive-sub')

			const pete = await app.createUser('pete')
			provider.authorize('code-2', { sub: 'olive-sub' })
			const again = await startAuthorization(pete)
			const refused = await callback('code-2', again.state, again.cookie, { as: pete })
			expect(refused.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.alreadyBound, 'OIDC')) })
			expect((await app.call('GET', '/api/user/self', { as: pete })).body.data.oidc_id).toBe('')
		})

		test('refuses to create an account while registration is closed or without a required invitation', async () => {
			await configure()
			await app.dependencies.options.set('RegisterEnabled', 'false')
			provider.authorize('code-1', { sub: 'new-person' })
			expect((await signIn('code-1')).body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.registerDisabled) })
			await app.dependencies.options.set('RegisterEnabled', 'true')
			await app.dependencies.options.set('RegisterInvitationRequired', 'true')
			provider.authorize('code-2', { sub: 'new-person' })
			const withoutInvitation = await signIn('code-2')
			expect(withoutInvitation.body.success).toBe(false)
			expect(cookieFrom(withoutInvitation, 'ferry_session')).toBeUndefined()
		})

		test('a provider failure or a rejected code gives a clear message in the console\'s language', async () => {
			await configure()
			const rejected = await signIn('never-issued')
			expect(rejected.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.codeRejected, 'OIDC')) })
			provider.state.failing = true
			provider.authorize('code-1', { sub: 'x' })
			const { state, cookie } = await startAuthorization()
			const failed = await callback('code-1', state, cookie, { headers: { 'accept-language': 'zh-CN' } })
			expect(failed.body).toEqual({ success: false, message: 'OIDC 返回了意外的应答，请稍后再试' })
		})

		test('refuses while OIDC login is disabled', async () => {
			await configure()
			await setOption('oidc.enabled', 'false')
			provider.authorize('code-1', { sub: 'x' })
			const answer = await signIn('code-1')
			expect(answer.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.disabled, 'OIDC')) })
		})
	})
}
