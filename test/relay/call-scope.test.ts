/**
 * A call's hold lives in one CallScope (docs/architecture.md#the-ledger): whatever ends the call, and however many of its
 * exits race (a stream that completes while its client goes away, a failure after a settle), the
 * hold is settled or voided exactly once, through the ledger.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { quotaForUsage, type Pricing } from '@/billing/price'
import { CallScope } from '@/relay/stages/hold'
import { NO_CALL_LIMITS, type RelayCaller } from '@/relay/caller'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const PRICING: Pricing = { kind: 'per_token', modelRatio: 1, completionRatio: 2, cacheRatio: 1, createCacheRatio: 1, groupRatio: 1 }
const USAGE = { promptTokens: 1200, completionTokens: 300 }
const HOLD = 5000
const STARTING_QUOTA = 1_000_000

for (const target of databaseTargets()) {
	describe(`a call's hold scope on ${target.dialect}`, () => {
		let ferry: TestApp
		let caller: RelayCaller
		let channelId: number
		let requests = 0

		beforeAll(async () => {
			ferry = await createTestApp(target)
			const root = await ferry.loginRoot()
			const user = await ferry.createUser('scoped')
			await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, quota: STARTING_QUOTA } })
			const created = await ferry.call('POST', '/api/channel/', { as: root, body: { type: 1, name: 'scoped channel', key: 'sk-scoped', group: 'default', models: 'gpt-4o-mini' } })
			channelId = created.body.data[0].id
			// The playground's kind of caller: no token row, the user's wallet alone.
			caller = { user: { id: user.userId, username: 'scoped', group: 'default', role: 1, limits: NO_CALL_LIMITS }, token: { id: 0, name: 'scope-test', group: 'default', unlimited: true, modelLimits: undefined, limits: NO_CALL_LIMITS, responseCache: true }, pinnedChannelId: undefined }
		})
		afterAll(() => ferry.close())

		const newScope = () => new CallScope(ferry.dependencies, ferry.relay, {
			requestId: `scope-test-${target.dialect}-${++requests}`, caller, model: 'gpt-4o-mini', group: 'default', pricing: PRICING,
			stream: true, startedAt: performance.now(), clientAddress: '127.0.0.1',
		})
		const answered = async (scope: CallScope) => {
			await ferry.relay.routing.ready()
			const channel = ferry.relay.routing.channel(channelId)!
			scope.answered({ channel, keyIndex: 0, key: channel.key }, [{ channel: channelId, key: 0, outcome: 'ok' }], undefined)
		}
		const quota = async () => {
			const { users } = ferry.store.tables
			const [user] = await ferry.store.db.select().from(users).where(eq(users.id, caller.user.id))
			return user!.quota
		}
		const hold = async (requestId: string) => {
			const { quotaHolds } = ferry.store.tables
			return (await ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.requestId, requestId)))[0]
		}
		const consumeLogs = async (requestId: string) => {
			const { logs } = ferry.store.tables
			return (await ferry.store.db.select().from(logs).where(eq(logs.requestId, requestId))).filter((entry) => entry.type === LOG_TYPE.consume)
		}

		test('a call whose exits race — settled twice and voided — is charged once, with one log entry', async () => {
			const scope = newScope()
			const before = await quota()
			await scope.reserve(HOLD)
			expect(await quota()).toBe(before - HOLD)
			await answered(scope)
			await Promise.all([scope.settle(USAGE, { localCount: false }), scope.void('client_closed'), scope.settle(USAGE, { localCount: false })])
			const charge = quotaForUsage(PRICING, USAGE, ferry.dependencies.options.get('QuotaPerUnit'))
			expect(await quota()).toBe(before - charge)
			expect(await hold(scope.call.requestId)).toMatchObject({ state: 'settled', charged: charge })
			expect(await consumeLogs(scope.call.requestId)).toHaveLength(1)
			expect(scope.open).toBe(false)
		})

		test('a call voided twice returns its hold once, and a settle after the void charges nothing', async () => {
			const scope = newScope()
			const before = await quota()
			await scope.reserve(HOLD)
			await answered(scope)
			await Promise.all([scope.void('upstream_failed'), scope.void('client_closed')])
			await scope.settle(USAGE, { localCount: false })
			expect(await quota()).toBe(before)
			expect(await hold(scope.call.requestId)).toMatchObject({ state: 'voided', reason: 'upstream_failed' })
			expect(await consumeLogs(scope.call.requestId)).toHaveLength(0)
		})

		test('a call refused before its hold ends without touching the ledger', async () => {
			const scope = newScope()
			const before = await quota()
			await scope.void('upstream_failed')
			await scope.settle(USAGE, { localCount: false })
			expect(await quota()).toBe(before)
			expect(await hold(scope.call.requestId)).toBeUndefined()
		})

		test('a hold larger than the balance refuses the call with the ledger\'s words, and leaves nothing held', async () => {
			const scope = newScope()
			const error = await scope.reserve(STARTING_QUOTA * 10).catch((failure) => failure)
			expect(error).toMatchObject({ status: 403, message: 'insufficient user quota' })
			expect(scope.open).toBe(false)
			expect(await hold(scope.call.requestId)).toBeUndefined()
		})
	})
}
