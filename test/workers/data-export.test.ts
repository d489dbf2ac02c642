/**
 * The dashboard export: consume logs become hourly buckets per user and model in `quota_data`,
 * a run repeated or after a log cleanup changes nothing it should not, and one node runs it.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, asc, eq, gt, or } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { QuotaData } from '@shared/quota-data'
import { deleteLogsBefore } from '@/api/logs'
import { ROLE } from '@shared/user'
import { exportQuotaData } from '@/api/data/export'
import { openBucketReader } from '@/api/data/bucket-reader'
import { DATA_EXPORT_LEASE, startDataExport, type DataExportSchedule } from '@/api/data/schedule'
import type { ExportSummary } from '@/api/data/export'
import { execute, openStore, type Store } from '@/db'
import { takeLease } from '@/db/lease'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { median, probeThroughout } from '../helpers/stall-probe'

const WORKER_URL = new URL('../../src/workers/schedule-clock.ts', import.meta.url)
const EXPORT_WORKER_URL = new URL('../../src/workers/data-export.ts', import.meta.url)
const INTERVAL_MS = 300
const TICK_MS = 30
const HOUR = 3600

type LogFixture = { userId: number; username: string; model: string; at: number; prompt: number; completion: number; quota: number; type?: number; other?: string }

async function addLogs(store: Store, entries: LogFixture[]) {
	const { logs } = store.tables
	await store.db.insert(logs).values(entries.map((entry) => ({
		userId: entry.userId, username: entry.username, modelName: entry.model, createdAt: entry.at, type: entry.type ?? LOG_TYPE.consume,
		promptTokens: entry.prompt, completionTokens: entry.completion, quota: entry.quota, other: entry.other ?? '',
	})))
}

async function buckets(store: Store) {
	const { quotaData } = store.tables
	return store.db.select().from(quotaData).orderBy(asc(quotaData.createdAt), asc(quotaData.userId), asc(quotaData.modelName))
}

const bucketValues = (rows: Awaited<ReturnType<typeof buckets>>) =>
	rows.map(({ userId, username, modelName, createdAt, tokenUsed, count, quota }) => ({ userId, username, modelName, createdAt, tokenUsed, count, quota }))

/** What the buckets of `entries` are, summed here: consume logs only, channel tests left out. */
function expectedBuckets(entries: LogFixture[]) {
	const sums = new Map<string, { userId: number; username: string; modelName: string; createdAt: number; tokenUsed: number; count: number; quota: number }>()
	for (const entry of entries) {
		if ((entry.type ?? LOG_TYPE.consume) !== LOG_TYPE.consume || entry.other?.includes('"channel_test":true')) continue
		const createdAt = entry.at - (entry.at % HOUR)
		const key = `${entry.userId}/${entry.model}/${createdAt}`
		const bucket = sums.get(key) ?? { userId: entry.userId, username: entry.username, modelName: entry.model, createdAt, tokenUsed: 0, count: 0, quota: 0 }
		bucket.tokenUsed += entry.prompt + entry.completion
		bucket.count++
		bucket.quota += entry.quota
		sums.set(key, bucket)
	}
	return [...sums.values()].sort((first, second) => first.createdAt - second.createdAt || first.userId - second.userId || (first.modelName < second.modelName ? -1 : 1))
}

/**
 * Every database, and SQLite twice: in memory (the statement runs in the database, as on Postgres)
 * and on a file, where the logs are read on the export's own thread and the main thread writes.
 */
const exportTargets = databaseTargets().flatMap((target) => target.dialect === 'sqlite'
	? [{ ...target, name: 'an in-memory SQLite' }, { ...target, name: 'a SQLite file', open: async () => (await target.openTwo())[0] }]
	: [{ ...target, name: 'Postgres' }])

