/**
 * Spend windows on API tokens (`quota_windows`): a call's hold must fit every window of its token
 * whatever pays, taken by the same guarded period statements as a plan's windows. Calls go through
 * until the daily window is spent; the next is refused before the upstream (403 in the caller's
 * format, `Retry-After` until the reset) with nothing held or charged; the window rolls; a
 * concurrent burst cannot pass the window at all (the take is a guarded update: at most
 * ⌊limit / hold⌋ calls are held, and a call that costs more than its hold is charged no more than
 * the window has left); the ledger audit (periods included) is exact. On SQLite and Postgres, with
 * the official openai SDK.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { and, eq } from 'drizzle-orm'
import { DEFAULT_MODEL_PRICE } from '@shared/default-prices'
import { auditLedger } from '@/billing/audit'
import { nowSeconds } from '@/lib/clock'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'window-model'
/** $0.002 a call: 1 000 quota, held and charged exactly. */
const CALL = 1_000
const DAY = 24 * 3600
const WEEK = 7 * DAY

for (const target of databaseTargets()) {
	describe(`token spend windows on ${target.dialect}`, () => {
		let harness: RelayHarness
		let alice: Caller
		let upstreamCalls: () => number

		beforeEach(async () => {
			harness = await startRelayHarness(target)
			const upstream = harness.startUpstream({ promptTokens: 10, completionTokens: 5 })
			upstreamCalls = () => upstream.requests.length
			await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, [MODEL]: CALL / 500_000 }))
			await harness.createChannel({ base_url: upstream.url, models: MODEL })
			alice = await harness.ferry.createUser('alice')
			const funded = await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 100 * CALL } })
			if (!funded.body.success) throw new Error(funded.body.message)
		})
		afterEach(() => harness.close())

		const chat = (client: OpenAI) => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
			.then(() => 'ok', (error) => (error instanceof OpenAI.APIError ? `${error.status} ${error.code}` : String(error)))
		const pendingHolds = async () => {
			const { quotaHolds } = harness.ferry.store.tables
			return (await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))).length
		}
		const windowsOf = async (tokenId: number) => {
			const answer = await harness.ferry.call('GET', `/api/token/${tokenId}`, { as: alice })
			return answer.body.data.quota_windows as { seconds: number; quota: number; used: number; held: number; remaining: number; resets_at: number | null }[]
		}

		test('calls go through until the daily window is spent; the next is refused before the upstream with nothing held or charged; the window rolls and pays again', async () => {
			const token = await harness.createToken({ name: 'capped', quota_windows: [{ seconds: DAY, quota: 3 * CALL }, { seconds: WEEK, quota: 5 * CALL }] }, alice)
			const client = harness.client(token.key)
			for (let index = 0; index < 3; index++) expect(await chat(client)).toBe('ok')
			const before = await harness.account(alice.userId, token.id)
			expect(before).toMatchObject({ quota: 97 * CALL, used: 3 * CALL, tokenUsed: 3 * CALL })

			const sent = upstreamCalls()
			const refused = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
				method: 'POST', headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
			})
			expect(refused.status).toBe(403)
			const body = await refused.json() as { error: { message: string; type: string; code: string } }
			expect(body.error).toMatchObject({ type: 'insufficient_quota', code: 'token_window_exhausted' })
			expect(body.error.message).toContain(`spend limit of ${3 * CALL} quota per ${DAY} seconds`)
			const retryAfter = Number(refused.headers.get('retry-after'))
			expect(retryAfter).toBeGreaterThan(DAY - 60)
			expect(retryAfter).toBeLessThanOrEqual(DAY)
			// A Claude-format client reads the same refusal in Claude's shape.
			const claude = await fetch(`${harness.baseUrl}/v1/messages`, {
				method: 'POST', headers: { 'x-api-key': token.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
				body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
			})
			expect(claude.status).toBe(403)
			expect(await claude.json()).toMatchObject({ type: 'error', error: { message: expect.stringContaining('spend limit') } })
			expect(await chat(client)).toBe('403 token_window_exhausted')
			expect(upstreamCalls()).toBe(sent)
			expect(await pendingHolds()).toBe(0)
			expect(await harness.account(alice.userId, token.id)).toEqual(before)

			const windows = await windowsOf(token.id)
			expect(windows.map(({ seconds, quota, used, held, remaining }) => ({ seconds, quota, used, held, remaining }))).toEqual([
				{ seconds: DAY, quota: 3 * CALL, used: 3 * CALL, held: 0, remaining: 0 },
				{ seconds: WEEK, quota: 5 * CALL, used: 3 * CALL, held: 0, remaining: 2 * CALL },
			])
			expect(windows[0]!.resets_at).toBeGreaterThan(nowSeconds() + DAY - 60)
			expect(await auditLedger(harness.ferry.store)).toEqual([])

			// The day passes: the daily window starts a new period; the weekly one has room for two more.
			const { tokenPeriods } = harness.ferry.store.tables
			await harness.ferry.store.db.update(tokenPeriods).set({ endsAt: nowSeconds() - 1 }).where(and(eq(tokenPeriods.tokenId, token.id), eq(tokenPeriods.windowIndex, DAY)))
			expect((await windowsOf(token.id))[0]).toMatchObject({ used: 0, remaining: 3 * CALL, resets_at: null })
			expect(await chat(client)).toBe('ok')
			expect(await chat(client)).toBe('ok')
			expect(await chat(client)).toBe('403 token_window_exhausted')
			expect((await windowsOf(token.id)).map(({ used, remaining }) => ({ used, remaining }))).toEqual([{ used: 2 * CALL, remaining: CALL }, { used: 5 * CALL, remaining: 0 }])
			expect(await harness.account(alice.userId, token.id)).toMatchObject({ quota: 95 * CALL, used: 5 * CALL, tokenUsed: 5 * CALL })
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a burst of 12 concurrent calls on a window of 4 is held exactly 4 times: the window is never passed, and the refused calls hold and charge nothing', async () => {
			const token = await harness.createToken({ name: 'burst', quota_windows: [{ seconds: DAY, quota: 4 * CALL }] }, alice)
			const client = harness.client(token.key)
			const outcomes = await Promise.all(Array.from({ length: 12 }, () => chat(client)))
			expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(4)
			expect(outcomes.filter((outcome) => outcome === '403 token_window_exhausted')).toHaveLength(8)
			expect(upstreamCalls()).toBe(4)
			expect(await pendingHolds()).toBe(0)
			expect(await harness.account(alice.userId, token.id)).toMatchObject({ quota: 96 * CALL, used: 4 * CALL, tokenUsed: 4 * CALL })
			expect((await windowsOf(token.id))[0]).toMatchObject({ quota: 4 * CALL, used: 4 * CALL, held: 0, remaining: 0 })
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('another token of the same user, and a token without windows, are not limited by the window', async () => {
			const capped = await harness.createToken({ name: 'capped', quota_windows: [{ seconds: DAY, quota: CALL }] }, alice)
			const free = await harness.createToken({ name: 'free' }, alice)
			expect(await chat(harness.client(capped.key))).toBe('ok')
			expect(await chat(harness.client(capped.key))).toBe('403 token_window_exhausted')
			for (let index = 0; index < 3; index++) expect(await chat(harness.client(free.key))).toBe('ok')
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('raising the limit takes effect at once in the current period, what was spent still counting; lowering it below the spend refuses the next call', async () => {
			const token = await harness.createToken({ name: 'edited', quota_windows: [{ seconds: DAY, quota: 2 * CALL }] }, alice)
			const client = harness.client(token.key)
			expect(await chat(client)).toBe('ok')
			expect(await chat(client)).toBe('ok')
			expect(await chat(client)).toBe('403 token_window_exhausted')
			const raised = await harness.ferry.call('PUT', '/api/token/', { as: alice, body: { id: token.id, quota_windows: [{ seconds: DAY, quota: 3 * CALL }] } })
			expect(raised.body.data.quota_windows[0]).toMatchObject({ quota: 3 * CALL, used: 2 * CALL, remaining: CALL })
			expect(await chat(client)).toBe('ok')
			expect(await chat(client)).toBe('403 token_window_exhausted')
			const lowered = await harness.ferry.call('PUT', '/api/token/', { as: alice, body: { id: token.id, quota_windows: [{ seconds: DAY, quota: CALL }] } })
			expect(lowered.body.data.quota_windows[0]).toMatchObject({ used: 3 * CALL, remaining: 0 })
			expect(await chat(client)).toBe('403 token_window_exhausted')
			// Adding a window in front keeps the daily window's spend; taking the windows off lifts the limit.
			const added = await harness.ferry.call('PUT', '/api/token/', { as: alice, body: { id: token.id, quota_windows: [{ seconds: 5 * 3600, quota: 10 * CALL }, { seconds: DAY, quota: CALL }] } })
			expect(added.body.data.quota_windows.map(({ seconds, used }: { seconds: number; used: number }) => ({ seconds, used }))).toEqual([{ seconds: 5 * 3600, used: 0 }, { seconds: DAY, used: 3 * CALL }])
			expect(await chat(client)).toBe('403 token_window_exhausted')
			await harness.ferry.call('PUT', '/api/token/', { as: alice, body: { id: token.id, quota_windows: [] } })
			expect(await chat(client)).toBe('ok')
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
