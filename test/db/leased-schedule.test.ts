/**
 * Leased schedules share one clock: every job started with the clock worker's URL ticks from the
 * same Bun worker thread, each at its own rate, and the thread ends with the last job. A scheduled
 * job (`startScheduledJob`) takes a test's interval and tick, hands its summaries to `onRun`, and
 * stays off while it is not enabled.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import type { Store } from '@/db'
import { startLeasedSchedule, startScheduledJob, type LeasedSchedule } from '@/db/leased-schedule'
import { silentLogger } from '@/lib/logger'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'

const CLOCK_URL = new URL('../../src/workers/schedule-clock.ts', import.meta.url)
const JOB_COUNT = 4
const BASE_TICK_MS = 15

/** Counts the Bun workers started while it is installed. */
function countWorkers() {
	const RealWorker = globalThis.Worker
	const counter = { started: 0, restore: () => { globalThis.Worker = RealWorker } }
	globalThis.Worker = class extends RealWorker {
		constructor(...args: ConstructorParameters<typeof Worker>) {
			super(...args)
			counter.started++
		}
	}
	return counter
}

for (const target of databaseTargets()) {
	describe(`leased schedules on ${target.dialect}`, () => {
		let store: Store
		let workers: ReturnType<typeof countWorkers>
		const schedules: LeasedSchedule[] = []
		const start = (name: string, tickMs: number, runs: number[]) => {
			const schedule = startLeasedSchedule(store, silentLogger, {
				lease: name, workerUrl: CLOCK_URL, holder: 'node-a/1', intervalMs: () => 1, tickMs, runAtStart: true,
				description: name, run: async () => { runs.push(performance.now()) },
			})
			schedules.push(schedule)
			return schedule
		}

		beforeEach(async () => {
			store = await target.open()
			workers = countWorkers()
		})
		afterEach(async () => {
			await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()))
			workers.restore()
			await store.close()
		})

		test('every job runs from one clock worker thread, each at its own tick', async () => {
			const runs = Array.from({ length: JOB_COUNT }, () => [] as number[])
			runs.forEach((jobRuns, index) => start(`job-${index}`, BASE_TICK_MS * (index + 1), jobRuns))

			await eventually(async () => runs.every((jobRuns) => jobRuns.length >= 3))
			expect(workers.started).toBe(1)
		})

		test('a stopped job stops ticking while the others go on, and the thread ends with the last job', async () => {
			const stoppedRuns: number[] = []
			const keptRuns: number[] = []
			const stopped = start('stopped', BASE_TICK_MS, stoppedRuns)
			start('kept', BASE_TICK_MS, keptRuns)
			await eventually(async () => stoppedRuns.length >= 2 && keptRuns.length >= 2)

			await stopped.stop()
			const runsAtStop = stoppedRuns.length
			const keptAtStop = keptRuns.length
			await eventually(async () => keptRuns.length >= keptAtStop + 3)
			expect(stoppedRuns.length).toBe(runsAtStop)

			await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()))
			const laterRuns: number[] = []
			start('later', BASE_TICK_MS, laterRuns)
			await eventually(async () => laterRuns.length >= 2)
			expect(workers.started).toBe(2)
		})

		test('a scheduled job runs at the caller\'s interval and tick, its summaries reach onRun, and it is off while not enabled', async () => {
			let enabled = false
			let runs = 0
			const summaries: number[] = []
			schedules.push(startScheduledJob(store, silentLogger, { workerUrl: CLOCK_URL, holder: 'node-a/1', intervalMs: 1, tickMs: BASE_TICK_MS, onRun: (summary) => summaries.push(summary) }, {
				lease: 'scheduled-job', description: 'scheduled job', intervalMs: () => 60 * 60_000, tickMs: 60_000, runAtStart: true,
				enabled: () => enabled,
				run: async () => ++runs,
			}))
			// Many ticks pass with the job off: it never runs.
			const tickRuns: number[] = []
			start('witness', BASE_TICK_MS, tickRuns)
			await eventually(async () => tickRuns.length >= 5)
			expect(runs).toBe(0)

			enabled = true
			await eventually(async () => summaries.length >= 3)
			expect(summaries.slice(0, 3)).toEqual([1, 2, 3])
		})

		test('a scheduled job started without onRun, as a node starts every job, still runs', async () => {
			let runs = 0
			schedules.push(startScheduledJob(store, silentLogger, { workerUrl: CLOCK_URL, holder: 'node-a/1', intervalMs: 1, tickMs: BASE_TICK_MS }, {
				lease: 'unheard-job', description: 'unheard job', intervalMs: () => 60 * 60_000, tickMs: 60_000, runAtStart: true,
				run: async () => ++runs,
			}))
			await eventually(async () => runs >= 3)
		})
	})
}
