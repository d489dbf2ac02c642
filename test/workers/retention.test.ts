/**
 * Retention (issue 17), with a clock that moves (`setSystemTime`): closed ledger holds are rolled up
 * into per-user-and-token totals a day after they closed and the ledger audit stays exact; consume
 * logs older than `ConsumeLogRetentionDays` go in bounded batches once the dashboard has counted
 * them, and nothing else goes; one node runs the job under its lease.
 */
import { afterEach, describe, expect, setSystemTime, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { RETENTION_LEASE, runRetention, startRetention, type RetentionSummary } from '@/api/logs/retention'
import { exportQuotaData } from '@/api/data/export'
import { auditLedger } from '@/billing/audit'
import { reserve, settle, voidHold } from '@/billing/holds'
import type { LeasedSchedule } from '@/db/leased-schedule'
import { takeLease } from '@/db/lease'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'

const DAY = 24 * 60 * 60
const WORKER_URL = new URL('../../src/workers/schedule-clock.ts', import.meta.url)
const EXPORT_WORKER_URL = new URL('../../src/workers/data-export.ts', import.meta.url)

for (const target of databaseTargets()) {
	describe(`retention on ${target.dialect}`, () => {
		const apps: TestApp[] = []
		const schedules: LeasedSchedule[] = []
		afterEach(async () => {
			setSystemTime()
			await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()))
			for (const app of apps.splice(0)) await app.close()
		})
		async function start(open = target.open) {
			const ferry = await createTestApp({ open })
			apps.push(ferry)
			return ferry
		}
		let clock = 0
		/** Sets the clock to `seconds` (unix) and keeps it there. */
		const at = (seconds: number) => {
			clock = seconds
			setSystemTime(new Date(seconds * 1000))
		}

		async function fundedUser(ferry: TestApp, name: string, quota: number) {
			const user = await ferry.createUser(name)
			const root = await ferry.loginRoot()
			await ferry.call('PUT', '/api/user/', { as: root, body: { id: user.userId, quota } })
			const token = await ferry.call('POST', '/api/token/', { as: user, body: { name: `${name}-token`, remain_quota: 1_000_000, unlimited_quota: false } })
			const { tokens } = ferry.store.tables
			const [row] = await ferry.store.db.select({ id: tokens.id }).from(tokens).where(eq(tokens.userId, user.userId))
			expect(token.body.success).toBe(true)
			return { userId: user.userId, tokenId: row!.id }
		}

		let requests = 0
		async function call(ferry: TestApp, owner: { userId: number; tokenId: number }, hold: number, cost: number | 'void' | 'pending') {
			const requestId = `request-${++requests}-${target.dialect}`
			await reserve(ferry.store, { requestId, userId: owner.userId, tokenId: owner.tokenId, tokenLimited: true, amount: hold, node: 'test/1' })
			if (cost === 'void') await voidHold(ferry.store, requestId, 'upstream failed')
			else if (cost !== 'pending') await settle(ferry.store, { requestId, actual: cost, channelId: 0, log: undefined })
			return requestId
		}

		async function holdRows(ferry: TestApp) {
			const { quotaHolds } = ferry.store.tables
			return ferry.store.db.select({ requestId: quotaHolds.requestId, state: quotaHolds.state }).from(quotaHolds).orderBy(asc(quotaHolds.id))
		}
		async function totals(ferry: TestApp) {
			const { quotaHoldTotals } = ferry.store.tables
			return ferry.store.db.select().from(quotaHoldTotals).orderBy(asc(quotaHoldTotals.userId), asc(quotaHoldTotals.tokenId))
		}

		test('rolls closed holds up a day after they closed, keeps pending and recent ones, and the audit stays exact throughout', async () => {
			const start0 = nowSeconds()
			at(start0)
			const ferry = await start()
			const alice = await fundedUser(ferry, 'alice', 100_000)
			const bob = await fundedUser(ferry, 'bob', 100_000)
			await call(ferry, alice, 500, 120)
			await call(ferry, alice, 500, 700) // above the hold: charged 700
			await call(ferry, alice, 300, 'void')
			await call(ferry, bob, 400, 50)
			const inFlight = await call(ferry, bob, 900, 'pending')
			const usedBefore = await ferry.store.db.select({ id: ferry.store.tables.users.id, used: ferry.store.tables.users.usedQuota }).from(ferry.store.tables.users)
			expect(await auditLedger(ferry.store)).toEqual([])

			// Less than a day later nothing moves.
			at(start0 + DAY - 60)
			expect(await runRetention(ferry.dependencies)).toEqual({ holds: 0, logs: 0 })
			expect((await holdRows(ferry)).length).toBe(5)

			// A day later the four closed holds go; the void leaves no total, the pending hold stays.
			at(start0 + DAY + 60)
			const recent = await call(ferry, alice, 200, 80)
			expect(await runRetention(ferry.dependencies)).toEqual({ holds: 4, logs: 0 })
			expect((await holdRows(ferry)).map((row) => row.requestId)).toEqual([inFlight, recent])
			expect(await totals(ferry)).toEqual([
				{ userId: alice.userId, tokenId: alice.tokenId, charged: 820, holds: 2 },
				{ userId: bob.userId, tokenId: bob.tokenId, charged: 50, holds: 1 },
			])
			expect(await auditLedger(ferry.store)).toEqual([])

			// Totals grow by addition, and the in-flight call settles long after: still exact.
			await settle(ferry.store, { requestId: inFlight, actual: 600, channelId: 0, log: undefined })
			at(start0 + 3 * DAY)
			expect((await runRetention(ferry.dependencies)).holds).toBe(2)
			expect(await holdRows(ferry)).toEqual([])
			expect(await totals(ferry)).toEqual([
				{ userId: alice.userId, tokenId: alice.tokenId, charged: 900, holds: 3 },
				{ userId: bob.userId, tokenId: bob.tokenId, charged: 650, holds: 2 },
			])
			const usedAfter = await ferry.store.db.select({ id: ferry.store.tables.users.id, used: ferry.store.tables.users.usedQuota }).from(ferry.store.tables.users)
			expect(usedAfter.find((row) => row.id === alice.userId)!.used).toBe(usedBefore.find((row) => row.id === alice.userId)!.used + 80)
			expect(await auditLedger(ferry.store)).toEqual([])

			// The audit notices a total that does not match (it reads the totals at all).
			await ferry.store.db.update(ferry.store.tables.quotaHoldTotals).set({ charged: 901 }).where(eq(ferry.store.tables.quotaHoldTotals.userId, alice.userId))
			expect((await auditLedger(ferry.store)).map((difference) => difference.kind).sort()).toEqual(['token_used_quota', 'user_balance', 'user_used_quota'])
			await ferry.store.db.update(ferry.store.tables.quotaHoldTotals).set({ charged: 900 }).where(eq(ferry.store.tables.quotaHoldTotals.userId, alice.userId))
		})

		test('moves holds in bounded batches: a run stops after its batches and the next run goes on', async () => {
			const start0 = nowSeconds()
			at(start0)
			const ferry = await start()
			const carol = await fundedUser(ferry, 'carol', 100_000)
			for (let index = 0; index < 7; index++) await call(ferry, carol, 100, 10)
			at(start0 + 2 * DAY)
			const limits = { batch: 2, batchesPerRun: 2, pauseMs: 0 }
			expect((await runRetention(ferry.dependencies, limits)).holds).toBe(4)
			expect((await holdRows(ferry)).length).toBe(3)
			expect(await auditLedger(ferry.store)).toEqual([])
			expect((await runRetention(ferry.dependencies, limits)).holds).toBe(3)
			expect(await totals(ferry)).toEqual([{ userId: carol.userId, tokenId: carol.tokenId, charged: 70, holds: 7 }])
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('deletes consume logs older than the retention days only when asked, after the dashboard counted them, and nothing else', async () => {
			const today = nowSeconds()
			at(today)
			const ferry = await start()
			const { logs, quotaData } = ferry.store.tables
			const hourAgo = (days: number) => today - days * DAY
			await ferry.store.db.insert(logs).values([
				{ userId: 1, username: 'root', type: LOG_TYPE.consume, modelName: 'm', quota: 10, promptTokens: 1, completionTokens: 1, createdAt: hourAgo(40) },
				{ userId: 1, username: 'root', type: LOG_TYPE.consume, modelName: 'm', quota: 20, promptTokens: 1, completionTokens: 1, createdAt: hourAgo(35) },
				{ userId: 1, username: 'root', type: LOG_TYPE.consume, modelName: 'm', quota: 30, promptTokens: 1, completionTokens: 1, createdAt: hourAgo(31) },
				{ userId: 1, username: 'root', type: LOG_TYPE.consume, modelName: 'm', quota: 40, promptTokens: 1, completionTokens: 1, createdAt: hourAgo(5) },
				{ userId: 1, username: 'root', type: LOG_TYPE.system, content: 'an old system line', createdAt: hourAgo(40) },
				{ userId: 1, username: 'root', type: LOG_TYPE.manage, content: 'an old admin line', createdAt: hourAgo(40) },
			])
			const consumeTimes = async () => (await ferry.store.db.select({ at: logs.createdAt }).from(logs).where(eq(logs.type, LOG_TYPE.consume)).orderBy(asc(logs.createdAt))).map((row) => row.at)

			// Off by default: nothing goes.
			expect(ferry.dependencies.options.get('ConsumeLogRetentionDays')).toBe(0)
			expect((await runRetention(ferry.dependencies)).logs).toBe(0)
			expect((await consumeTimes()).length).toBe(4)

			// 30 days: while the dashboard export is on and has not run, nothing is counted yet, so nothing goes.
			await ferry.dependencies.options.set('ConsumeLogRetentionDays', '30')
			expect((await runRetention(ferry.dependencies)).logs).toBe(0)

			// Once exported, the three older than 30 days go, two per batch, and the dashboard keeps their hours.
			await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
			const bucketsBefore = await ferry.store.db.select().from(quotaData).orderBy(asc(quotaData.createdAt))
			expect((await runRetention(ferry.dependencies, { batch: 2, batchesPerRun: 1, pauseMs: 0 })).logs).toBe(2)
			expect((await runRetention(ferry.dependencies, { batch: 2, batchesPerRun: 1, pauseMs: 0 })).logs).toBe(1)
			expect(await consumeTimes()).toEqual([hourAgo(5)])
			await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
			expect(await ferry.store.db.select().from(quotaData).orderBy(asc(quotaData.createdAt))).toEqual(bucketsBefore)
			const others = await ferry.store.db.select({ content: logs.content }).from(logs).where(eq(logs.createdAt, hourAgo(40)))
			expect(others.map((row) => row.content).sort()).toEqual(['an old admin line', 'an old system line'])

			// Ten days on, the remaining log is 15 days old: it stays. With the dashboard off, its hold-back no longer applies.
			at(today + 10 * DAY)
			await ferry.dependencies.options.set('DataExportEnabled', 'false')
			expect((await runRetention(ferry.dependencies)).logs).toBe(0)
			at(today + 26 * DAY)
			expect((await runRetention(ferry.dependencies)).logs).toBe(1)
			expect(await consumeTimes()).toEqual([])
			expect(await auditLedger(ferry.store)).toEqual([])
		})

		test('of two nodes on one database only the lease holder runs it', async () => {
			const [first, second] = await target.openTwo()
			const nodeA = await start(async () => first)
			const nodeB = await start(async () => second)
			const runsA: RetentionSummary[] = []
			const runsB: RetentionSummary[] = []
			const input = { workerUrl: WORKER_URL, intervalMs: 200, tickMs: 20 }
			schedules.push(startRetention(nodeA.dependencies, { ...input, holder: 'node-a/1', onRun: (summary) => runsA.push(summary) }))
			schedules.push(startRetention(nodeB.dependencies, { ...input, holder: 'node-b/1', onRun: (summary) => runsB.push(summary) }))
			await eventually(async () => runsA.length + runsB.length >= 3)
			expect(runsA.length === 0 || runsB.length === 0).toBe(true)
			const holder = runsA.length > 0 ? 'node-a/1' : 'node-b/1'
			expect(await takeLease(first, RETENTION_LEASE, holder === 'node-a/1' ? 'node-b/1' : 'node-a/1', 60)).toBe(false)
		})
	})
}
