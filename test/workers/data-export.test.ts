/**
 * The dashboard export: consume logs become hourly buckets per user and model in `quota_data`,
 * a run repeated or after a log cleanup changes nothing it should not, and one node runs it.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { asc } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { deleteLogsBefore } from '@/api/logs'
import { ROLE } from '@shared/user'
import { exportQuotaData } from '@/api/data/export'
import { DATA_EXPORT_LEASE, startDataExport, type DataExportSchedule } from '@/api/data/schedule'
import type { ExportSummary } from '@/api/data/export'
import type { Store } from '@/db'
import { takeLease } from '@/db/lease'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'

const WORKER_URL = new URL('../../src/workers/schedule-clock.ts', import.meta.url)
const INTERVAL_MS = 300
const TICK_MS = 30
const HOUR = 3600

type LogFixture = { userId: number; username: string; model: string; at: number; prompt: number; completion: number; quota: number; type?: number }

async function addLogs(store: Store, entries: LogFixture[]) {
	const { logs } = store.tables
	await store.db.insert(logs).values(entries.map((entry) => ({
		userId: entry.userId, username: entry.username, modelName: entry.model, createdAt: entry.at, type: entry.type ?? LOG_TYPE.consume,
		promptTokens: entry.prompt, completionTokens: entry.completion, quota: entry.quota,
	})))
}

async function buckets(store: Store) {
	const { quotaData } = store.tables
	return store.db.select().from(quotaData).orderBy(asc(quotaData.createdAt), asc(quotaData.userId), asc(quotaData.modelName))
}

const bucketValues = (rows: Awaited<ReturnType<typeof buckets>>) =>
	rows.map(({ userId, username, modelName, createdAt, tokenUsed, count, quota }) => ({ userId, username, modelName, createdAt, tokenUsed, count, quota }))

for (const target of databaseTargets()) {
	describe(`the dashboard export on ${target.dialect}`, () => {
		const opened: { close(): Promise<unknown> }[] = []
		const schedules: DataExportSchedule[] = []
		afterEach(async () => {
			await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()))
			for (const item of opened.splice(0).reverse()) await item.close()
		})
		const openStore = async () => {
			const store = await target.open()
			opened.push(store)
			return store
		}
		// Two hours ago, on the hour: every fixture lies in the last few hours, as a live export sees them.
		const hour = Math.floor(nowSeconds() / HOUR) * HOUR - 2 * HOUR

		test('sums consume logs into one bucket per user, model and hour, and ignores other log types', async () => {
			const store = await openStore()
			await addLogs(store, [
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + 10, prompt: 100, completion: 20, quota: 300 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + HOUR - 1, prompt: 50, completion: 5, quota: 200 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + HOUR, prompt: 7, completion: 3, quota: 40 },
				{ userId: 1, username: 'alice', model: 'claude-3-haiku', at: hour + 20, prompt: 10, completion: 10, quota: 60 },
				{ userId: 2, username: 'bob', model: 'gpt-4o-mini', at: hour + 30, prompt: 1, completion: 1, quota: 9 },
				{ userId: 2, username: 'bob', model: 'gpt-4o-mini', at: hour + 40, prompt: 500, completion: 500, quota: 0, type: LOG_TYPE.unknown },
			])
			const summary = await exportQuotaData(store)
			expect(summary).toEqual({ from: 0, buckets: 4 })
			expect(bucketValues(await buckets(store))).toEqual([
				{ userId: 1, username: 'alice', modelName: 'claude-3-haiku', createdAt: hour, tokenUsed: 20, count: 1, quota: 60 },
				{ userId: 1, username: 'alice', modelName: 'gpt-4o-mini', createdAt: hour, tokenUsed: 175, count: 2, quota: 500 },
				{ userId: 2, username: 'bob', modelName: 'gpt-4o-mini', createdAt: hour, tokenUsed: 2, count: 1, quota: 9 },
				{ userId: 1, username: 'alice', modelName: 'gpt-4o-mini', createdAt: hour + HOUR, tokenUsed: 10, count: 1, quota: 40 },
			])
		})

		test('a rerun changes nothing, and a later run recounts the newest hours without counting a call twice', async () => {
			const store = await openStore()
			await addLogs(store, [
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + 10, prompt: 100, completion: 20, quota: 300 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + HOUR + 10, prompt: 10, completion: 0, quota: 30 },
			])
			await exportQuotaData(store)
			const first = await buckets(store)
			expect((await exportQuotaData(store)).from).toBe(hour)
			expect(await buckets(store)).toEqual(first)

			// A call in the newest hour, and a late one committed into the hour before it.
			await addLogs(store, [
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + HOUR + 20, prompt: 5, completion: 5, quota: 10 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + 50, prompt: 1, completion: 1, quota: 2 },
			])
			await exportQuotaData(store)
			await exportQuotaData(store)
			const after = await buckets(store)
			expect(bucketValues(after)).toEqual([
				{ userId: 1, username: 'alice', modelName: 'gpt-4o-mini', createdAt: hour, tokenUsed: 122, count: 2, quota: 302 },
				{ userId: 1, username: 'alice', modelName: 'gpt-4o-mini', createdAt: hour + HOUR, tokenUsed: 20, count: 2, quota: 40 },
			])
			expect(after.map((row) => row.id)).toEqual(first.map((row) => row.id))
		})

		test('buckets survive the log cleanup: older hours are not recomputed and a thinned hour keeps its count', async () => {
			const store = await openStore()
			const old = hour - 30 * 24 * HOUR
			await addLogs(store, [
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: old + 5, prompt: 10, completion: 10, quota: 50 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + 5, prompt: 10, completion: 10, quota: 50 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + 600, prompt: 10, completion: 10, quota: 50 },
			])
			await exportQuotaData(store)
			const before = bucketValues(await buckets(store))
			expect(before.map((bucket) => [bucket.createdAt, bucket.count])).toEqual([[old, 1], [hour, 2]])

			// The cleanup removes the old hour's log and one of the recent hour's two.
			const app = { store } as Parameters<typeof deleteLogsBefore>[0]
			expect(await deleteLogsBefore(app, hour + 60, { id: 1, username: 'root', role: ROLE.root })).toBe(2)
			await exportQuotaData(store)
			expect(bucketValues(await buckets(store))).toEqual(before)
		})

		test('the schedule writes nothing while DataExportEnabled is off, and exports once it is turned on', async () => {
			const ferry = await createTestApp({ open: openStore })
			await ferry.dependencies.options.set('DataExportEnabled', 'false')
			await addLogs(ferry.store, [{ userId: 1, username: 'root', model: 'gpt-4o-mini', at: hour + 5, prompt: 1, completion: 2, quota: 3 }])
			const runs: ExportSummary[] = []
			schedules.push(startDataExport(ferry.dependencies, { workerUrl: WORKER_URL, holder: 'node-a/1', intervalMs: INTERVAL_MS, tickMs: TICK_MS, onRun: (summary) => runs.push(summary) }))
			await Bun.sleep(5 * TICK_MS)
			expect(runs).toEqual([])
			expect(await buckets(ferry.store)).toEqual([])

			await ferry.dependencies.options.set('DataExportEnabled', 'true')
			await eventually(async () => runs.length > 0, INTERVAL_MS + 2_000)
			expect(bucketValues(await buckets(ferry.store))).toEqual([
				{ userId: 1, username: 'root', modelName: 'gpt-4o-mini', createdAt: hour, tokenUsed: 3, count: 1, quota: 3 },
			])
		})

		test('of two nodes on one database only the lease holder exports', async () => {
			const [first, second] = await target.openTwo()
			opened.push(first)
			const nodeA = await createTestApp({ open: async () => first })
			const nodeB = await createTestApp({ open: async () => second })
			await addLogs(first, [{ userId: 1, username: 'root', model: 'gpt-4o-mini', at: hour + 5, prompt: 4, completion: 4, quota: 8 }])
			const runsA: ExportSummary[] = []
			const runsB: ExportSummary[] = []
			const input = { workerUrl: WORKER_URL, intervalMs: INTERVAL_MS, tickMs: TICK_MS }
			schedules.push(startDataExport(nodeA.dependencies, { ...input, holder: 'node-a/1', onRun: (summary) => runsA.push(summary) }))
			schedules.push(startDataExport(nodeB.dependencies, { ...input, holder: 'node-b/1', onRun: (summary) => runsB.push(summary) }))
			await eventually(async () => runsA.length + runsB.length >= 3, 4 * INTERVAL_MS + 2_000)

			// Whoever took the lease first keeps renewing it; the other never runs.
			expect(runsA.length === 0 || runsB.length === 0).toBe(true)
			const holder = runsA.length > 0 ? 'node-a/1' : 'node-b/1'
			const other = holder === 'node-a/1' ? 'node-b/1' : 'node-a/1'
			expect(await takeLease(first, DATA_EXPORT_LEASE, other, 60)).toBe(false)
			expect(await takeLease(first, DATA_EXPORT_LEASE, holder, 60)).toBe(true)
			expect(bucketValues(await buckets(second))).toEqual([
				{ userId: 1, username: 'root', modelName: 'gpt-4o-mini', createdAt: hour, tokenUsed: 8, count: 1, quota: 8 },
			])
		})
	})
}
