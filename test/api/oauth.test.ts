import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { aboutProvider, OAUTH_MESSAGES } from '@/api/oauth/messages'
import { TELEGRAM_CLOCK_SKEW_SECONDS, TELEGRAM_MAX_AGE_SECONDS } from '@/api/oauth/telegram'
import { ROLE, USER_MESSAGES } from '@shared/user'
import { nowSeconds } from '@/lib/clock'
import { type Answer, type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import {
	createFakeProviders, FAKE_CLIENT, FAKE_WECHAT_SERVER, FAKE_WECHAT_TOKEN, type FakeProviders, type GitHubProfile, signTelegramLogin,
} from '../helpers/fake-oauth'
import { inEnglish } from '@shared/messages'

const BOT_TOKEN = '123456:telegram-bot-token'
const octocat: GitHubProfile = { id: 5832, login: 'octocat', name: 'The Octocat', email: null }

function cookieFrom(answer: Answer, name: string): string | undefined {
	return answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))
}

/** The browser's session after a sign-in answer, as `app.login` gives it. */
function sessionOf(answer: Answer): Caller {
	const cookie = cookieFrom(answer, 'ferry_session')
	if (!answer.body.success || !cookie) throw new Error(`no session: ${answer.body.message}`)
	return { userId: answer.body.data.id, cookie: cookie.split(';')[0]! }
}

