import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { ROLE, USER_MESSAGES } from '@shared/user'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish } from '@shared/messages'

for (const target of databaseTargets()) {
	describe(`user administration on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
		})
		afterEach(() => ferry.close())

		const manage = (as: Caller, id: number, action: string) => ferry.call('POST', '/api/user/manage', { as, body: { id, action } })

		describe('listing and searching', () => {
			test('pages users newest first in the documented shape', async () => {
				for (const name of ['u1', 'u2', 'u3']) await ferry.call('POST', '/api/user/', { as: root, body: { username: name, password: 'password123' } })
				const answer = await ferry.call('GET', '/api/user/?p=1&page_size=2', { as: root })
				expect(answer.body.data).toMatchObject({ page: 1, page_size: 2, total: 4 })
				expect(answer.body.data.items.map((user: { username: string }) => user.username)).toEqual(['u3', 'u2'])
				const second = await ferry.call('GET', '/api/user/?p=2&size=2', { as: root })
				expect(second.body.data.items.map((user: { username: string }) => user.username)).toEqual(['u1', 'root'])
				const first = await ferry.call('GET', '/api/user/?p=0', { as: root })
				expect(first.body.data).toMatchObject({ page: 1, page_size: 10 })
			})

			test('caps the page size at one hundred', async () => {
				const answer = await ferry.call('GET', '/api/user/?page_size=1000', { as: root })
				expect(answer.body.data.page_size).toBe(100)
			})

			test('searches by id, part of the username, display name or email, and by group', async () => {
				await ferry.call('POST', '/api/user/', { as: root, body: { username: 'carol', password: 'password123', display_name: 'Caroline' } })
				const byName = await ferry.call('GET', '/api/user/search?keyword=CARO', { as: root })
				expect(byName.body.data.items.map((user: { username: string }) => user.username)).toEqual(['carol'])
				const byId = await ferry.call('GET', '/api/user/search?keyword=1', { as: root })
				expect(byId.body.data.items.map((user: { username: string }) => user.username)).toEqual(['root'])
				const byGroup = await ferry.call('GET', '/api/user/search?keyword=&group=vip', { as: root })
				expect(byGroup.body.data).toMatchObject({ items: [], total: 0 })
			})
		})

		describe('role rules', () => {
			test('an admin cannot read, change, disable or delete another admin', async () => {
				const admin = await ferry.createUser('admin1', ROLE.admin)
				const other = await ferry.createUser('admin2', ROLE.admin)
				const refusals = [
					await ferry.call('GET', `/api/user/${other.userId}`, { as: admin }),
					await ferry.call('PUT', '/api/user/', { as: admin, body: { id: other.userId, display_name: 'x' } }),
					await manage(admin, other.userId, 'disable'),
					await manage(admin, other.userId, 'delete'),
					await ferry.call('DELETE', `/api/user/${other.userId}`, { as: admin }),
				]
				for (const answer of refusals) expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.equalOrHigherRole) })
			})

			test('an admin cannot act on the super admin', async () => {
				const admin = await ferry.createUser('admin1', ROLE.admin)
				const answer = await manage(admin, root.userId, 'disable')
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.equalOrHigherRole) })
			})

			test('an admin cannot promote to admin', async () => {
				const admin = await ferry.createUser('admin1', ROLE.admin)
				const user = await ferry.createUser('plain')
				const answer = await manage(admin, user.userId, 'promote')
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.adminCannotPromote) })
			})

			test('an admin cannot create a user of equal or higher role', async () => {
				const admin = await ferry.createUser('admin1', ROLE.admin)
				const answer = await ferry.call('POST', '/api/user/', { as: admin, body: { username: 'boss', password: 'password123', role: ROLE.admin } })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.createEqualOrHigherRole) })
			})

			test('the super admin cannot be disabled, deleted or demoted, even by the super admin', async () => {
				for (const action of ['disable', 'delete', 'demote']) {
					const answer = await manage(root, root.userId, action)
					expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.rootProtected) })
				}
				expect((await ferry.call('GET', '/api/user/self', { as: root })).body.data).toMatchObject({ role: 100, status: 1, deleted_at: null })
			})

			test('an admin manages ordinary users: disable, enable and delete', async () => {
				const admin = await ferry.createUser('admin1', ROLE.admin)
				const user = await ferry.createUser('plain')
				expect((await manage(admin, user.userId, 'disable')).body).toEqual({ success: true, message: '', data: { status: 2, role: 1 } })
				expect((await manage(admin, user.userId, 'enable')).body.data).toEqual({ status: 1, role: 1 })
				expect((await manage(admin, user.userId, 'delete')).body.success).toBe(true)
				const listed = await ferry.call('GET', '/api/user/', { as: admin })
				const deleted = listed.body.data.items.find((item: { id: number }) => item.id === user.userId)
				expect(deleted.deleted_at).toBeGreaterThan(0)
				expect((await manage(admin, user.userId, 'enable')).body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.userNotFound) })
			})

			test('the super admin promotes a user to admin and demotes them back', async () => {
				const user = await ferry.createUser('plain')
				expect((await manage(root, user.userId, 'promote')).body.data).toEqual({ status: 1, role: 10 })
				expect((await manage(root, user.userId, 'promote')).body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.alreadyAdmin) })
				expect((await manage(root, user.userId, 'demote')).body.data).toEqual({ status: 1, role: 1 })
				expect((await manage(root, user.userId, 'demote')).body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.alreadyUser) })
			})

			test('enabling a blocked user (status 3) is refused', async () => {
				const user = await ferry.createUser('plain')
				const { users } = ferry.store.tables
				await ferry.store.db.update(users).set({ status: 3 }).where(eq(users.id, user.userId))
				expect((await manage(root, user.userId, 'enable')).body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.enableBlocked) })
			})

			test('an unknown action is a 400', async () => {
				const user = await ferry.createUser('plain')
				const answer = await manage(root, user.userId, 'explode')
				expect(answer.status).toBe(400)
			})
		})

		describe('editing a user', () => {
			test('changes the quota through a logged admin credit of the difference', async () => {
				const user = await ferry.createUser('plain')
				const raised = await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, quota: 750_000, group: 'vip', display_name: 'Plain' } })
				expect(raised.body.data).toMatchObject({ quota: 750_000, group: 'vip', display_name: 'Plain' })
				const lowered = await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, quota: 250_000 } })
				expect(lowered.body.data.quota).toBe(250_000)
				const { logs } = ferry.store.tables
				const entries = await ferry.store.db.select().from(logs).where(eq(logs.userId, user.userId))
				expect(entries.map((entry) => [entry.type, entry.quota])).toEqual([[LOG_TYPE.manage, 750_000], [LOG_TYPE.manage, -500_000]])
			})

			test('twenty quota edits of one user at once each leave the balance they set, never a 500, and the log names what each replaced', async () => {
				const user = await ferry.createUser('contested')
				// Lowering to zero among raises: an edit that read a stale balance would debit more than is there.
				const wanted = Array.from({ length: 20 }, (_, index) => (index % 4 === 0 ? 0 : 100_000 * (index + 1)))
				const answers = await Promise.all(wanted.map((quota) => ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, quota } })))
				expect(answers.map((answer) => answer.status)).toEqual(wanted.map(() => 200))
				expect(answers.map((answer) => answer.body.data?.quota)).toEqual(wanted)
				const { logs, users } = ferry.store.tables
				const lines = await ferry.store.db.select().from(logs).where(eq(logs.userId, user.userId)).orderBy(logs.id)
				// Each edit's credit is the difference from the balance the edit before it left.
				let balance = 0
				for (const line of lines.filter((entry) => entry.type === LOG_TYPE.manage)) {
					const { from, to } = JSON.parse(line.other).admin_action
					expect(from).toBe(balance)
					expect(line.quota).toBe(to - from)
					balance = to
				}
				const [row] = await ferry.store.db.select({ quota: users.quota }).from(users).where(eq(users.id, user.userId))
				expect(row!.quota).toBe(balance)
			})

			test('tells the token caches when the name or group changes, and not for a quota, display name or password edit', async () => {
				const user = await ferry.createUser('cached')
				let notified = 0
				ferry.dependencies.changes.subscribe('users', () => notified++)
				const edit = (body: Record<string, unknown>) => ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, ...body } })
				expect((await edit({ quota: 900_000, display_name: 'Cached', password: 'a-new-password' })).body.success).toBe(true)
				// The console sends the whole form: an unchanged name and group are no change.
				expect((await edit({ username: 'cached', group: 'default', quota: 800_000 })).body.success).toBe(true)
				expect(notified).toBe(0)
				expect((await edit({ group: 'vip' })).body.success).toBe(true)
				expect(notified).toBe(1)
				expect((await edit({ username: 'renamed' })).body.success).toBe(true)
				expect(notified).toBe(2)
			})

			test('refuses a negative quota and a too-short password with 400', async () => {
				const user = await ferry.createUser('plain')
				const negative = await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, quota: -1 } })
				expect(negative.status).toBe(400)
				expect(negative.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.quotaNegative) })
				const short = await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, password: 'short' } })
				expect(short.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.passwordTooShort) })
			})

			test('creating a user with an empty name or password answers the catalogue message', async () => {
				const answer = await ferry.call('POST', '/api/user/', { as: root, body: { username: '', password: '' } })
				expect(answer.body).toEqual({ success: false, message: inEnglish(USER_MESSAGES.registerRequired) })
			})
		})

		describe('sessions end when the account changes', () => {
			test('a banned user loses every existing session and cannot sign in', async () => {
				const user = await ferry.createUser('plain')
				const otherTab = await ferry.login('plain', 'password123')
				await manage(root, user.userId, 'disable')
				expect((await ferry.call('GET', '/api/user/self', { as: user })).status).toBe(401)
				expect((await ferry.call('GET', '/api/user/self', { as: otherTab })).status).toBe(401)
				await manage(root, user.userId, 'enable')
				expect((await ferry.call('GET', '/api/user/self', { as: user })).status).toBe(401)
				expect((await ferry.login('plain', 'password123')).userId).toBe(user.userId)
			})

			test('a password change by an admin ends the user\'s sessions', async () => {
				const user = await ferry.createUser('plain')
				await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, password: 'brand-new-pass' } })
				expect((await ferry.call('GET', '/api/user/self', { as: user })).status).toBe(401)
				expect((await ferry.call('POST', '/api/user/login', { body: { username: 'plain', password: 'brand-new-pass' } })).body.success).toBe(true)
			})

			test('a password change by the user ends other sessions but keeps the current one', async () => {
				const user = await ferry.createUser('plain')
				const otherTab = await ferry.login('plain', 'password123')
				const changed = await ferry.call('PUT', '/api/user/self', { as: user, body: { password: 'brand-new-pass' } })
				const renewed = { userId: user.userId, cookie: changed.headers.get('set-cookie')!.split(';')[0]! }
				expect((await ferry.call('GET', '/api/user/self', { as: otherTab })).status).toBe(401)
				expect((await ferry.call('GET', '/api/user/self', { as: user })).status).toBe(401)
				expect((await ferry.call('GET', '/api/user/self', { as: renewed })).status).toBe(200)
			})

			test('a role change ends the user\'s sessions', async () => {
				const user = await ferry.createUser('plain')
				await manage(root, user.userId, 'promote')
				expect((await ferry.call('GET', '/api/user/self', { as: user })).status).toBe(401)
				const again = await ferry.login('plain', 'password123')
				expect((await ferry.call('GET', '/api/user/', { as: again })).body.success).toBe(true)
			})

			test('logout ends the session', async () => {
				const user = await ferry.createUser('plain')
				const logout = await ferry.call('GET', '/api/user/logout', { as: user })
				expect(logout.body.success).toBe(true)
				expect(logout.headers.get('set-cookie')).toContain('Max-Age=0')
				expect((await ferry.call('GET', '/api/user/self', { as: user })).status).toBe(401)
			})

			test('a forged or tampered session cookie is refused', async () => {
				const user = await ferry.createUser('plain')
				const [name, value] = user.cookie!.split('=') as [string, string]
				const [header, payload, signature] = value.split('.')
				const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: root.userId })).toString('base64url')
				const forged = { userId: root.userId, cookie: `${name}=${header}.${forgedPayload}.${signature}` }
				expect((await ferry.call('GET', '/api/user/self', { as: forged })).status).toBe(401)
			})

			test('a session used with another user\'s id in New-Api-User is refused', async () => {
				const user = await ferry.createUser('plain')
				const answer = await ferry.call('GET', '/api/user/self', { as: user, headers: { 'new-api-user': String(root.userId) } })
				expect(answer.status).toBe(401)
			})
		})
	})
}
