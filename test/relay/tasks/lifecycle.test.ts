/**
 * A task's life and its hold across time, restarts and nodes (docs/architecture.md#the-task-pipeline): a task that outlives
 * TaskTimeoutMinutes fails and is refunded; the reconciler never frees the hold of a task that is
 * still alive; two nodes polling one database settle each finished task once.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { reconcileHolds } from '@/billing/reconciler'
import { pollTasks } from '@/relay/tasks/polling'
import { nowSeconds } from '@/lib/clock'
import { createTestApp } from '../../helpers/app'
import { databaseTargets } from '../../helpers/database'
import { PRICE, startTaskHarness, type TaskHarness } from '../../helpers/task-relay'

const SECONDS_PER_MINUTE = 60

for (const target of databaseTargets()) {
	describe(`task lifecycles on ${target.dialect}`, () => {
		const opened: TaskHarness[] = []
		afterEach(async () => {
			for (const harness of opened.splice(0)) await harness.close()
		})
		const start = async (open = target.open) => {
			const harness = await startTaskHarness({ open })
			opened.push(harness)
			return harness
		}
		const holdOf = async (tasks: TaskHarness, table: 'midjourneys' | 'tasks', id: string) => {
			const { store } = tasks.harness.ferry
			const { midjourneys, tasks: songs, quotaHolds } = store.tables
			const [row] = table === 'midjourneys'
				? await store.db.select({ requestId: midjourneys.requestId, status: midjourneys.status }).from(midjourneys).where(eq(midjourneys.mjId, id))
				: await store.db.select({ requestId: songs.requestId, status: songs.status }).from(songs).where(eq(songs.taskId, id))
			const [hold] = await store.db.select().from(quotaHolds).where(eq(quotaHolds.requestId, row!.requestId))
			return { status: row!.status, hold: hold! }
		}

		test('a task that outlives TaskTimeoutMinutes fails, and its hold is returned with a log line', async () => {
			const tasks = await start()
			const { store, dependencies } = tasks.harness.ferry
			await dependencies.options.set('TaskTimeoutMinutes', '30')
			const before = await tasks.account(tasks.alice)
			const drawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'slow' } })).body.result
			const song = (await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'slow' } })).body.data
			// Submitted 31 minutes ago, as far as the store knows.
			const longAgo = nowSeconds() - 31 * SECONDS_PER_MINUTE
			await store.db.update(store.tables.tasks).set({ submitTime: longAgo }).where(eq(store.tables.tasks.taskId, drawing))
			await store.db.update(store.tables.tasks).set({ submitTime: longAgo }).where(eq(store.tables.tasks.taskId, song))
			// The upstream still reports them running: the timeout wins.
			tasks.midjourney.report(drawing, 'task-in-progress.json')
			expect(await tasks.poll()).toMatchObject({ timedOut: 2 })
			expect(await tasks.account(tasks.alice)).toEqual(before)
			expect((await tasks.call('GET', `/mj/task/${drawing}/fetch`, { key: tasks.alice.key })).body).toMatchObject({ status: 'FAILURE', failReason: 'the task did not finish within 30 minutes' })
			expect((await holdOf(tasks, 'midjourneys', drawing)).hold).toMatchObject({ state: 'voided', reason: 'task_timeout' })
			expect((await holdOf(tasks, 'tasks', song)).hold).toMatchObject({ state: 'voided', reason: 'task_timeout' })
			const lines = (await tasks.logs(tasks.alice)).filter((log) => log.type === LOG_TYPE.system)
			expect(lines.map((line) => line.content)).toEqual([
				`the drawing task ${drawing} failed (the task did not finish within 30 minutes); its hold of ${PRICE.mj_imagine} quota was returned`,
				`the task ${song} failed (the task did not finish within 30 minutes); its hold of ${PRICE.suno_music} quota was returned`,
			])
		})

		test('the reconciler never frees the hold of a live task, past its deadline or after a restart; the task\'s end still bills it once', async () => {
			const tasks = await start()
			const { store, relay } = tasks.harness.ferry
			const drawing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'patient' } })).body.result
			const { hold } = await holdOf(tasks, 'midjourneys', drawing)
			// Its deadline long past, and the node that submitted it restarted.
			await store.db.update(store.tables.quotaHolds).set({ deadline: nowSeconds() - 3600 }).where(eq(store.tables.quotaHolds.requestId, hold.requestId))
			const restarted = `${relay.nodeInstance.split('/')[0]}/restarted`
			expect(await reconcileHolds(store, restarted)).toBe(0)
			expect((await holdOf(tasks, 'midjourneys', drawing)).hold.state).toBe('pending')

			tasks.midjourney.report(drawing, 'task-success.json')
			expect(await tasks.poll()).toMatchObject({ succeeded: 1 })
			expect((await holdOf(tasks, 'midjourneys', drawing)).hold).toMatchObject({ state: 'settled', charged: PRICE.mj_imagine })
			expect(await reconcileHolds(store, restarted)).toBe(0)
			expect((await tasks.account(tasks.alice)).used).toBe(PRICE.mj_imagine)
		})

		test('a hold whose task was never recorded (the node died mid-submit) is freed by the reconciler as before', async () => {
			const tasks = await start()
			const { store, relay } = tasks.harness.ferry
			const { reserve } = await import('@/billing/holds')
			await reserve(relay.ledger, { requestId: 'orphan-submit', userId: tasks.alice.userId, tokenId: tasks.alice.tokenId, tokenLimited: true, amount: PRICE.mj_imagine, node: relay.nodeInstance })
			expect(await reconcileHolds(store, `${relay.nodeInstance.split('/')[0]}/restarted`)).toBe(1)
			expect(await tasks.account(tasks.alice)).toMatchObject({ quota: 1_000_000, used: 0 })
		})

		test('a task whose channel was deleted fails at the next round and is refunded', async () => {
			const tasks = await start()
			const before = await tasks.account(tasks.alice)
			const song = (await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: 'orphaned' } })).body.data
			expect((await tasks.harness.ferry.call('DELETE', `/api/channel/${tasks.sunoChannelId}/`, { as: tasks.harness.root })).body.success).toBe(true)
			expect(await tasks.poll()).toMatchObject({ failed: 1 })
			expect(await tasks.account(tasks.alice)).toEqual(before)
			expect((await tasks.call('GET', `/suno/fetch/${song}`, { key: tasks.alice.key })).body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'the channel that ran the task no longer exists' })
		})

		test('an upstream\'s words with a NUL or a lone surrogate in them (a refusal quoting the prompt, a failure reason) are kept without them, and the round goes on', async () => {
			// Postgres refuses a NUL: the refused task's record answered a 500, and the report's write failed the whole round, every round.
			const tasks = await start()
			const { store } = tasks.harness.ferry
			const before = await tasks.account(tasks.alice)
			tasks.midjourney.answerNextSubmit('submit-banned-prompt.json', 200, { description: 'Banned prompt: a\u0000b \ud800' })
			const refused = await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'a\u0000b' } })
			expect(refused).toMatchObject({ status: 400, body: { code: 24, description: 'Banned prompt: a\u0000b \ud800' } })
			const [refusal] = await store.db.select().from(store.tables.tasks).where(eq(store.tables.tasks.status, 'FAILURE'))
			expect(refusal!.failReason).toBe('Banned prompt: ab \ufffd')
			const failing = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'first' } })).body.result
			const succeeding = (await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: 'second' } })).body.result
			tasks.midjourney.report(failing, 'task-failure.json')
			Object.assign(tasks.midjourney.task(failing), { failReason: 'Banned prompt: a\u0000b \ud800', progress: '5%\u0000' })
			tasks.midjourney.report(succeeding, 'task-success.json')
			expect(await tasks.poll()).toMatchObject({ failed: 1, succeeded: 1 })
			expect((await tasks.call('GET', `/mj/task/${failing}/fetch`, { key: tasks.alice.key })).body).toMatchObject({ status: 'FAILURE', failReason: 'Banned prompt: ab \ufffd', progress: '5%' })
			expect(await tasks.account(tasks.alice)).toMatchObject({ quota: before.quota - PRICE.mj_imagine, used: PRICE.mj_imagine })
			const lines = (await tasks.logs(tasks.alice)).filter((log) => log.type === LOG_TYPE.system)
			expect(lines.map((line) => line.content)).toEqual([
				`the upstream refused the mj_imagine task (Banned prompt: ab \ufffd); its hold of ${PRICE.mj_imagine} quota was returned`,
				`the drawing task ${failing} failed (Banned prompt: ab \ufffd); its hold of ${PRICE.mj_imagine} quota was returned`,
			])
		})

		test('two nodes polling the same database settle each finished task once, and refund each failed one once', async () => {
			const [first, second] = await target.openTwo()
			const tasks = await start(async () => first)
			// Started after the setup, so it reads the options and channels as they are now.
			const other = await createTestApp({ open: async () => ({ ...second, close: async () => {} }) })
			const drawings: string[] = []
			const songs: string[] = []
			for (let index = 0; index < 4; index++) {
				drawings.push((await tasks.call('POST', '/mj/submit/imagine', { key: tasks.alice.key, body: { prompt: `picture ${index}` } })).body.result)
				songs.push((await tasks.call('POST', '/suno/submit/music', { key: tasks.alice.key, body: { prompt: `song ${index}` } })).body.data)
			}
			drawings.forEach((id, index) => tasks.midjourney.report(id, index < 3 ? 'task-success.json' : 'task-failure.json'))
			tasks.suno.taskIds.forEach((id, index) => tasks.suno.report(id, index < 3 ? 'task-success.json' : 'task-failure.json'))
			const rounds = await Promise.all([
				pollTasks(tasks.harness.ferry.dependencies, tasks.harness.ferry.relay), pollTasks(other.dependencies, other.relay),
				pollTasks(tasks.harness.ferry.dependencies, tasks.harness.ferry.relay), pollTasks(other.dependencies, other.relay),
			])
			expect(rounds.reduce((sum, round) => sum + round.succeeded, 0)).toBe(6)
			expect(rounds.reduce((sum, round) => sum + round.failed, 0)).toBe(2)
			const charged = 3 * PRICE.mj_imagine + 3 * PRICE.suno_music
			expect(await tasks.account(tasks.alice)).toEqual({ quota: 1_000_000 - charged, used: charged, remain: 1_000_000 - charged, tokenUsed: charged })
			const lines = await tasks.logs(tasks.alice)
			expect(lines.filter((line) => line.type === LOG_TYPE.consume)).toHaveLength(6)
			expect(lines.filter((line) => line.type === LOG_TYPE.system)).toHaveLength(2)
		})
	})
}