for (const target of exportTargets) {
	describe(`the dashboard export on ${target.name}`, () => {
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
			const summary = await exportQuotaData(store, EXPORT_WORKER_URL)
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
			await exportQuotaData(store, EXPORT_WORKER_URL)
			const first = await buckets(store)
			expect((await exportQuotaData(store, EXPORT_WORKER_URL)).from).toBe(hour)
			expect(await buckets(store)).toEqual(first)

			// A call in the newest hour, and a late one committed into the hour before it.
			await addLogs(store, [
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + HOUR + 20, prompt: 5, completion: 5, quota: 10 },
				{ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour + 50, prompt: 1, completion: 1, quota: 2 },
			])
			await exportQuotaData(store, EXPORT_WORKER_URL)
			await exportQuotaData(store, EXPORT_WORKER_URL)
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
			await exportQuotaData(store, EXPORT_WORKER_URL)
			const before = bucketValues(await buckets(store))
			expect(before.map((bucket) => [bucket.createdAt, bucket.count])).toEqual([[old, 1], [hour, 2]])

			// The cleanup removes the old hour's log and one of the recent hour's two.
			const app = { store } as Parameters<typeof deleteLogsBefore>[0]
			expect(await deleteLogsBefore(app, hour + 60, { id: 1, username: 'root', role: ROLE.root })).toBe(2)
			await exportQuotaData(store, EXPORT_WORKER_URL)
			expect(bucketValues(await buckets(store))).toEqual(before)
		})

		test('a first run over months of logs with gaps counts every consume log once, in whole hourly buckets, leaving channel tests out', async () => {
			const store = await openStore()
			const entries: LogFixture[] = []
			// Single days long ago, then three days of logs every 20 minutes (crossing days and whatever hours a read ends on), then the last hours.
			for (const daysAgo of [400, 30]) entries.push({ userId: 3, username: 'carol', model: 'gpt-4o', at: hour - daysAgo * 24 * HOUR + 77, prompt: 3, completion: 4, quota: 11 })
			for (let at = hour - 3 * 24 * HOUR; at < hour + 2 * HOUR; at += 20 * 60) {
				const index = entries.length
				entries.push({ userId: 1 + (index % 2), username: index % 2 ? 'bob' : 'alice', model: index % 3 ? 'gpt-4o-mini' : 'claude-3-haiku', at: at + (index % 7), prompt: index, completion: 1, quota: 10 + index })
			}
			entries.push({ userId: 1, username: 'alice', model: 'gpt-4o-mini', at: hour - 24 * HOUR + 5, prompt: 900, completion: 900, quota: 900, other: '{"channel_test":true}' })
			entries.push({ userId: 2, username: 'bob', model: 'gpt-4o-mini', at: hour - 24 * HOUR + 6, prompt: 800, completion: 800, quota: 0, type: LOG_TYPE.topUp })
			await addLogs(store, entries)

			const expected = expectedBuckets(entries)
			expect(await exportQuotaData(store, EXPORT_WORKER_URL)).toEqual({ from: 0, buckets: expected.length })
			expect(bucketValues(await buckets(store))).toEqual(expected)
		})

		test('a run stopped partway loses nothing: the next one recomputes from the hour before the newest bucket written', async () => {
			const store = await openStore()
			const entries: LogFixture[] = []
			for (let at = hour - 2 * 24 * HOUR; at < hour + 2 * HOUR; at += 15 * 60) {
				for (const [userId, username] of [[1, 'alice'], [2, 'bob']] as const) entries.push({ userId, username, model: 'gpt-4o-mini', at, prompt: 2, completion: 3, quota: 5 })
			}
			await addLogs(store, entries)
			const expected = expectedBuckets(entries)

			// As a run writing in hour order leaves it when it stops: hours up to one written, that hour only in part.
			const stoppedAt = hour - 30 * HOUR
			await exportQuotaData(store, EXPORT_WORKER_URL)
			const { quotaData } = store.tables
			await store.db.delete(quotaData).where(or(gt(quotaData.createdAt, stoppedAt), and(eq(quotaData.createdAt, stoppedAt), eq(quotaData.userId, 2))))
			expect((await buckets(store)).at(-1)?.createdAt).toBe(stoppedAt)

			expect((await exportQuotaData(store, EXPORT_WORKER_URL)).from).toBe(stoppedAt - HOUR)
			expect(bucketValues(await buckets(store))).toEqual(expected)
		})

		test('the schedule writes nothing while DataExportEnabled is off, and exports once it is turned on', async () => {
			const ferry = await createTestApp({ open: openStore })
			await ferry.dependencies.options.set('DataExportEnabled', 'false')
			await addLogs(ferry.store, [{ userId: 1, username: 'root', model: 'gpt-4o-mini', at: hour + 5, prompt: 1, completion: 2, quota: 3 }])
			const runs: ExportSummary[] = []
			schedules.push(startDataExport(ferry.dependencies, { workerUrl: WORKER_URL, exportWorkerUrl: EXPORT_WORKER_URL, holder: 'node-a/1', intervalMs: INTERVAL_MS, tickMs: TICK_MS, onRun: (summary) => runs.push(summary) }))
			await Bun.sleep(5 * TICK_MS)
			expect(runs).toEqual([])
			expect(await buckets(ferry.store)).toEqual([])

			await ferry.dependencies.options.set('DataExportEnabled', 'true')
			await eventually(async () => runs.length > 0)
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
			const input = { workerUrl: WORKER_URL, exportWorkerUrl: EXPORT_WORKER_URL, intervalMs: INTERVAL_MS, tickMs: TICK_MS }
			schedules.push(startDataExport(nodeA.dependencies, { ...input, holder: 'node-a/1', onRun: (summary) => runsA.push(summary) }))
			schedules.push(startDataExport(nodeB.dependencies, { ...input, holder: 'node-b/1', onRun: (summary) => runsB.push(summary) }))
			await eventually(async () => runsA.length + runsB.length >= 3)

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

/** A million consume logs from 100 users × 10 models (over four hours: ten minutes of a busy node). */
const LOAD_LOGS = 1_000_000
const LOAD_HOURS = 4
const LOAD_USERS = 100
const LOAD_MODELS = 10
const STATUS_BOUND_MS = 300

/**
 * Straight into the table in one statement (a bulk import would be slower and prove nothing more),
 * spread evenly over `seconds` from `first`.
 */
function* seedConsumeLogs(first: number, seconds: number) {
	return yield* execute(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $1 - 1)
		INSERT INTO logs (user_id, username, model_name, created_at, type, prompt_tokens, completion_tokens, quota)
		SELECT 1 + i % $2, 'user-' || (1 + i % $2), 'model-' || (i / $2 % $3), $4 + i * $5 / $1, $6, 10, 5, 7 FROM n`,
	[LOAD_LOGS, LOAD_USERS, LOAD_MODELS, first, seconds, LOG_TYPE.consume])
}

describe('the dashboard of a busy SQLite node', () => {
	let dataDir: string | undefined
	let ferry: TestApp | undefined
	afterEach(async () => {
		await ferry?.app.stop(true)
		await ferry?.close()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
		ferry = undefined
		dataDir = undefined
	})

	test('a first export over a million consume logs counts every one while /api/status keeps answering others within 300 ms', async () => {
		dataDir = mkdtempSync(join(tmpdir(), 'ferry-export-'))
		const directory = dataDir
		ferry = await createTestApp({ open: () => openStore({ databaseUrl: '', dataDir: directory }) })
		ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
		const firstHour = Math.floor(nowSeconds() / HOUR) * HOUR - LOAD_HOURS * HOUR
		expect(await ferry.store.transaction(() => seedConsumeLogs(firstHour, LOAD_HOURS * HOUR))).toBe(LOAD_LOGS)

		const probe = probeThroughout(`http://127.0.0.1:${ferry.app.server!.port}`)
		const summary = await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
		const latencies = await probe.stop()

		expect(summary).toEqual({ from: 0, buckets: LOAD_HOURS * LOAD_USERS * LOAD_MODELS })
		const [totals] = await ferry.store.read<{ buckets: number; count: number; quota: number }>(
			'SELECT COUNT(*) AS buckets, SUM(count) AS count, SUM(quota) AS quota FROM quota_data')
		expect(totals).toEqual({ buckets: LOAD_HOURS * LOAD_USERS * LOAD_MODELS, count: LOAD_LOGS, quota: 7 * LOAD_LOGS })
		expect(latencies.length).toBeGreaterThan(0)
		expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		expect(Math.max(...latencies)).toBeLessThan(STATUS_BOUND_MS)
	}, 60_000)

	test('at most two reading threads are open at once: a third reader waits for one of them to close', async () => {
		dataDir = mkdtempSync(join(tmpdir(), 'ferry-readers-'))
		const store = await openStore({ databaseUrl: '', dataDir })
		try {
			const file = store.wal!.file
			const [first, second] = await Promise.all([openBucketReader(EXPORT_WORKER_URL, file), openBucketReader(EXPORT_WORKER_URL, file)])
			let thirdOpened = false
			const third = openBucketReader(EXPORT_WORKER_URL, file).then((reader) => {
				thirdOpened = true
				return reader
			})
			await Bun.sleep(200)
			expect(thirdOpened).toBe(false)
			expect(await first.read(0, HOUR)).toEqual([])
			await first.close()
			const opened = await third
			expect(thirdOpened).toBe(true)
			expect(await opened.read(0, HOUR)).toEqual([])
			await Promise.all([second.close(), opened.close()])
		} finally {
			await store.close()
		}
	})

	test('an admin\'s dashboard sums a million consume logs not exported yet, every one, while /api/status keeps answering others within 300 ms', async () => {
		dataDir = mkdtempSync(join(tmpdir(), 'ferry-live-'))
		const directory = dataDir
		ferry = await createTestApp({ open: () => openStore({ databaseUrl: '', dataDir: directory }) })
		ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
		// The previous hour and the current one up to now: the hours a dashboard reads from the log until the export reaches them.
		const now = nowSeconds()
		const previousHour = now - (now % HOUR) - HOUR
		expect(await ferry.store.transaction(() => seedConsumeLogs(previousHour, now - previousHour + 1))).toBe(LOAD_LOGS)
		const root = await ferry.loginRoot()

		const probe = probeThroughout(`http://127.0.0.1:${ferry.app.server!.port}`)
		const answer = await ferry.call<QuotaData[]>('GET', `/api/data/?start_timestamp=${previousHour}&end_timestamp=${now}`, { as: root })
		const latencies = await probe.stop()

		expect(answer.body.success).toBe(true)
		const live = answer.body.data!
		expect(live.every((bucket) => bucket.id === 0 && (bucket.created_at === previousHour || bucket.created_at === previousHour + HOUR))).toBe(true)
		expect(live.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(LOAD_LOGS)
		expect(live.reduce((sum, bucket) => sum + bucket.quota, 0)).toBe(7 * LOAD_LOGS)
		expect(new Set(live.map((bucket) => bucket.user_id)).size).toBe(LOAD_USERS)
		expect(latencies.length).toBeGreaterThan(0)
		expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		expect(Math.max(...latencies)).toBeLessThan(STATUS_BOUND_MS)
	}, 60_000)
})
