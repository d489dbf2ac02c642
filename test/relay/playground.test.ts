/**
 * The playground relay `POST /pg/chat/completions`: the console's session (cookie plus
 * New-Api-User) calls a model as a token that exists only for the call, `playground-<group>`, and
 * only the user's wallet pays.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/** (100 prompt + 20 completion × 4) × 0.075 (gpt-4o-mini's ratio) = 13.5 → 14 quota. */
const CALL_COST = 14
const FUNDS = 10_000
const chatBody = (fields: Record<string, unknown> = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, ...fields })

for (const target of databaseTargets()) {
	describe(`the playground relay on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let alice: Caller
		beforeEach(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream({ promptTokens: 100, completionTokens: 20 })
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			alice = await harness.ferry.createUser('alice')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: FUNDS } })
		})
		afterEach(() => harness.close())

		function playground(body: unknown, headers: Record<string, string>) {
			return fetch(`${harness.baseUrl}/pg/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: typeof body === 'string' ? body : JSON.stringify(body),
			})
		}
		const asSession = (caller: Caller) => ({ cookie: caller.cookie!, 'new-api-user': String(caller.userId) })

		/** The reply text of an OpenAI stream, and whether it ended with `[DONE]`. */
		async function readStream(response: Response) {
			const events = (await response.text()).split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6))
			const text = events.filter((data) => data !== '[DONE]').map((data) => JSON.parse(data).choices?.[0]?.delta?.content ?? '').join('')
			return { text, done: events.at(-1) === '[DONE]' }
		}
		async function balanceOf(userId: number) {
			const { users } = harness.ferry.store.tables
			const [user] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
			return user!.quota
		}
		async function consumeLogs(userId: number) {
			const { logs } = harness.ferry.store.tables
			return (await harness.ferry.store.db.select().from(logs).where(eq(logs.userId, userId))).filter((log) => log.type === LOG_TYPE.consume)
		}
		async function expectRefused(response: Response, status: number, code: string) {
			expect(response.status).toBe(status)
			const body = await response.json() as { error: { code: string; message: string; type: string } }
			expect(body.error.code).toBe(code)
			expect(body.error.message).toBeString()
			expect(upstream.requests).toHaveLength(0)
		}

		test('streams the reply and charges exactly its cost to the wallet only, logged under the playground token name', async () => {
			const token = await harness.createToken({ name: 'untouched', unlimited_quota: false, remain_quota: 5_000 }, alice)
			const response = await playground(chatBody(), asSession(alice))
			expect(response.status).toBe(200)
			expect(response.headers.get('content-type')).toStartWith('text/event-stream')
			expect(await readStream(response)).toEqual({ text: 'Hello from fake-openai', done: true })

			const [log] = await eventually(async () => { const found = await consumeLogs(alice.userId); return found.length > 0 && found })
			expect(log).toMatchObject({ tokenName: 'playground-default', tokenId: 0, quota: CALL_COST, modelName: 'gpt-4o-mini', group: 'default', isStream: true, promptTokens: 100, completionTokens: 20 })
			expect(await balanceOf(alice.userId)).toBe(FUNDS - CALL_COST)

			const { tokens, quotaHolds } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(tokens).where(eq(tokens.id, token.id))
			expect(row).toMatchObject({ remainQuota: 5_000, usedQuota: 0 })
			const holds = await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.userId, alice.userId))
			expect(holds).toHaveLength(1)
			expect(holds[0]).toMatchObject({ tokenId: 0, state: 'settled', charged: CALL_COST })
			expect(Boolean(holds[0]!.tokenLimited)).toBe(false)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('answers a call without streaming too, and sends the upstream the chat request without the group field', async () => {
			const response = await playground(chatBody({ stream: false, group: 'default', temperature: 0.5, max_tokens: 30 }), asSession(alice))
			expect(response.status).toBe(200)
			const answer = await response.json() as { choices: { message: { content: string } }[] }
			expect(answer.choices[0]!.message.content).toBe('Hello from fake-openai')
			expect(upstream.requests).toHaveLength(1)
			const sent = upstream.requests[0]!.body
			expect(sent).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.5, max_tokens: 30 })
			expect(sent).not.toHaveProperty('group')
			expect(upstream.requests[0]!.headers.authorization).toBe('Bearer sk-upstream-key')
			await eventually(async () => (await consumeLogs(alice.userId)).length === 1)
			expect(await balanceOf(alice.userId)).toBe(FUNDS - CALL_COST)
		})

		test('routes and logs the call in a usable group the body names', async () => {
			const vipUpstream = harness.startUpstream({ name: 'vip', promptTokens: 100, completionTokens: 20 })
			await harness.createChannel({ name: 'vip', base_url: vipUpstream.url, models: 'gpt-4o-mini', group: 'vip' })
			const response = await playground(chatBody({ group: 'vip' }), asSession(alice))
			expect(response.status).toBe(200)
			expect((await readStream(response)).text).toBe('Hello from vip')
			const [log] = await eventually(async () => { const found = await consumeLogs(alice.userId); return found.length > 0 && found })
			expect(log).toMatchObject({ tokenName: 'playground-vip', group: 'vip', tokenId: 0 })
			expect(upstream.requests).toHaveLength(0)
		})

		test('refuses a group the user may not use, and a group that is not a name', async () => {
			await expectRefused(await playground(chatBody({ group: 'svip' }), asSession(alice)), 403, 'group_not_allowed')
			await expectRefused(await playground(chatBody({ group: 7 }), asSession(alice)), 400, 'invalid_request')
			expect(await balanceOf(alice.userId)).toBe(FUNDS)
		})

		test('refuses the system access token and API tokens: the playground takes only a session', async () => {
			const accessToken = (await harness.ferry.call('GET', '/api/user/token', { as: alice })).body.data as string
			await expectRefused(await playground(chatBody(), { authorization: accessToken, 'new-api-user': String(alice.userId) }), 401, 'access_token_refused')
			const apiToken = await harness.createToken({ name: 'key' }, alice)
			await expectRefused(await playground(chatBody(), { authorization: `Bearer ${apiToken.key}`, 'new-api-user': String(alice.userId) }), 401, 'access_token_refused')
			await expectRefused(await playground(chatBody(), { ...asSession(alice), authorization: `Bearer ${apiToken.key}` }), 401, 'access_token_refused')
		})

		test('refuses a call without a session, without the user header or with another user\'s id in it', async () => {
			await expectRefused(await playground(chatBody(), { 'new-api-user': String(alice.userId) }), 401, 'not_signed_in')
			await expectRefused(await playground(chatBody(), { cookie: alice.cookie! }), 401, 'user_header_mismatch')
			await expectRefused(await playground(chatBody(), { cookie: alice.cookie!, 'new-api-user': String(harness.root.userId) }), 401, 'user_header_mismatch')
			await expectRefused(await playground(chatBody(), { cookie: 'ferry_session=forged.session.value', 'new-api-user': String(alice.userId) }), 401, 'not_signed_in')
		})

		test('refuses a disabled user', async () => {
			await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: alice.userId, action: 'disable' } })
			const response = await playground(chatBody(), asSession(alice))
			expect([401, 403]).toContain(response.status)
			const body = await response.json() as { error: { code: string } }
			expect(['not_signed_in', 'user_disabled']).toContain(body.error.code)
			expect(upstream.requests).toHaveLength(0)
		})

		test('refuses a user without quota before any upstream call', async () => {
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 0 } })
			await expectRefused(await playground(chatBody(), asSession(alice)), 403, 'insufficient_user_quota')
			expect(await consumeLogs(alice.userId)).toEqual([])
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('words Ferry\'s own refusals in the console\'s language, while /v1 answers the same refusal in English', async () => {
			const messageOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error
			const zh = { 'accept-language': 'zh-CN,zh;q=0.9' }
			expect(await messageOf(await playground(chatBody(), { ...zh, 'new-api-user': String(alice.userId) })))
				.toMatchObject({ code: 'not_signed_in', message: '请先登录控制台再使用演练场', type: 'invalid_request_error' })
			expect((await messageOf(await playground(chatBody({ group: 'svip' }), { ...asSession(alice), ...zh }))).message).toBe('该用户不能使用分组 svip')
			// Without Accept-Language the console's language cookie decides.
			const cookieZh = { ...asSession(alice), cookie: `${alice.cookie!}; language=zh` }
			expect((await messageOf(await playground(chatBody({ model: 'no-such-model' }), cookieZh))).message).toBe('分组 default 下没有模型 no-such-model 的可用渠道')
			expect((await messageOf(await playground(chatBody({ group: 'svip' }), { ...asSession(alice), 'accept-language': 'en-US' }))).message)
				.toBe('the group svip is not available to this user')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 0 } })
			expect((await messageOf(await playground(chatBody(), { ...asSession(alice), ...zh }))).message).toBe('用户额度不足')
			const apiToken = await harness.createToken({ name: 'api' }, alice)
			const relayed = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
				method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken.key}`, ...zh }, body: JSON.stringify(chatBody()),
			})
			expect((await messageOf(relayed)).message).toBe('insufficient user quota')
			expect(upstream.requests).toHaveLength(0)
		})

		test('answers a body the relay would refuse with the relay\'s 400, in OpenAI\'s shape', async () => {
			await expectRefused(await playground('{not json', asSession(alice)), 400, 'invalid_request')
			await expectRefused(await playground(chatBody({ messages: [] }), asSession(alice)), 400, 'invalid_request')
			await expectRefused(await playground([1, 2], asSession(alice)), 400, 'invalid_request')
			expect(await balanceOf(alice.userId)).toBe(FUNDS)
		})
	})
}
