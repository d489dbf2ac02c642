/**
 * Leased schedules keep time with timers on the main thread: no worker thread, each job at its own
 * tick, and a busy main thread delays a due run only until it is free.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import type { Store } from '@/db'
import { startLeasedSchedule, type LeasedSchedule } from '@/db/leased-schedule'
import { silentLogger } from '@/lib/logger'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'

const JOB_COUNT = 4
const BASE_TICK_MS = 15
const BUSY_MS = 300
/** Generous: one tick and a lease round trip, on a shared machine. */
const LATE_RUN_BOUND_MS = 250

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
		const start = (name: string, tickMs: number, runs: number[], intervalMs = 1) => {
			const schedule = startLeasedSchedule(store, silentLogger, {
				lease: name, holder: 'node-a/1', intervalMs: () => intervalMs, tickMs, runAtStart: true,
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

		test('every job runs at its own tick without starting a worker thread', async () => {
			const runs = Array.from({ length: JOB_COUNT }, () => [] as number[])
			runs.forEach((jobRuns, index) => start(`job-${index}`, BASE_TICK_MS * (index + 1), jobRuns))

			await eventually(async () => runs.every((jobRuns) => jobRuns.length >= 3))
			expect(workers.started).toBe(0)
		})

		test('a stopped job stops ticking while the others go on', async () => {
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
		})

		test('a run that fell due while the main thread was busy comes as soon as it is free', async () => {
			const runs: number[] = []
			start('busy', BASE_TICK_MS, runs, BASE_TICK_MS * 4)
			await eventually(async () => runs.length >= 1)

			const busyUntil = performance.now() + BUSY_MS
			while (performance.now() < busyUntil) {
				// The main thread is busy: no timer, no message can be handled.
			}
			const freed = performance.now()
			await eventually(async () => runs.some((time) => time >= freed))
			expect(runs.find((time) => time >= freed)! - freed).toBeLessThan(LATE_RUN_BOUND_MS)
		})
	})
}
