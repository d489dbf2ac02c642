import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { USER_MESSAGES } from '@shared/user'
import { ROOT_INITIAL_QUOTA } from '@/api/users/account'
import { type Caller, createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

for (const target of databaseTargets()) {
	describe(`accounts on ${target.dialect}`, () => {
		let ferry: TestApp
		beforeEach(async () => {
			ferry = await createTestApp(target)
		})
		afterEach(() => ferry.close())

		const register = (body: Record<string, unknown>) => ferry.call('POST', '/api/user/register', { body })

		describe('the super admin bootstrap', () => {
			test('creates root with the default password, flagged to change it, and logs its initial quota', async () => {
				const login = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: '123456' } })
				expect(login.body).toMatchObject({ success: true, data: { username: 'root', role: 100, password_change_required: true } })
				const { logs } = ferry.store.tables
				const [grant] = await ferry.store.db.select().from(logs).where(eq(logs.userId, login.body.data.id))
				expect(grant).toMatchObject({ type: LOG_TYPE.system, quota: ROOT_INITIAL_QUOTA })
			})

			test('clears the password-change flag once root sets a new password', async () => {
				const root = await ferry.loginRoot()
				await ferry.call('PUT', '/api/user/self', { as: root, body: { password: 'a-new-password' } })
				const login = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: 'a-new-password' } })
				expect(login.body.data.password_change_required).toBe(false)
			})
		})

		describe('registration', () => {
			test('creates an ordinary user who can then sign in', async () => {
				const answer = await register({ username: 'alice', password: 'password123', password2: 'password123' })
				expect(answer.body.success).toBe(true)
				const login = await ferry.call('POST', '/api/user/login', { body: { username: 'alice', password: 'password123' } })
				expect(login.body).toMatchObject({ success: true, data: { username: 'alice', role: 1, status: 1, group: 'default' } })
			})

			test.each([
				[{ username: 'alice', password: 'short' }, inEnglish(USER_MESSAGES.passwordTooShort)],
				[{ username: 'alice', password: 'a'.repeat(21) }, inEnglish(USER_MESSAGES.passwordTooLong)],
				[{ username: 'a'.repeat(13), password: 'password123' }, inEnglish(USER_MESSAGES.usernameTooLong)],
				[{ username: 'alice', password: 'password123', password2: 'password124' }, inEnglish(USER_MESSAGES.passwordsDiffer)],
				[{ username: '', password: 'password123' }, inEnglish(USER_MESSAGES.registerRequired)],
				[{ password: 'password123' }, inEnglish(USER_MESSAGES.registerRequired)],
				[{ username: 'alice' }, inEnglish(USER_MESSAGES.registerRequired)],
			])('refuses %j with the catalogue message', async (body, message) => {
				const answer = await register(body)
				expect(answer.status).toBe(400)
				expect(answer.body).toEqual({ success: false, message })
			})

			test('refuses a username that is already taken', async () => {
				await register({ username: 'alice', password: 'password123' })
				const answer = await register({ username: 'alice', password: 'password456' })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.usernameTaken) })
			})

			test('is refused when the administrator turns registration off', async () => {
				await ferry.dependencies.options.set('RegisterEnabled', 'false')
				const answer = await register({ username: 'alice', password: 'password123' })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.registerDisabled) })
			})

			test('is refused when password registration is turned off', async () => {
				await ferry.dependencies.options.set('PasswordRegisterEnabled', 'false')
				const answer = await register({ username: 'alice', password: 'password123' })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.passwordRegisterDisabled) })
			})

			test('records the inviter of an invitation code and counts the invitation', async () => {
				const inviter = await ferry.createUser('inviter')
				const code = (await ferry.call('GET', '/api/user/aff', { as: inviter })).body.data
				expect(code).toMatch(/^[A-Za-z0-9]{8}$/)
				await register({ username: 'invitee', password: 'password123', aff_code: code })
				const invitee = await ferry.login('invitee', 'password123')
				expect((await ferry.call('GET', '/api/user/self', { as: invitee })).body.data.inviter_id).toBe(inviter.userId)
				expect((await ferry.call('GET', '/api/user/self', { as: inviter })).body.data.aff_count).toBe(1)
			})

			test('stores passwords as argon2id hashes, never in the clear', async () => {
				await register({ username: 'alice', password: 'password123' })
				const { users } = ferry.store.tables
				const [user] = await ferry.store.db.select().from(users).where(eq(users.username, 'alice'))
				expect(user!.password).toStartWith('$argon2id$')
			})
		})

		describe('login', () => {
			test('asks for both fields with the catalogue message', async () => {
				const answer = await ferry.call('POST', '/api/user/login', { body: { username: 'root' } })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe(inEnglish(USER_MESSAGES.loginRequired))
			})

			test('refuses a wrong password and an unknown user with the same message', async () => {
				const wrong = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: 'nope-nope' } })
				const unknown = await ferry.call('POST', '/api/user/login', { body: { username: 'nobody', password: 'nope-nope' } })
				expect(wrong.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.wrongCredentials) })
				expect(unknown.body).toEqual(wrong.body)
			})

			test('accepts an imported bcrypt hash', async () => {
				const { users } = ferry.store.tables
				await ferry.store.db.update(users).set({ password: await Bun.password.hash('legacy-pass', { algorithm: 'bcrypt', cost: 4 }) }).where(eq(users.username, 'root'))
				const answer = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: 'legacy-pass' } })
				expect(answer.body.success).toBe(true)
			})

			test('is rate limited per account and address before any password is checked', async () => {
				const attempts = []
				for (let attempt = 0; attempt < 11; attempt++) attempts.push(await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: 'wrong-guess' } }))
				expect(attempts[0]!.status).toBe(200)
				expect(attempts[10]!.status).toBe(429)
				const correct = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: '123456' } })
				expect(correct.status).toBe(429)
			})

			test('is refused when password login is turned off', async () => {
				await ferry.dependencies.options.set('PasswordLoginEnabled', 'false')
				const answer = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: '123456' } })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.passwordLoginDisabled) })
			})

			test('sets an httpOnly, SameSite=Lax session cookie', async () => {
				const answer = await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: '123456' } })
				expect(answer.headers.get('set-cookie')).toMatch(/^ferry_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/)
			})
		})

		describe('the caller\'s own account', () => {
			test('reads the profile without the password or access token', async () => {
				const alice = await ferry.createUser('alice')
				const answer = await ferry.call('GET', '/api/user/self', { as: alice })
				expect(answer.body.data).toMatchObject({ id: alice.userId, username: 'alice', role: 1, quota: 0, used_quota: 0, request_count: 0 })
				expect(JSON.stringify(answer.body)).not.toContain('argon2')
				expect(answer.body.data).not.toHaveProperty('password')
			})

			test('updates the display name and username, refusing a taken username', async () => {
				const alice = await ferry.createUser('alice')
				await ferry.createUser('bob')
				const renamed = await ferry.call('PUT', '/api/user/self', { as: alice, body: { display_name: 'Alice A.', username: 'alice2' } })
				expect(renamed.body.data).toMatchObject({ display_name: 'Alice A.', username: 'alice2' })
				const taken = await ferry.call('PUT', '/api/user/self', { as: alice, body: { username: 'bob' } })
				expect(taken.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.usernameTaken) })
			})

			test('issues a system access token that authenticates scripts with the user header', async () => {
				const alice = await ferry.createUser('alice')
				const token = (await ferry.call('GET', '/api/user/token', { as: alice })).body.data as string
				expect(token).toMatch(/^[A-Za-z0-9]{32}$/)
				const viaToken = await ferry.call('GET', '/api/user/self', { as: { userId: alice.userId, accessToken: token } })
				expect(viaToken.body.data.username).toBe('alice')
				const bearer = await ferry.call('GET', '/api/user/self', { as: { userId: alice.userId, accessToken: `Bearer ${token}` } })
				expect(bearer.body.success).toBe(true)
				const withoutHeader = await ferry.call('GET', '/api/user/self', { headers: { authorization: token } })
				expect(withoutHeader.status).toBe(401)
			})

			test('keeps the access token only as a digest and a ciphertext', async () => {
				const alice = await ferry.createUser('alice')
				const token = (await ferry.call('GET', '/api/user/token', { as: alice })).body.data as string
				const { users } = ferry.store.tables
				const [stored] = await ferry.store.db.select().from(users).where(eq(users.id, alice.userId))
				expect(JSON.stringify(stored)).not.toContain(token)
				expect(ferry.dependencies.secrets.decrypt(stored!.accessTokenCipher!)).toBe(token)
			})

			test('replaces the old access token when a new one is generated', async () => {
				const alice = await ferry.createUser('alice')
				const first = (await ferry.call('GET', '/api/user/token', { as: alice })).body.data as string
				await ferry.call('GET', '/api/user/token', { as: alice })
				const old = await ferry.call('GET', '/api/user/self', { as: { userId: alice.userId, accessToken: first } })
				expect(old.status).toBe(401)
			})

			test('deletes the account when the typed name matches, and refuses otherwise', async () => {
				const alice = await ferry.createUser('alice')
				const mismatch = await ferry.call('DELETE', '/api/user/self', { as: alice, body: { username: 'not-alice' } })
				expect(mismatch.status).toBe(400)
				expect(mismatch.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.deleteConfirm) })
				const deleted = await ferry.call('DELETE', '/api/user/self', { as: alice, body: { username: 'alice' } })
				expect(deleted.body.success).toBe(true)
				expect((await ferry.call('GET', '/api/user/self', { as: alice })).status).toBe(401)
				const login = await ferry.call('POST', '/api/user/login', { body: { username: 'alice', password: 'password123' } })
				expect(login.body.success).toBe(false)
			})

			test('refuses to delete the account without the typed name, keeping it usable', async () => {
				const alice = await ferry.createUser('alice')
				for (const body of [undefined, {}, { username: '' }, { username: 'ALICE' }, { username: 7 }, '[]']) {
					const refused = await ferry.call('DELETE', '/api/user/self', { as: alice, body })
					expect(refused.status).toBe(400)
					expect(refused.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.deleteConfirm) })
				}
				expect((await ferry.call('GET', '/api/user/self', { as: alice })).body.data.username).toBe('alice')
				expect((await ferry.call('POST', '/api/user/login', { body: { username: 'alice', password: 'password123' } })).body.success).toBe(true)
			})

			test('does not let the super admin delete their own account', async () => {
				const root = await ferry.loginRoot()
				const answer = await ferry.call('DELETE', '/api/user/self', { as: root, body: { username: 'root' } })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.rootProtected) })
			})

			test('lists the groups the user may use with their ratios', async () => {
				const alice = await ferry.createUser('alice')
				const answer = await ferry.call('GET', '/api/user/self/groups', { as: alice })
				expect(answer.body.data.default).toEqual({ desc: 'default group', ratio: 1 })
			})

			test('lists a group\'s ratio as billing applies it to the user, special group-to-group ratios first', async () => {
				const alice = await ferry.createUser('alice')
				await ferry.dependencies.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 2 }))
				await ferry.dependencies.options.set('GroupGroupRatio', JSON.stringify({ default: { vip: 1.5 } }))
				const answer = await ferry.call('GET', '/api/user/self/groups', { as: alice })
				expect(answer.body.data.vip).toEqual({ desc: 'vip group', ratio: 1.5 })
			})

			test('lists the models enabled for the user\'s group', async () => {
				const alice = await ferry.createUser('alice')
				const { abilities } = ferry.store.tables
				await ferry.store.db.insert(abilities).values([
					{ group: 'default', model: 'gpt-4o', channelId: 1 },
					{ group: 'default', model: 'gpt-4o', channelId: 2 },
					{ group: 'default', model: 'claude-sonnet-4-20250514', channelId: 2, enabled: false },
					{ group: 'vip', model: 'o3', channelId: 3 },
				])
				const answer = await ferry.call('GET', '/api/user/models', { as: alice })
				expect(answer.body.data).toEqual(['gpt-4o'])
			})

			test('leaves out models without a price, which the relay would refuse, unless self-use mode serves them', async () => {
				const alice = await ferry.createUser('alice')
				const { abilities } = ferry.store.tables
				await ferry.store.db.insert(abilities).values([
					{ group: 'default', model: 'gpt-4o', channelId: 1 },
					{ group: 'default', model: 'house-model-without-price', channelId: 1 },
					{ group: 'default', model: 'constructor', channelId: 1 },
				])
				const models = async () => (await ferry.call('GET', '/api/user/models', { as: alice })).body.data
				expect(await models()).toEqual(['gpt-4o'])
				await ferry.dependencies.options.set('SelfUseModeEnabled', 'true')
				try {
					expect(await models()).toEqual(['constructor', 'gpt-4o', 'house-model-without-price'])
				} finally {
					await ferry.dependencies.options.set('SelfUseModeEnabled', 'false')
				}
			})
		})

		describe('one name asked for many times at once, over real HTTP', () => {
			const RACERS = 12
			let origin: string
			beforeEach(async () => {
				// Every racer comes from 127.0.0.1: past the sign-up limit per address they would be refused for that instead.
				await ferry.dependencies.options.set('RegisterAddressLimit', '0')
				ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
				origin = `http://127.0.0.1:${ferry.app.server!.port}`
			})
			afterEach(() => ferry.app.stop(true))

			async function send(method: string, path: string, body: unknown, as?: Caller) {
				const headers: Record<string, string> = { 'content-type': 'application/json' }
				if (as) Object.assign(headers, { cookie: as.cookie!, 'new-api-user': String(as.userId) })
				const response = await fetch(`${origin}${path}`, { method, headers, body: JSON.stringify(body) })
				return { status: response.status, body: await response.json() as { success: boolean; message: string } }
			}

			/** Exactly one success; every other answer the taken-name refusal, never a server error. */
			function expectOneWinner(answers: { status: number; body: { success: boolean; message: string } }[]) {
				expect(answers.filter((answer) => answer.status >= 500)).toEqual([])
				expect(answers.filter((answer) => answer.body.success)).toHaveLength(1)
				const refusals = answers.filter((answer) => !answer.body.success)
				expect(refusals.map((answer) => answer.body)).toEqual(Array(RACERS - 1).fill({ success: false, message: inEnglish(USER_MESSAGES.usernameTaken) }))
			}

			/** Signing up and in as the user; `createUser` signs root in each time, which the login limit counts. */
			async function registered(username: string) {
				await register({ username, password: 'password123' })
				return ferry.login(username, 'password123')
			}

			const accountsNamed = async (username: string) => {
				const { users } = ferry.store.tables
				return (await ferry.store.db.select({ id: users.id }).from(users).where(eq(users.username, username))).length
			}

			test('twelve registrations of one name: exactly one succeeds and eleven are refused as taken', async () => {
				const answers = await Promise.all(Array.from({ length: RACERS }, (_, index) =>
					send('POST', '/api/user/register', { username: 'racer', password: `password-${index}` })))
				expectOneWinner(answers)
				expect(await accountsNamed('racer')).toBe(1)
			})

			test('twelve admin creations of one name: exactly one succeeds and eleven are refused as taken', async () => {
				const root = await ferry.loginRoot()
				const answers = await Promise.all(Array.from({ length: RACERS }, (_, index) =>
					send('POST', '/api/user/', { username: 'created', password: `password-${index}`, display_name: 'created' }, root)))
				expectOneWinner(answers)
				expect(await accountsNamed('created')).toBe(1)
			})

			test('twelve users renaming themselves to one name: exactly one succeeds and eleven are refused as taken', async () => {
				const racers: Caller[] = []
				for (let index = 0; index < RACERS; index++) racers.push(await registered(`user${index}`))
				const answers = await Promise.all(racers.map((racer) => send('PUT', '/api/user/self', { username: 'renamed' }, racer)))
				expectOneWinner(answers)
				expect(await accountsNamed('renamed')).toBe(1)
			})

			test('twelve admin renames of different users to one name: exactly one succeeds and eleven are refused as taken', async () => {
				const root = await ferry.loginRoot()
				const ids: number[] = []
				for (let index = 0; index < RACERS; index++) ids.push((await registered(`user${index}`)).userId)
				const answers = await Promise.all(ids.map((id) => send('PUT', '/api/user/', { id, username: 'renamed' }, root)))
				expectOneWinner(answers)
				expect(await accountsNamed('renamed')).toBe(1)
			})
		})

		describe('invitation income transfer', () => {
			test('moves income to the balance exactly once and logs the credit', async () => {
				const alice = await ferry.createUser('alice')
				const { users, logs } = ferry.store.tables
				await ferry.store.db.update(users).set({ affQuota: 600_000 }).where(eq(users.id, alice.userId))
				const transfers = await Promise.all([1, 2, 3].map(() => ferry.call('POST', '/api/user/aff_transfer', { as: alice, body: { quota: 500_000 } })))
				expect(transfers.filter((answer) => answer.body.success)).toHaveLength(1)
				expect(transfers.filter((answer) => !answer.body.success).map((answer) => answer.body.message)).toEqual([inEnglish(USER_MESSAGES.transferInsufficient), inEnglish(USER_MESSAGES.transferInsufficient)])
				const self = (await ferry.call('GET', '/api/user/self', { as: alice })).body.data
				expect(self).toMatchObject({ quota: 500_000, aff_quota: 100_000 })
				const credits = await ferry.store.db.select().from(logs).where(eq(logs.userId, alice.userId))
				expect(credits.map((log) => log.quota)).toEqual([500_000])
			})

			test('refuses less than one quota unit with the catalogue message', async () => {
				const alice = await ferry.createUser('alice')
				const answer = await ferry.call('POST', '/api/user/aff_transfer', { as: alice, body: { quota: 1000 } })
				expect(answer.body).toEqual({ success: false, message: 'transfer amount minimum is 500000' })
			})
		})
	})
}
