/**
 * The admin audit trail (issue 17): every change an admin or the super admin makes leaves a log
 * line of type 3 naming who, what and the target, listed by `/api/log/?type=3`, and no line ever
 * carries a secret's value.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { ROLE } from '@shared/user'
import { auditLedger } from '@/billing/audit'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const allowAll = { hit: () => true }
const CHANNEL_KEY = 'sk-upstream-secret-key-0123456789'
const NEW_CHANNEL_KEY = 'sk-rotated-secret-key-9876543210'
const SMTP_TOKEN = 'smtp-password-never-logged'
const USER_PASSWORD = 'carol-secret-pass'

type AdminLine = { userId: number; username: string; type: number; quota: number; content: string; other: string }

for (const target of databaseTargets()) {
	describe(`the admin audit trail on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		let admin: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target, { rateLimiter: allowAll })
			root = await ferry.loginRoot()
			admin = await ferry.createUser('ops', ROLE.admin)
		})
		afterEach(() => ferry.close())

		async function adminLines(): Promise<AdminLine[]> {
			const { logs } = ferry.store.tables
			return ferry.store.db.select({ userId: logs.userId, username: logs.username, type: logs.type, quota: logs.quota, content: logs.content, other: logs.other })
				.from(logs).where(eq(logs.type, LOG_TYPE.manage)).orderBy(desc(logs.id))
		}
		const actionOf = (line: AdminLine) => JSON.parse(line.other).admin_action as Record<string, unknown>
		async function newestAction() {
			const [line] = await adminLines()
			return { line: line!, action: actionOf(line!) }
		}
		async function succeed(method: string, path: string, body?: unknown, as: Caller = admin) {
			const answer = await ferry.call(method, path, { as, body })
			if (!answer.body.success) throw new Error(`${method} ${path} failed: ${answer.body.message}`)
			return answer.body.data
		}

		test('creating a channel leaves a type-3 line naming the admin, the action and the channel, without its key', async () => {
			const [created] = await succeed('POST', '/api/channel/', { type: 1, name: 'openai-main', key: CHANNEL_KEY, models: 'gpt-4o', group: 'default' })
			const { line, action } = await newestAction()
			expect(line).toMatchObject({ userId: admin.userId, username: 'ops', type: LOG_TYPE.manage, quota: 0 })
			expect(line.content).toBe(`admin ops created channel #${created.id} "openai-main"`)
			expect(action).toMatchObject({ action: 'channel.create', target: `#${created.id} "openai-main"`, count: 1, type: 1 })
			expect(JSON.stringify(line)).not.toContain(CHANNEL_KEY)
		})

		test('editing an option leaves a line with its key and value; a secret option\'s value is never logged', async () => {
			await succeed('PUT', '/api/option/', { key: 'SystemName', value: 'Harbour Gateway' }, root)
			expect(await newestAction()).toMatchObject({
				line: { userId: root.userId, username: 'root', content: 'super admin root set the option SystemName to "Harbour Gateway"' },
				action: { action: 'option.update', target: 'SystemName', key: 'SystemName', value: 'Harbour Gateway' },
			})
			await succeed('PUT', '/api/option/', { key: 'SMTPToken', value: SMTP_TOKEN }, root)
			const { line, action } = await newestAction()
			expect(action).toEqual({ action: 'option.update', target: 'SMTPToken', key: 'SMTPToken', secret: true })
			expect(JSON.stringify(line)).not.toContain(SMTP_TOKEN)
		})

		test('changing a user\'s quota leaves one type-3 line with the amount, naming the admin, and the ledger audit stays exact', async () => {
			const bob = await ferry.createUser('bob')
			await succeed('PUT', '/api/user/', { id: bob.userId, username: 'bob', display_name: 'bob', quota: 7_000 })
			const { line, action } = await newestAction()
			expect(line).toMatchObject({ userId: bob.userId, username: 'bob', quota: 7_000, content: 'administrator ops changed the quota from 0 to 7000' })
			expect(action).toEqual({ action: 'user.quota', target: `#${bob.userId} "bob"`, from: 0, to: 7_000, admin: 'ops', admin_id: admin.userId })
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('every listed change of channels, users, options, codes and logs leaves its line, listed by the log page\'s type filter', async () => {
			// beforeEach made the admin: root created and promoted it.
			const expected: string[] = ['user.create', 'user.promote']
			const expectAction = async (action: string, target: string | RegExp) => {
				const found = await newestAction()
				expect(found.action.action).toBe(action)
				expect(found.action.target).toMatch(target)
				expected.push(action)
			}
			// Channels: create, edit, status, tags, fix, delete.
			const [first, second] = await succeed('POST', '/api/channel/', { type: 1, name: 'pool', key: `${CHANNEL_KEY}\n${NEW_CHANNEL_KEY}`, mode: 'batch', models: 'gpt-4o', group: 'default' })
			await expectAction('channel.create', `#${first.id} "pool", #${second.id} "pool-2"`)
			await succeed('PUT', '/api/channel/', { id: first.id, type: 1, name: 'pool-main', key: NEW_CHANNEL_KEY, priority: 3 })
			await expectAction('channel.update', `#${first.id} "pool-main"`)
			expect((await newestAction()).action.fields).toBe('name,priority,key')
			await succeed('PUT', '/api/channel/', { id: first.id, type: 1, status: 2 })
			expect((await newestAction()).action).toMatchObject({ action: 'channel.update', fields: 'status', status: 2 })
			expected.push('channel.update')
			await succeed('POST', '/api/channel/batch/tag', { ids: [first.id, second.id], tag: 'team' })
			await expectAction('channel.tag_set', /^#\d+ "pool-main", #\d+ "pool-2"$/)
			await succeed('PUT', '/api/channel/tag', { tag: 'team', priority: 7 })
			await expectAction('channel.tag_edit', '"team"')
			await succeed('POST', '/api/channel/tag/disabled', { tag: 'team' })
			await expectAction('channel.tag_disable', '"team"')
			await succeed('POST', '/api/channel/tag/enabled', { tag: 'team' })
			await expectAction('channel.tag_enable', '"team"')
			await succeed('POST', '/api/channel/fix')
			await expectAction('channel.fix', /^$/)
			await succeed('DELETE', `/api/channel/${second.id}`)
			await expectAction('channel.delete', `#${second.id} "pool-2"`)
			await succeed('POST', '/api/channel/tag/disabled', { tag: 'team' })
			expected.push('channel.tag_disable')
			await succeed('DELETE', '/api/channel/disabled')
			await expectAction('channel.delete_disabled', `#${first.id} "pool-main"`)
			const [third] = await succeed('POST', '/api/channel/', { type: 1, name: 'spare', key: CHANNEL_KEY, models: 'gpt-4o', group: 'default' })
			expected.push('channel.create')
			await succeed('POST', '/api/channel/batch', { ids: [third.id] })
			await expectAction('channel.delete_batch', `#${third.id} "spare"`)

			// Users: create, edit, quota, role, status, delete.
			const carol = await succeed('POST', '/api/user/', { username: 'carol', password: USER_PASSWORD, display_name: 'Carol' }, root)
			await expectAction('user.create', `#${carol.id} "carol"`)
			await succeed('PUT', '/api/user/', { id: carol.id, username: 'carol', display_name: 'Caroline', password: `${USER_PASSWORD}-2` }, root)
			await expectAction('user.update', `#${carol.id} "carol"`)
			expect((await newestAction()).action.fields).toBe('display_name,password')
			await succeed('PUT', '/api/user/', { id: carol.id, username: 'carol', display_name: 'Caroline', quota: 100 }, root)
			await expectAction('user.quota', `#${carol.id} "carol"`)
			for (const action of ['promote', 'demote', 'disable', 'enable'] as const) {
				await succeed('POST', '/api/user/manage', { id: carol.id, action }, root)
				await expectAction(`user.${action}`, `#${carol.id} "carol"`)
			}
			await ferry.store.db.update(ferry.store.tables.users).set({ githubId: '5832' }).where(eq(ferry.store.tables.users.id, carol.id))
			await succeed('DELETE', `/api/user/${carol.id}/bind/github`, undefined, root)
			await expectAction('user.unbind', `#${carol.id} "carol"`)
			expect((await newestAction()).action.provider).toBe('GitHub')
			await succeed('DELETE', `/api/user/${carol.id}`, undefined, root)
			await expectAction('user.delete', `#${carol.id} "carol"`)

			// Options.
			await succeed('PUT', '/api/option/', { key: 'RetryTimes', value: '2' }, root)
			await expectAction('option.update', 'RetryTimes')
			await succeed('POST', '/api/option/rest_model_ratio', undefined, root)
			await expectAction('option.reset_model_ratio', 'ModelRatio')

			// Redemption codes: create, edit, status, delete; the codes themselves are never logged.
			const keys: string[] = await succeed('POST', '/api/redemption/', { name: 'gift', quota: 5_000, count: 2 })
			await expectAction('redemption.create', /^#\d+ "gift", #\d+ "gift"$/)
			const { redemptions } = ferry.store.tables
			const [code] = await ferry.store.db.select({ id: redemptions.id }).from(redemptions).where(eq(redemptions.key, keys[0]!))
			await succeed('PUT', '/api/redemption/', { id: code!.id, name: 'bonus', quota: 6_000 })
			await expectAction('redemption.update', `#${code!.id} "gift"`)
			await succeed('PUT', '/api/redemption/?status_only=true', { id: code!.id, status: 2 })
			await expectAction('redemption.status', `#${code!.id} "bonus"`)
			await succeed('DELETE', `/api/redemption/${code!.id}`)
			await expectAction('redemption.delete', `#${code!.id} "bonus"`)

			// Log cleanup.
			await succeed('DELETE', '/api/log/?target_timestamp=1000')
			await expectAction('log.cleanup', /^$/)

			// The log page lists them with its type filter, newest first, and none carries a secret.
			const listed = await succeed('GET', `/api/log/?type=${LOG_TYPE.manage}&page_size=100`, undefined, root)
			const actions = listed.items.map((item: { other: { admin_action?: { action: string } } }) => item.other.admin_action?.action).filter(Boolean)
			expect(actions).toEqual([...expected].reverse())
			expect(listed.items.every((item: { type: number }) => item.type === LOG_TYPE.manage)).toBe(true)
			const everything = JSON.stringify(await adminLines())
			for (const secret of [CHANNEL_KEY, NEW_CHANNEL_KEY, USER_PASSWORD, ...keys]) expect(everything).not.toContain(secret)
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('a refused change leaves no line', async () => {
			const before = (await adminLines()).length
			const answer = await ferry.call('POST', '/api/user/manage', { as: admin, body: { id: root.userId, action: 'disable' } })
			expect(answer.body.success).toBe(false)
			expect(await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: 'many' } })).toMatchObject({ body: { success: false } })
			expect((await adminLines()).length).toBe(before)
		})
	})
}
