import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { TOKEN_MESSAGES, TOKEN_STATUS } from '@shared/token'
import { tokenKeyDigest } from '@/auth/token-keys'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { exemptFromLedgerAudit } from '../helpers/ledger-audit'
import { inEnglish, renderMessage, withValues } from '@shared/messages'
import { PLAN_MESSAGES } from '@shared/plan'

const KEY_SHAPE = /^sk-[A-Za-z0-9]{48}$/

for (const target of databaseTargets()) {
	describe(`API tokens on ${target.dialect}`, () => {
		let ferry: TestApp
		let alice: Caller
		let bob: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target)
			alice = await ferry.createUser('alice')
			bob = await ferry.createUser('bob')
		})
		afterEach(() => ferry.close())

		const create = (as: Caller, body: Record<string, unknown>) => ferry.call('POST', '/api/token/', { as, body })
		async function createOne(as: Caller, body: Record<string, unknown> = {}) {
			const answer = await create(as, { name: 'main', ...body })
			if (!answer.body.success) throw new Error(`creating a token failed: ${answer.body.message}`)
			return answer.body.data[0]
		}
		const update = (as: Caller, body: Record<string, unknown>) => ferry.call('PUT', '/api/token/', { as, body })
		const setStatus = (as: Caller, id: number, status: number) => ferry.call('PUT', '/api/token/?status_only=true', { as, body: { id, status } })
		async function storedToken(id: number) {
			const { tokens } = ferry.store.tables
			const [row] = await ferry.store.db.select().from(tokens).where(eq(tokens.id, id))
			return row!
		}
		async function changeStored(id: number, changes: Partial<Awaited<ReturnType<typeof storedToken>>>) {
			const { tokens } = ferry.store.tables
			await ferry.store.db.update(tokens).set(changes).where(eq(tokens.id, id))
		}

		describe('creation', () => {
			test('creates an enabled, never-expiring token with the default quota and shows its key with sk-', async () => {
				const answer = await create(alice, { name: 'main' })
				expect(answer.body.success).toBe(true)
				expect(answer.body.data).toHaveLength(1)
				expect(answer.body.data[0]).toMatchObject({
					name: 'main', status: TOKEN_STATUS.enabled, remain_quota: 500_000, used_quota: 0, unlimited_quota: false,
					expired_time: -1, model_limits_enabled: false, model_limits: '', allow_ips: '', group: '', concurrency_limit: 0,
				})
				expect(answer.body.data[0].key).toMatch(KEY_SHAPE)
			})

			test('keeps a concurrency limit set at creation and changed by an edit', async () => {
				const [token] = (await create(alice, { name: 'agents', concurrency_limit: 4 })).body.data
				expect(token.concurrency_limit).toBe(4)
				const edited = await ferry.call('PUT', '/api/token/', { as: alice, body: { id: token.id, concurrency_limit: 0 } })
				expect(edited.body.data.concurrency_limit).toBe(0)
			})

			test('stores the key only as its lookup digest and an encrypted copy', async () => {
				const token = await createOne(alice)
				const bare = token.key.slice('sk-'.length)
				const row = await storedToken(token.id)
				const { secrets } = ferry.dependencies
				expect(row.keyHash).toBe(secrets.digest(bare))
				expect(tokenKeyDigest(secrets, token.key)).toBe(row.keyHash)
				expect(tokenKeyDigest(secrets, `${token.key}-7`)).toBe(row.keyHash)
				expect(secrets.decrypt(row.keyCipher)).toBe(bare)
				expect(JSON.stringify(row)).not.toContain(bare)
			})

			test('creates a batch: the first token keeps the name, the others get a dash and six random letters or digits', async () => {
				const answer = await create(alice, { name: 'batch', count: 5, remain_quota: 1000 })
				const tokens = answer.body.data as { name: string; key: string; remain_quota: number }[]
				expect(tokens).toHaveLength(5)
				expect(tokens[0]!.name).toBe('batch')
				for (const token of tokens.slice(1)) expect(token.name).toMatch(/^batch-[A-Za-z0-9]{6}$/)
				expect(new Set(tokens.map((token) => token.key)).size).toBe(5)
				expect(tokens.every((token) => token.remain_quota === 1000)).toBe(true)
				expect((await ferry.call('GET', '/api/token/', { as: alice })).body.data.total).toBe(5)
			})

			test.each([
				[{}, inEnglish(TOKEN_MESSAGES.nameRequired)],
				[{ name: '   ' }, inEnglish(TOKEN_MESSAGES.nameRequired)],
				[{ name: 'x'.repeat(51) }, inEnglish(TOKEN_MESSAGES.nameTooLong)],
				[{ name: 'x'.repeat(44), count: 2 }, inEnglish(TOKEN_MESSAGES.batchNameTooLong)],
				[{ name: 'main', remain_quota: -1 }, inEnglish(TOKEN_MESSAGES.quotaNegative)],
				[{ name: 'main', remain_quota: 1.5 }, inEnglish(TOKEN_MESSAGES.quotaNotInteger)],
				[{ name: 'main', expired_time: '2030-01-01' }, inEnglish(TOKEN_MESSAGES.expiryFormat)],
				[{ name: 'main', expired_time: -5 }, inEnglish(TOKEN_MESSAGES.expiryFormat)],
				[{ name: 'main', allow_ips: '10.0.0.1\n10.0.0.0/33' }, inEnglish(withValues(TOKEN_MESSAGES.allowIpInvalid, { line: '10.0.0.0/33' }))],
				[{ name: 'main', allow_ips: 'localhost' }, inEnglish(withValues(TOKEN_MESSAGES.allowIpInvalid, { line: 'localhost' }))],
				[{ name: 'main', count: 0 }, inEnglish(TOKEN_MESSAGES.countInvalid)],
				[{ name: 'main', concurrency_limit: -1 }, inEnglish(TOKEN_MESSAGES.concurrencyLimitInvalid)],
				[{ name: 'main', concurrency_limit: 2.5 }, inEnglish(TOKEN_MESSAGES.concurrencyLimitInvalid)],
				[{ name: 'main', concurrency_limit: 100_001 }, inEnglish(TOKEN_MESSAGES.concurrencyLimitInvalid)],
				[{ name: 'main', count: 101 }, inEnglish(TOKEN_MESSAGES.countTooLarge)],
			])('refuses %j with a clear message and creates nothing', async (body, message) => {
				const answer = await create(alice, body)
				expect(answer.status).toBe(400)
				expect(answer.body).toEqual({ success: false, message })
				expect((await ferry.call('GET', '/api/token/', { as: alice })).body.data.total).toBe(0)
			})

			test('refuses an expiry in the past', async () => {
				const answer = await create(alice, { name: 'main', expired_time: nowSeconds() - 10 })
				expect(answer.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.expiryPast) })
			})

			test('accepts IPv4, IPv6 and CIDR lines, kept trimmed one per line, and tidies the model list', async () => {
				const token = await createOne(alice, {
					allow_ips: ' 10.0.0.1 \n\n192.168.0.0/16\r\n::1\n2001:db8::/32\n',
					model_limits_enabled: true,
					model_limits: ' gpt-4o, gpt-4o ,,claude-sonnet-4 ',
				})
				expect(token.allow_ips).toBe('10.0.0.1\n192.168.0.0/16\n::1\n2001:db8::/32')
				expect(token.model_limits).toBe('gpt-4o,claude-sonnet-4')
				expect(token.model_limits_enabled).toBe(true)
			})

			test('keeps spend windows set at creation, each shown with no period begun, and replaces them on edit', async () => {
				const windows = [{ seconds: 86_400, quota: 3_000 }, { seconds: 604_800, quota: 10_000 }]
				const [token] = (await create(alice, { name: 'capped', quota_windows: windows })).body.data
				expect(token.quota_windows).toEqual(windows.map((window) => ({ ...window, used: 0, held: 0, remaining: window.quota, resets_at: null })))
				expect(JSON.parse((await storedToken(token.id)).quotaWindows)).toEqual(windows)
				expect((await ferry.call('GET', '/api/token/', { as: alice })).body.data.items[0].quota_windows).toHaveLength(2)
				const edited = await update(alice, { id: token.id, quota_windows: [{ seconds: 18_000, quota: 500 }] })
				expect(edited.body.data.quota_windows).toEqual([{ seconds: 18_000, quota: 500, used: 0, held: 0, remaining: 500, resets_at: null }])
				expect((await update(alice, { id: token.id, name: 'renamed' })).body.data.quota_windows).toHaveLength(1)
				expect((await createOne(alice)).quota_windows).toEqual([])
			})

			test.each([
				[[{ seconds: 59, quota: 1 }], PLAN_MESSAGES.windowSeconds],
				[[{ seconds: 367 * 86_400, quota: 1 }], PLAN_MESSAGES.windowSeconds],
				[[{ seconds: 86_400, quota: 0 }], PLAN_MESSAGES.windowQuota],
				[[{ seconds: 86_400, quota: 1.5 }], PLAN_MESSAGES.windowQuota],
				[[{ seconds: 86_400, quota: 1e18 }], PLAN_MESSAGES.windowQuota],
				[[{ seconds: 86_400, quota: 1 }, { seconds: 86_400, quota: 2 }], TOKEN_MESSAGES.quotaWindowRepeated],
				[[3600, 7200, 10_800, 14_400, 18_000].map((seconds) => ({ seconds, quota: 1 })), TOKEN_MESSAGES.quotaWindowCount],
				['daily', TOKEN_MESSAGES.quotaWindowCount],
			])('refuses the spend windows %j with a clear message, in the caller\'s language, on creation and edit', async (quotaWindows, message) => {
				const answer = await ferry.call('POST', '/api/token/', { as: alice, body: { name: 'main', quota_windows: quotaWindows }, headers: { 'accept-language': 'zh' } })
				expect(answer.status).toBe(400)
				expect(answer.body).toEqual({ success: false, message: renderMessage('zh', message) })
				expect((await ferry.call('GET', '/api/token/', { as: alice })).body.data.total).toBe(0)
				const token = await createOne(alice)
				const edit = await update(alice, { id: token.id, quota_windows: quotaWindows })
				expect(edit.status).toBe(400)
				expect(edit.body.message).toBe(inEnglish(message))
				expect((await storedToken(token.id)).quotaWindows).toBe('[]')
			})

			test('a token with no quota and no unlimited flag starts exhausted', async () => {
				const token = await createOne(alice, { remain_quota: 0 })
				expect(token.status).toBe(TOKEN_STATUS.exhausted)
				expect((await createOne(alice, { remain_quota: 0, unlimited_quota: true })).status).toBe(TOKEN_STATUS.enabled)
			})
		})

		describe('groups', () => {
			test('accepts one of the user\'s usable groups and, by default, none (the user\'s own)', async () => {
				expect((await createOne(alice, { group: 'vip' })).group).toBe('vip')
				expect((await createOne(alice)).group).toBe('')
			})

			test('refuses a group the user may not use, on creation and on edit', async () => {
				const created = await create(alice, { name: 'main', group: 'svip' })
				expect(created.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.groupUnusable) })
				const token = await createOne(alice)
				const edited = await update(alice, { id: token.id, group: 'nonexistent' })
				expect(edited.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.groupUnusable) })
				expect((await storedToken(token.id)).group).toBe('')
			})
		})

		describe('reading', () => {
			test('lists the caller\'s tokens newest first, a page at a time', async () => {
				for (const name of ['first', 'second', 'third']) await createOne(alice, { name })
				const firstPage = await ferry.call('GET', '/api/token/?p=1&size=2', { as: alice })
				expect(firstPage.body.data).toMatchObject({ page: 1, page_size: 2, total: 3 })
				expect(firstPage.body.data.items.map((token: { name: string }) => token.name)).toEqual(['third', 'second'])
				const secondPage = await ferry.call('GET', '/api/token/?p=2&page_size=2', { as: alice })
				expect(secondPage.body.data.items.map((token: { name: string }) => token.name)).toEqual(['first'])
				expect(firstPage.body.data.items[0].key).toMatch(KEY_SHAPE)
			})

			test('shows one token with its key to its owner', async () => {
				const token = await createOne(alice)
				const answer = await ferry.call('GET', `/api/token/${token.id}`, { as: alice })
				expect(answer.body.data).toEqual(token)
			})

			test('searches by part of the name in any case, and by a whole key with or without sk-', async () => {
				const alpha = await createOne(alice, { name: 'Alpha-one' })
				await createOne(alice, { name: 'beta' })
				const names = async (query: string) => (await ferry.call('GET', `/api/token/search?${query}`, { as: alice })).body.data.items.map((token: { name: string }) => token.name)
				expect(await names('keyword=alpha')).toEqual(['Alpha-one'])
				expect(await names('keyword=')).toEqual(['beta', 'Alpha-one'])
				expect(await names(`token=${alpha.key}`)).toEqual(['Alpha-one'])
				expect(await names(`token=${alpha.key.slice(3)}`)).toEqual(['Alpha-one'])
				expect(await names(`token=sk-${'A'.repeat(48)}`)).toEqual([])
				expect(await names(`keyword=beta&token=${alpha.key}`)).toEqual([])
			})
		})

		describe('another user\'s token', () => {
			test('is invisible: not listed, not found by id, not found by its key', async () => {
				const token = await createOne(alice)
				expect((await ferry.call('GET', '/api/token/', { as: bob })).body.data).toMatchObject({ items: [], total: 0 })
				const byId = await ferry.call('GET', `/api/token/${token.id}`, { as: bob })
				expect(byId.status).toBe(404)
				expect(byId.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.notFound) })
				expect((await ferry.call('GET', `/api/token/search?token=${token.key}`, { as: bob })).body.data.total).toBe(0)
			})

			test('cannot be edited, switched or deleted', async () => {
				const token = await createOne(alice)
				const attempts = [
					await update(bob, { id: token.id, name: 'stolen', remain_quota: 1 }),
					await setStatus(bob, token.id, TOKEN_STATUS.disabled),
					await ferry.call('DELETE', `/api/token/${token.id}`, { as: bob }),
				]
				for (const attempt of attempts) expect({ status: attempt.status, body: attempt.body }).toEqual({ status: 404, body: { success: false, message: inEnglish(TOKEN_MESSAGES.notFound) } })
				expect(await storedToken(token.id)).toMatchObject({ name: 'main', remainQuota: 500_000, status: TOKEN_STATUS.enabled, deletedAt: null, userId: alice.userId })
			})
		})

		describe('editing', () => {
			test('changes the given fields, keeps the others, and never the used quota, owner or status', async () => {
				const token = await createOne(alice, { allow_ips: '10.0.0.1' })
				exemptFromLedgerAudit(ferry.store, 'a token usage written as a fixture')
				await changeStored(token.id, { usedQuota: 300 })
				const { keyHash } = await storedToken(token.id)
				const answer = await update(alice, { id: token.id, name: 'renamed', remain_quota: 42, used_quota: 0, user_id: bob.userId, status: TOKEN_STATUS.disabled })
				expect(answer.body.data).toMatchObject({ name: 'renamed', remain_quota: 42, used_quota: 300, status: TOKEN_STATUS.enabled, allow_ips: '10.0.0.1' })
				expect(await storedToken(token.id)).toMatchObject({ userId: alice.userId, usedQuota: 300, status: TOKEN_STATUS.enabled, keyHash })
			})

			test('refuses an expiry in the past for a token that is not disabled', async () => {
				const token = await createOne(alice)
				const answer = await update(alice, { id: token.id, expired_time: nowSeconds() - 10 })
				expect(answer.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.expiryPast) })
				expect((await storedToken(token.id)).expiredTime).toBe(-1)
			})

			test('validates edits like creation', async () => {
				const token = await createOne(alice)
				const answer = await update(alice, { id: token.id, allow_ips: '1.2.3.4/99' })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe(inEnglish(withValues(TOKEN_MESSAGES.allowIpInvalid, { line: '1.2.3.4/99' })))
			})

			test('deletion hides the token from its owner and keeps the row marked deleted', async () => {
				const token = await createOne(alice)
				const answer = await ferry.call('DELETE', `/api/token/${token.id}/`, { as: alice })
				expect(answer.body).toEqual({ success: true, message: '' })
				expect((await ferry.call('GET', `/api/token/${token.id}`, { as: alice })).status).toBe(404)
				expect((await ferry.call('GET', '/api/token/', { as: alice })).body.data.total).toBe(0)
				expect((await storedToken(token.id)).deletedAt).toBeNumber()
				expect((await ferry.call('DELETE', `/api/token/${token.id}`, { as: alice })).status).toBe(404)
			})

			test('tells the token caches after every change to a token, and not when one is created (no cache can hold a new key)', async () => {
				let notified = 0
				ferry.dependencies.changes.subscribe('tokens', () => notified++)
				const token = await createOne(alice)
				expect(notified).toBe(0)
				await update(alice, { id: token.id, name: 'renamed' })
				await setStatus(alice, token.id, TOKEN_STATUS.disabled)
				await ferry.call('DELETE', `/api/token/${token.id}`, { as: alice })
				expect(notified).toBe(3)
			})
		})

		describe('status', () => {
			test('switches between enabled and disabled', async () => {
				const token = await createOne(alice)
				expect((await setStatus(alice, token.id, TOKEN_STATUS.disabled)).body.data.status).toBe(TOKEN_STATUS.disabled)
				expect((await storedToken(token.id)).status).toBe(TOKEN_STATUS.disabled)
				expect((await setStatus(alice, token.id, TOKEN_STATUS.enabled)).body.data.status).toBe(TOKEN_STATUS.enabled)
			})

			test.each([TOKEN_STATUS.expired, TOKEN_STATUS.exhausted, 0, 7])('refuses to set status %d', async (status) => {
				const token = await createOne(alice)
				const answer = await setStatus(alice, token.id, status)
				expect(answer.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.statusInvalid) })
				expect((await storedToken(token.id)).status).toBe(TOKEN_STATUS.enabled)
			})

			test('an enabled token past its expiry reads as expired', async () => {
				const token = await createOne(alice)
				await changeStored(token.id, { expiredTime: nowSeconds() - 60 })
				expect((await ferry.call('GET', `/api/token/${token.id}`, { as: alice })).body.data.status).toBe(TOKEN_STATUS.expired)
			})

			test('an expired token cannot be enabled until its expiry is changed', async () => {
				const token = await createOne(alice)
				await changeStored(token.id, { expiredTime: nowSeconds() - 60, status: TOKEN_STATUS.disabled })
				const refused = await setStatus(alice, token.id, TOKEN_STATUS.enabled)
				expect(refused.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.expiredCannotEnable) })
				expect((await storedToken(token.id)).status).toBe(TOKEN_STATUS.disabled)
				await update(alice, { id: token.id, expired_time: nowSeconds() + 3600 })
				expect((await setStatus(alice, token.id, TOKEN_STATUS.enabled)).body.data.status).toBe(TOKEN_STATUS.enabled)
			})

			test('an exhausted token cannot be enabled until its quota is changed', async () => {
				const token = await createOne(alice, { remain_quota: 0 })
				const refused = await setStatus(alice, token.id, TOKEN_STATUS.enabled)
				expect(refused.body).toEqual({ success: false, message: inEnglish(TOKEN_MESSAGES.exhaustedCannotEnable) })
				expect((await storedToken(token.id)).status).toBe(TOKEN_STATUS.exhausted)
			})

			test('an edit that gives an exhausted token quota, or an expired one a future expiry, enables it again', async () => {
				const exhausted = await createOne(alice, { remain_quota: 0 })
				expect((await update(alice, { id: exhausted.id, remain_quota: 1000 })).body.data.status).toBe(TOKEN_STATUS.enabled)
				expect((await storedToken(exhausted.id)).status).toBe(TOKEN_STATUS.enabled)
				const expired = await createOne(alice)
				await changeStored(expired.id, { expiredTime: nowSeconds() - 60, status: TOKEN_STATUS.expired })
				expect((await update(alice, { id: expired.id, name: 'still-expired' })).body.data.status).toBe(TOKEN_STATUS.expired)
				expect((await update(alice, { id: expired.id, expired_time: -1 })).body.data.status).toBe(TOKEN_STATUS.enabled)
				expect((await storedToken(expired.id)).status).toBe(TOKEN_STATUS.enabled)
			})

			test('an edit never enables a disabled token', async () => {
				const token = await createOne(alice)
				await setStatus(alice, token.id, TOKEN_STATUS.disabled)
				expect((await update(alice, { id: token.id, remain_quota: 9, expired_time: -1 })).body.data.status).toBe(TOKEN_STATUS.disabled)
			})
		})
	})
}
