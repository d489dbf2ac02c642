/**
 * Task polling on its schedule: a Bun worker ticks, the node holding the `task-polling` lease polls
 * (test/relay/tasks covers what a round does), another node takes over when the holder stops or
 * dies, and TaskPollingIntervalSeconds 0 stops it.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { takeLease } from '@/db/lease'
import { nowSeconds } from '@/lib/clock'
import type { PollSummary } from '@/relay/tasks/polling'
import { startTaskPolling, TASK_POLLING_LEASE } from '@/relay/tasks/schedule'
import type { LeasedSchedule } from '@/db/leased-schedule'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { PRICE, startTaskHarness, type TaskHarness } from '../helpers/task-relay'

const WORKER_URL = new URL('../../src/workers/schedule-clock.ts', import.meta.url)
const INTERVAL_MS = 300
const TICK_MS = 30

for (const target of databaseTargets()) {
	describe(`the task polling schedule on ${target.dialect}`, () => {
		const schedules: LeasedSchedule[] = []
		let tasks: TaskHarness | undefined
		afterEach(async () => {
			await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()))
			await tasks?.close()
			tasks = undefined
		})
		/**
		 * Starts the node's schedule and answers the rounds it runs; `onRun` is told each too.
		 * `interval` left out: INTERVAL_MS; `{}`: the TaskPollingIntervalSeconds option's.
		 */
		const start = (node: Pick<TestApp, 'dependencies' | 'relay'>, holder: string, onRun = (_summary: PollSummary) => {}, interval: { intervalMs?: number } = { intervalMs: INTERVAL_MS }) => {
			const rounds: PollSummary[] = []
			schedules.push(startTaskPolling(node.dependencies, node.relay, { workerUrl: WORKER_URL, holder, ...interval, tickMs: TICK_MS, onRun: (summary) => { rounds.push(summary); onRun(summary) } }))
			return rounds
		}

		test('the worker\'s clock brings a submitted drawing to SUCCESS and its bill, with no one asking', async () => {
			tasks = await startTaskHarness(target)
			start(tasks.harness.ferry, 'node-a/1')
			const id = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'on its own' } })).body.result
			tasks.midjourney.report(id, 'task-success.json')
			await eventually(async () => (await tasks!.call('GET', `/mj/task/${id}/fetch`, { key: tasks!.alice.key })).body.status === 'SUCCESS')
			expect((await tasks.account(tasks.alice)).used).toBe(PRICE.mj_imagine)
		})

		test('started as a node starts it, with no one told of its rounds, the schedule still bills a finished drawing and returns a failed one\'s hold', async () => {
			tasks = await startTaskHarness(target)
			const before = await tasks.account(tasks.alice)
			schedules.push(startTaskPolling(tasks.harness.ferry.dependencies, tasks.harness.ferry.relay, { workerUrl: WORKER_URL, holder: 'node-a/1', intervalMs: INTERVAL_MS, tickMs: TICK_MS }))
			const drawn = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'finished' } })).body.result
			const failed = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'failed' } })).body.result
			tasks.midjourney.report(drawn, 'task-success.json')
			tasks.midjourney.report(failed, 'task-failure.json')
			const { quotaHolds } = tasks.harness.ferry.store.tables
			const pending = () => tasks!.harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))
			await eventually(async () => (await pending()).length === 0)
			expect(await tasks.account(tasks.alice)).toMatchObject({ quota: before.quota - PRICE.mj_imagine, used: PRICE.mj_imagine })
		})

		test('of two nodes only the lease holder polls; when it stops, the other takes over and finishes the work', async () => {
			const [first, second] = await target.openTwo()
			tasks = await startTaskHarness({ open: async () => first })
			const other = await createTestApp({ open: async () => ({ ...second, close: async () => {} }) })
			const roundsA = start(tasks.harness.ferry, 'node-a/1')
			const roundsB = start(other, 'node-b/1')
			await eventually(async () => roundsA.length + roundsB.length >= 3)
			expect(roundsA.length === 0 || roundsB.length === 0).toBe(true)
			const [holderRounds, otherRounds] = roundsA.length > 0 ? [roundsA, roundsB] : [roundsB, roundsA]
			const holderIndex = roundsA.length > 0 ? 0 : 1
			expect(await takeLease(first, TASK_POLLING_LEASE, holderIndex === 0 ? 'node-b/1' : 'node-a/1', 60)).toBe(false)

			// The holder stops (and gives the lease up); a task submitted now is finished by the other node.
			await schedules[holderIndex]!.stop()
			const stoppedAt = holderRounds.length
			const song = (await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'handed over' } })).body.data
			tasks.suno.report(tasks.suno.taskIds.at(-1)!, 'task-success.json')
			await eventually(async () => otherRounds.some((round) => round.succeeded === 1))
			expect(holderRounds.length).toBe(stoppedAt)
			expect((await tasks.call('GET', `/suno/fetch/${song}`, { key: tasks.alice.key })).body.data.status).toBe('SUCCESS')
			expect((await tasks.account(tasks.alice)).used).toBe(PRICE.suno_music)
		})

		test('a node whose holder died takes the lease once it expires, not before', async () => {
			tasks = await startTaskHarness(target)
			const { store } = tasks.harness.ferry
			// A holder that never renews: its lease runs out two seconds from now (whole seconds).
			expect(await takeLease(store, TASK_POLLING_LEASE, 'dead-node/1', 2)).toBe(true)
			const [lease] = await store.db.select().from(store.tables.leases)
			const firstRoundAt: number[] = []
			start(tasks.harness.ferry, 'node-b/1', () => firstRoundAt.push(nowSeconds()))
			await eventually(async () => firstRoundAt.length > 0)
			expect(firstRoundAt[0]!).toBeGreaterThan(lease!.expiresAt)
			const [taken] = await store.db.select().from(store.tables.leases)
			expect(taken!.holder).toBe('node-b/1')
		})

		test('TaskPollingIntervalSeconds 0 stops polling', async () => {
			tasks = await startTaskHarness(target)
			await tasks.harness.ferry.dependencies.options.set('TaskPollingIntervalSeconds', '0')
			const rounds = start(tasks.harness.ferry, 'node-a/1', undefined, {})
			await Bun.sleep(5 * TICK_MS)
			expect(rounds).toEqual([])
		})
	})
}