for (const target of databaseTargets()) {
	describe(`third-party sign-in and binding (${target.dialect})`, () => {
		let app: TestApp
		let providers: FakeProviders

		beforeEach(async () => {
			providers = createFakeProviders()
			app = await createTestApp(target, { fetch: providers.fetch })
			const settings: Record<string, string> = {
				GitHubOAuthEnabled: 'true', GitHubClientId: FAKE_CLIENT.id, GitHubClientSecret: FAKE_CLIENT.secret,
				LinuxDOOAuthEnabled: 'true', LinuxDOClientId: FAKE_CLIENT.id, LinuxDOClientSecret: FAKE_CLIENT.secret,
				WeChatAuthEnabled: 'true', WeChatServerAddress: FAKE_WECHAT_SERVER, WeChatServerToken: FAKE_WECHAT_TOKEN,
				TelegramOAuthEnabled: 'true', TelegramBotToken: BOT_TOKEN,
			}
			for (const [key, value] of Object.entries(settings)) await app.dependencies.options.set(key, value)
		})

		afterEach(() => app.close())

		/** What the console does before sending the browser to the provider. */
		async function startAuthorization(as?: Caller, aff?: string) {
			const answer = await app.call('GET', `/api/oauth/state${aff ? `?aff=${aff}` : ''}`, { as })
			expect(answer.body.success).toBe(true)
			const cookie = cookieFrom(answer, 'ferry_oauth_state')!
			return { state: answer.body.data as string, cookie: cookie.split(';')[0]!, attributes: cookie }
		}

		/** The provider sent the browser back with `code`; the console page calls the callback. */
		async function callback(provider: 'github' | 'linuxdo', code: string, state: string, cookie: string, as?: Caller) {
			const headers: Record<string, string> = { cookie }
			const caller = as && { ...as, cookie: `${as.cookie}; ${cookie}` }
			return app.call('GET', `/api/oauth/${provider}?code=${code}&state=${state}`, caller ? { as: caller } : { headers })
		}

		async function githubSignIn(code: string, profile: GitHubProfile, aff?: string) {
			providers.github.authorize(code, profile)
			const { state, cookie } = await startAuthorization(undefined, aff)
			return callback('github', code, state, cookie)
		}

		describe('OAuth state', () => {
			test('is a random string bound to the browser by an httpOnly, SameSite=Lax cookie', async () => {
				const first = await startAuthorization()
				const second = await startAuthorization()
				expect(first.state).toMatch(/^[A-Za-z0-9]{32}$/)
				expect(first.state).not.toBe(second.state)
				expect(first.attributes).toContain('HttpOnly')
				expect(first.attributes).toContain('SameSite=Lax')
				expect(first.cookie).not.toContain(first.state)
			})
		})

		describe('GitHub', () => {
			test('signs in, creating the account on first sight and reusing it afterwards', async () => {
				const first = await githubSignIn('code-1', octocat)
				expect(first.body.success).toBe(true)
				expect(first.body.data).toMatchObject({ username: 'github_5832', display_name: 'The Octocat', role: 1 })
				const session = sessionOf(first)
				const self = await app.call('GET', '/api/user/self', { as: session })
				expect(self.body.data.github_id).toBe(String(octocat.id))

				const second = await githubSignIn('code-2', { ...octocat, login: 'renamed' })
				expect(second.body.data.id).toBe(first.body.data.id)
			})

			test('refuses a state other than the one given to this browser, or no state cookie, before asking GitHub', async () => {
				providers.github.authorize('code-1', octocat)
				const { cookie } = await startAuthorization()
				const { state: otherBrowsersState } = await startAuthorization()
				const mismatched = await callback('github', 'code-1', otherBrowsersState, cookie)
				expect(mismatched.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.stateInvalid) })
				const withoutCookie = await app.call('GET', `/api/oauth/github?code=code-1&state=${otherBrowsersState}`)
				expect(withoutCookie.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.stateInvalid) })
				expect(providers.requests).toHaveLength(0)
			})

			test('accepts a state only once', async () => {
				providers.github.authorize('code-1', octocat)
				providers.github.authorize('code-2', octocat)
				const { state, cookie } = await startAuthorization()
				expect((await callback('github', 'code-1', state, cookie)).body.success).toBe(true)
				const replay = await callback('github', 'code-2', state, cookie)
				expect(replay.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.stateInvalid) })
			})

			test('binds to the signed-in user who started the authorization, and refuses an account bound elsewhere', async () => {
				const olive = await app.createUser('olive')
				providers.github.authorize('code-1', octocat)
				const started = await startAuthorization(olive)
				const bound = await callback('github', 'code-1', started.state, started.cookie, olive)
				expect(bound.body).toEqual({ success: true, message: 'bind' })
				expect(cookieFrom(bound, 'ferry_session')).toBeUndefined()
				expect((await app.call('GET', '/api/user/self', { as: olive })).body.data.github_id).toBe(String(octocat.id))

				const pete = await app.createUser('pete')
				providers.github.authorize('code-2', octocat)
				const again = await startAuthorization(pete)
				const refused = await callback('github', 'code-2', again.state, again.cookie, pete)
				expect(refused.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.alreadyBound, 'GitHub')) })
				expect((await app.call('GET', '/api/user/self', { as: pete })).body.data.github_id).toBe('')
			})

			test('does not bind when the browser signed out after the authorization started', async () => {
				const quinn = await app.createUser('quinn')
				providers.github.authorize('code-1', octocat)
				const started = await startAuthorization(quinn)
				const anonymous = await callback('github', 'code-1', started.state, started.cookie)
				expect(anonymous.status).toBe(401)
				expect((await app.call('GET', '/api/user/self', { as: quinn })).body.data.github_id).toBe('')
			})

			test('records the inviter remembered in the state on the new account', async () => {
				const root = await app.loginRoot()
				const aff = (await app.call('GET', '/api/user/aff', { as: root })).body.data as string
				const created = await githubSignIn('code-1', octocat, aff)
				const seen = await app.call('GET', `/api/user/${created.body.data.id}`, { as: root })
				expect(seen.body.data.inviter_id).toBe(root.userId)
				expect((await app.call('GET', '/api/user/self', { as: root })).body.data.aff_count).toBe(1)
			})

			test('refuses to create an account while registration is closed', async () => {
				await app.dependencies.options.set('RegisterEnabled', 'false')
				const answer = await githubSignIn('code-1', octocat)
				expect(answer.body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.registerDisabled) })
			})

			test('refuses while GitHub login is disabled', async () => {
				await app.dependencies.options.set('GitHubOAuthEnabled', 'false')
				const answer = await githubSignIn('code-1', octocat)
				expect(answer.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.disabled, 'GitHub')) })
			})

			test('refuses a code GitHub does not accept, and answers 400 without a code', async () => {
				const { state, cookie } = await startAuthorization()
				const rejected = await callback('github', 'never-issued', state, cookie)
				expect(rejected.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.codeRejected, 'GitHub')) })
				const missing = await app.call('GET', `/api/oauth/github?state=${state}`, { headers: { cookie } })
				expect(missing.status).toBe(400)
			})
		})

		describe('LinuxDO', () => {
			test('signs in with an active account and refuses an inactive one', async () => {
				providers.linuxdo.authorize('code-1', { id: 42, username: 'neo', name: 'Neo', active: true, trust_level: 2 })
				const first = await startAuthorization()
				const signedIn = await callback('linuxdo', 'code-1', first.state, first.cookie)
				expect(signedIn.body.data).toMatchObject({ username: 'linuxdo_42', display_name: 'Neo' })
				expect((await app.call('GET', '/api/user/self', { as: sessionOf(signedIn) })).body.data.linux_do_id).toBe('42')

				providers.linuxdo.authorize('code-2', { id: 43, username: 'trinity', name: 'Trinity', active: false, trust_level: 0 })
				const second = await startAuthorization()
				const inactive = await callback('linuxdo', 'code-2', second.state, second.cookie)
				expect(inactive.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.linuxdoInactive) })
			})
		})

		describe('WeChat', () => {
			test('signs in through the WeChat server, creating the user once and reusing it', async () => {
				providers.weChat.user('111111', 'oWx-openid-0001')
				providers.weChat.user('222222', 'oWx-openid-0001')
				const first = await app.call('GET', '/api/oauth/wechat?code=111111')
				expect(first.body.success).toBe(true)
				expect(first.body.data.display_name).toBe('WeChat User')
				expect(first.body.data.username).toMatch(/^wechat_[a-z0-9]{5}$/)
				const self = await app.call('GET', '/api/user/self', { as: sessionOf(first) })
				expect(self.body.data.wechat_id).toBe('oWx-openid-0001')

				const second = await app.call('GET', '/api/oauth/wechat?code=222222')
				expect(second.body.data.id).toBe(first.body.data.id)
			})

			test('refuses the sign-in when the WeChat server answers success:false, with the server\'s reason', async () => {
				providers.weChat.answer('333333', { success: false, message: 'verification code expired' })
				const answer = await app.call('GET', '/api/oauth/wechat?code=333333')
				expect(answer.body).toMatchObject({ success: false, message: 'WeChat login failed: verification code expired' })
				expect(cookieFrom(answer, 'ferry_session')).toBeUndefined()
			})

			test('refuses while WeChat login is disabled', async () => {
				await app.dependencies.options.set('WeChatAuthEnabled', 'false')
				providers.weChat.user('111111', 'oWx-openid-0001')
				const answer = await app.call('GET', '/api/oauth/wechat?code=111111')
				expect(answer.body).toMatchObject({ success: false, message: 'administrator has not enabled WeChat login' })
			})

			test('refuses a banned user', async () => {
				providers.weChat.user('111111', 'oWx-openid-0001')
				const created = await app.call('GET', '/api/oauth/wechat?code=111111')
				const root = await app.loginRoot()
				await app.call('POST', '/api/user/manage', { as: root, body: { id: created.body.data.id, action: 'disable' } })
				providers.weChat.user('222222', 'oWx-openid-0001')
				const answer = await app.call('GET', '/api/oauth/wechat?code=222222')
				expect(answer.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.banned) })
			})

			test('binds to the signed-in caller and refuses an account already bound to someone else', async () => {
				const rosa = await app.createUser('rosa')
				const sam = await app.createUser('sam')
				providers.weChat.user('111111', 'oWx-openid-0002')
				expect((await app.call('GET', '/api/oauth/wechat/bind?code=111111')).status).toBe(401)
				providers.weChat.user('111111', 'oWx-openid-0002')
				expect((await app.call('GET', '/api/oauth/wechat/bind?code=111111', { as: rosa })).body).toEqual({ success: true, message: 'bind' })
				expect((await app.call('GET', '/api/user/self', { as: rosa })).body.data.wechat_id).toBe('oWx-openid-0002')

				providers.weChat.user('222222', 'oWx-openid-0002')
				const taken = await app.call('GET', '/api/oauth/wechat/bind?code=222222', { as: sam })
				expect(taken.body).toMatchObject({ success: false, message: 'this WeChat account is already bound' })
			})
		})

		describe('one outside account at once, over real HTTP', () => {
			const RACERS = 12
			let origin: string
			beforeEach(async () => {
				// Every racer comes from 127.0.0.1: past the sign-up limit per address they would be refused for that instead.
				await app.dependencies.options.set('RegisterAddressLimit', '0')
				app.app.listen({ port: 0, hostname: '127.0.0.1' })
				origin = `http://127.0.0.1:${app.app.server!.port}`
			})
			afterEach(() => app.app.stop(true))

			async function get(path: string, as?: Caller) {
				const headers: Record<string, string> = as ? { cookie: as.cookie!, 'new-api-user': String(as.userId) } : {}
				const response = await fetch(`${origin}${path}`, { headers })
				return { status: response.status, body: await response.json() as { success: boolean; message: string; data?: { id: number } } }
			}

			test('twelve first sign-ins of one WeChat account all sign in to the one account it gets', async () => {
				for (let index = 0; index < RACERS; index++) providers.weChat.user(`code-${index}`, 'oWx-openid-race')
				const answers = await Promise.all(Array.from({ length: RACERS }, (_, index) => get(`/api/oauth/wechat?code=code-${index}`)))
				expect(answers.map((answer) => [answer.status, answer.body.success])).toEqual(Array(RACERS).fill([200, true]))
				expect(new Set(answers.map((answer) => answer.body.data!.id)).size).toBe(1)
				const { users } = app.store.tables
				expect(await app.store.db.select({ id: users.id }).from(users).where(eq(users.wechatId, 'oWx-openid-race'))).toHaveLength(1)
			})

			test('twelve users binding one WeChat account: exactly one binds it, eleven are refused as already bound', async () => {
				const racers: Caller[] = []
				for (let index = 0; index < RACERS; index++) {
					await app.call('POST', '/api/user/register', { body: { username: `binder${index}`, password: 'password123' } })
					racers.push(await app.login(`binder${index}`, 'password123'))
					providers.weChat.user(`bind-${index}`, 'oWx-openid-bound')
				}
				const answers = await Promise.all(racers.map((racer, index) => get(`/api/oauth/wechat/bind?code=bind-${index}`, racer)))
				expect(answers.filter((answer) => answer.status >= 500)).toEqual([])
				expect(answers.filter((answer) => answer.body.success)).toHaveLength(1)
				expect(answers.filter((answer) => !answer.body.success).map((answer) => answer.body.message))
					.toEqual(Array(RACERS - 1).fill(inEnglish(aboutProvider(OAUTH_MESSAGES.alreadyBound, 'WeChat'))))
				const { users } = app.store.tables
				expect(await app.store.db.select({ id: users.id }).from(users).where(eq(users.wechatId, 'oWx-openid-bound'))).toHaveLength(1)
			})
		})

		describe('Telegram', () => {
			const widgetData = (overrides: Record<string, string> = {}) => ({
				id: '987654321', first_name: 'Tess', last_name: 'Gram', username: 'tessg', photo_url: 'https://t.me/i/userpic/320/tessg.jpg',
				auth_date: String(nowSeconds() - 60), ...overrides,
			})
			const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

			test('signs in with widget data signed by the bot token, ignoring the console\'s lang parameter', async () => {
				const signed = signTelegramLogin(BOT_TOKEN, widgetData())
				const answer = await app.call('GET', `/api/oauth/telegram/login?${query({ ...signed, lang: 'en' })}`)
				expect(answer.body.success).toBe(true)
				expect(answer.body.data).toMatchObject({ username: 'tg_987654321', display_name: 'Tess Gram' })
				expect((await app.call('GET', '/api/user/self', { as: sessionOf(answer) })).body.data.telegram_id).toBe('987654321')
			})

			test('refuses data changed after signing, or signed with another bot token', async () => {
				const tampered = { ...signTelegramLogin(BOT_TOKEN, widgetData()), id: '1' }
				const changed = await app.call('GET', `/api/oauth/telegram/login?${query(tampered)}`)
				expect(changed.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramInvalid) })
				const forged = signTelegramLogin('999:another-bot', widgetData())
				const otherBot = await app.call('GET', `/api/oauth/telegram/login?${query(forged)}`)
				expect(otherBot.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramInvalid) })
				expect(cookieFrom(otherBot, 'ferry_session')).toBeUndefined()
			})

			test('refuses data signed more than a few minutes ago, or dated in the future beyond a small skew', async () => {
				for (const authDate of [nowSeconds() - 2 * 24 * 3600, nowSeconds() - 3600, nowSeconds() - TELEGRAM_MAX_AGE_SECONDS - 30, nowSeconds() + 3600]) {
					const signed = signTelegramLogin(BOT_TOKEN, widgetData({ auth_date: String(authDate) }))
					const answer = await app.call('GET', `/api/oauth/telegram/login?${query(signed)}`)
					expect(answer.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramExpired) })
					expect(cookieFrom(answer, 'ferry_session')).toBeUndefined()
				}
				const slightlyAhead = signTelegramLogin(BOT_TOKEN, widgetData({ auth_date: String(nowSeconds() + 10) }))
				expect((await app.call('GET', `/api/oauth/telegram/login?${query(slightlyAhead)}`)).body.success).toBe(true)
			})

			test('accepts each signed login once: a replay is refused, for sign-in and for binding', async () => {
				const signed = signTelegramLogin(BOT_TOKEN, widgetData())
				const first = await app.call('GET', `/api/oauth/telegram/login?${query(signed)}`)
				expect(first.body.success).toBe(true)
				const replayed = await app.call('GET', `/api/oauth/telegram/login?${query(signed)}`)
				expect(replayed.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramUsed) })
				expect(cookieFrom(replayed, 'ferry_session')).toBeUndefined()
				const vic = await app.createUser('vic')
				const bindReplay = await app.call('GET', `/api/oauth/telegram/bind?${query(signed)}`, { as: vic })
				expect(bindReplay.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramUsed) })
				// A fresh login by the same Telegram account is signed anew and works.
				const fresh = signTelegramLogin(BOT_TOKEN, widgetData({ auth_date: String(nowSeconds() - 5) }))
				expect((await app.call('GET', `/api/oauth/telegram/login?${query(fresh)}`)).body.success).toBe(true)
			})

			test('two nodes on one database accept a signed login at most once, even at the same moment', async () => {
				const [first, second] = await target.openTwo()
				try {
					const nodes = [await createTestApp({ open: async () => first }), await createTestApp({ open: async () => second })]
					for (const node of nodes) {
						await node.dependencies.options.set('TelegramOAuthEnabled', 'true')
						await node.dependencies.options.set('TelegramBotToken', BOT_TOKEN)
					}
					const signed = query(signTelegramLogin(BOT_TOKEN, widgetData()))
					const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => nodes[index % 2]!.call('GET', `/api/oauth/telegram/login?${signed}`)))
					expect(answers.filter((answer) => answer.body.success).length).toBeLessThanOrEqual(1)
					const later = await nodes[1]!.call('GET', `/api/oauth/telegram/login?${signed}`)
					expect(later.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramUsed) })
				} finally {
					await first.close()
				}
			})

			test('remembers used logins only while they could still be accepted', async () => {
				const { verifications } = app.store.tables
				const longAgo = nowSeconds() - 3600
				await app.store.db.insert(verifications).values({ purpose: 'telegram_login', target: 'old', codeHash: 'old', expiresAt: longAgo })
				await app.call('GET', `/api/oauth/telegram/login?${query(signTelegramLogin(BOT_TOKEN, widgetData()))}`)
				const kept = await app.store.db.select().from(verifications).where(eq(verifications.purpose, 'telegram_login'))
				expect(kept).toHaveLength(1)
				expect(kept[0]!.expiresAt).toBeGreaterThan(nowSeconds())
				expect(kept[0]!.expiresAt).toBeLessThanOrEqual(nowSeconds() + TELEGRAM_MAX_AGE_SECONDS + TELEGRAM_CLOCK_SKEW_SECONDS)
			})

			test('refuses missing data without a server error', async () => {
				const answer = await app.call('GET', '/api/oauth/telegram/login')
				expect(answer.status).toBe(200)
				expect(answer.body).toMatchObject({ success: false, message: inEnglish(OAUTH_MESSAGES.telegramInvalid) })
			})

			test('binds to the signed-in caller', async () => {
				const uma = await app.createUser('uma')
				const signed = signTelegramLogin(BOT_TOKEN, widgetData())
				expect((await app.call('GET', `/api/oauth/telegram/bind?${query(signed)}`, { as: uma })).body).toEqual({ success: true, message: 'bind' })
				expect((await app.call('GET', '/api/user/self', { as: uma })).body.data.telegram_id).toBe('987654321')
			})
		})

		describe('unbinding', () => {
			async function bindGitHub(as: Caller, code: string, profile: GitHubProfile) {
				providers.github.authorize(code, profile)
				const started = await startAuthorization(as)
				expect((await callback('github', code, started.state, started.cookie, as)).body).toEqual({ success: true, message: 'bind' })
			}

			test('unbinds the caller\'s GitHub account, which can then be bound to another account, leaving others\' bindings alone', async () => {
				const olive = await app.createUser('olive')
				const pete = await app.createUser('pete')
				await bindGitHub(olive, 'code-1', octocat)
				await bindGitHub(pete, 'code-2', { ...octocat, id: 777, login: 'pete-gh' })

				const unbound = await app.call('DELETE', '/api/oauth/github/bind', { as: olive })
				expect(unbound.body).toEqual({ success: true, message: 'unbound' })
				expect((await app.call('GET', '/api/user/self', { as: olive })).body.data.github_id).toBe('')
				expect((await app.call('GET', '/api/user/self', { as: pete })).body.data.github_id).toBe('777')

				const sam = await app.createUser('sam')
				await bindGitHub(sam, 'code-3', octocat)
				expect((await app.call('GET', '/api/user/self', { as: sam })).body.data.github_id).toBe(String(octocat.id))
				// The freed identity now signs in to its new owner.
				expect((await githubSignIn('code-4', octocat)).body.data.id).toBe(sam.userId)
			})

			test('refuses to unbind the last way into an account created through GitHub until it has a password, in the caller\'s language', async () => {
				const session = sessionOf(await githubSignIn('code-1', octocat))
				const refused = await app.call('DELETE', '/api/oauth/github/bind', { as: session, headers: { 'accept-language': 'zh-CN' } })
				expect(refused.body).toEqual({ success: false, message: 'GitHub 是该账户唯一的登录方式，请先设置密码或绑定其他登录方式' })
				const inEnglishToo = await app.call('DELETE', '/api/oauth/github/bind', { as: session })
				expect(inEnglishToo.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.lastSignIn, 'GitHub')) })
				expect((await app.call('GET', '/api/user/self', { as: session })).body.data.github_id).toBe(String(octocat.id))

				// Another binding is another way in.
				providers.weChat.user('111111', 'oWx-openid-0009')
				expect((await app.call('GET', '/api/oauth/wechat/bind?code=111111', { as: session })).body.success).toBe(true)
				expect((await app.call('DELETE', '/api/oauth/github/bind', { as: session })).body.success).toBe(true)
				expect((await app.call('DELETE', '/api/oauth/wechat/bind', { as: session })).body.success).toBe(false)

				// So is a password its owner chose.
				const { username } = (await app.call('GET', '/api/user/self', { as: session })).body.data
				expect((await app.call('PUT', '/api/user/self', { as: session, body: { password: 'chosen-password-1' } })).body.success).toBe(true)
				const relogged = await app.login(username, 'chosen-password-1')
				expect((await app.call('DELETE', '/api/oauth/wechat/bind', { as: relogged })).body).toEqual({ success: true, message: 'unbound' })
			})

			test('an admin unbinds for a user they may manage, never for an equal role, and never the last way in', async () => {
				const admin = await app.createUser('ops', ROLE.admin)
				const peer = await app.createUser('peer', ROLE.admin)
				const olive = await app.createUser('olive')
				await bindGitHub(olive, 'code-1', octocat)
				await bindGitHub(peer, 'code-2', { ...octocat, id: 778, login: 'peer-gh' })

				expect((await app.call('DELETE', `/api/user/${olive.userId}/bind/github`, { as: olive })).status).toBe(403)
				expect((await app.call('DELETE', `/api/user/${olive.userId}/bind/github`, { as: admin })).body).toEqual({ success: true, message: 'unbound' })
				expect((await app.call('GET', '/api/user/self', { as: olive })).body.data.github_id).toBe('')
				const equal = await app.call('DELETE', `/api/user/${peer.userId}/bind/github`, { as: admin })
				expect(equal.body).toMatchObject({ success: false, message: inEnglish(USER_MESSAGES.equalOrHigherRole) })
				expect((await app.call('GET', '/api/user/self', { as: peer })).body.data.github_id).toBe('778')

				const created = sessionOf(await githubSignIn('code-3', { ...octocat, id: 779, login: 'fresh' }))
				const last = await app.call('DELETE', `/api/user/${created.userId}/bind/github`, { as: admin })
				expect(last.body).toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.lastSignIn, 'GitHub')) })
			})

			test('refuses a provider that is not bound or not known, and a caller who is not signed in', async () => {
				const olive = await app.createUser('olive')
				expect((await app.call('DELETE', '/api/oauth/linuxdo/bind', { as: olive })).body)
					.toMatchObject({ success: false, message: inEnglish(aboutProvider(OAUTH_MESSAGES.notBound, 'LinuxDO')) })
				const unknown = await app.call('DELETE', '/api/oauth/myspace/bind', { as: olive })
				expect(unknown.status).toBeGreaterThanOrEqual(400)
				expect(unknown.status).toBeLessThan(500)
				expect(unknown.body.success).toBe(false)
				expect((await app.call('DELETE', '/api/oauth/github/bind')).status).toBe(401)
			})
		})
	})
}
