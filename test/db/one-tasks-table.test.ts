/**
 * Drawing tasks live in the one `tasks` table: migration 0013 moves the rows of the old
 * `midjourneys` table there (platform `midjourney`, the drawing's own fields as a payload in
 * `data`) with their money and their holds' request ids, drops the table, and leaves a read-only
 * view `midjourneys` that shows the drawings as the table did.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { asc, eq, sql, type SQL } from 'drizzle-orm'
import { TASK_PLATFORM } from '@shared/task-constants'
import type { Store } from '@/db'
import { isLiveTaskHold } from '@/billing/task-holds'
import { embeddedMigrations } from '@/db/migrate'
import { drawingOf } from '@/db/stores/drawings'
import { databaseTargets } from '../helpers/database'

/** Migration 0013's place in the list. */
const DRAWING_MIGRATION = 13

/** The old table's rows, as Ferry wrote them before the migration. */
const OLD_ROWS = [
	{
		code: 1, user_id: 7, action: 'IMAGINE', mj_id: 'mj-done', prompt: 'a lighthouse', prompt_en: 'a lighthouse', description: 'Submit success', state: 'state-1',
		submit_time: 1_700_000_000, start_time: 1_700_000_010, finish_time: 1_700_000_090, image_url: 'https://cdn.example.com/done.png', status: 'SUCCESS',
		progress: '100%', fail_reason: '', channel_id: 3, quota: 50_000, buttons: '[{"customId":"MJ::JOB::upsample::1","label":"U1"}]',
		properties: '{"finalPrompt":"a lighthouse"}', request_id: 'req-done', private_data: '{"group":"default","model":"mj_imagine"}', cost: 20_000,
	},
	{
		code: 1, user_id: 8, action: 'UPSCALE', mj_id: 'mj-running', prompt: 'a harbour', prompt_en: '', description: '', state: '',
		submit_time: 1_700_000_100, start_time: 0, finish_time: 0, image_url: '', status: 'SUBMITTED',
		progress: '0%', fail_reason: '', channel_id: 4, quota: 30_000, buttons: '', properties: '', request_id: 'req-running', private_data: '{"group":"vip"}', cost: null,
	},
	{
		code: 24, user_id: 8, action: 'IMAGINE', mj_id: '', prompt: 'refused', prompt_en: '', description: 'banned prompt', state: '',
		submit_time: 1_700_000_200, start_time: 0, finish_time: 0, image_url: '', status: 'FAILURE',
		progress: '', fail_reason: 'banned prompt', channel_id: 4, quota: 0, buttons: '', properties: '', request_id: '', private_data: '', cost: null,
	},
] as const

for (const target of databaseTargets()) {
	describe(`the one tasks table on ${target.dialect}`, () => {
		let store: Store | undefined
		afterEach(async () => {
			await store?.close()
			store = undefined
		})

		const run = async (statement: SQL) => {
			if (target.dialect === 'sqlite') (store!.db as any).run(statement)
			else await (store!.db as any).execute(statement)
		}

		/** Puts the old table back as the migrations before 0013 made it, with the rows above and a Suno task beside them. */
		async function storeBeforeTheMove() {
			store = await target.open()
			await run(sql.raw('DROP VIEW midjourneys'))
			await run(sql.raw('DROP INDEX tasks_platform_index'))
			const earlier = embeddedMigrations(target.dialect).slice(0, DRAWING_MIGRATION).flatMap((migration) => migration.sql)
			for (const statement of earlier.filter((text) => /midjourneys/.test(text))) await run(sql.raw(statement))
			for (const row of OLD_ROWS) {
				const columns = Object.keys(row)
				await run(sql`INSERT INTO midjourneys (${sql.raw(columns.join(', '))}) VALUES (${sql.join(Object.values(row).map((value) => sql`${value}`), sql`, `)})`)
			}
			await store.db.insert(store.tables.tasks).values({ taskId: 'task_song', platform: TASK_PLATFORM.suno, userId: 7, channelId: 5, action: 'MUSIC', status: 'SUBMITTED', quota: 10_000, requestId: 'req-song' })
		}

		async function moveTheRows() {
			const migration = embeddedMigrations(target.dialect)[DRAWING_MIGRATION]!
			for (const statement of migration.sql) if (statement.trim()) await run(sql.raw(statement))
		}

		test('migration 0013 moves every drawing into tasks with its money and hold, and the view shows them as the table did', async () => {
			await storeBeforeTheMove()
			await moveTheRows()
			const { tasks, midjourneys } = store!.tables
			const moved = await store!.db.select().from(tasks).where(eq(tasks.platform, TASK_PLATFORM.midjourney)).orderBy(asc(tasks.id))
			expect(moved).toHaveLength(OLD_ROWS.length)
			expect(moved.map(drawingOf).map(({ id: _id, group: _group, ...drawing }) => drawing)).toEqual(OLD_ROWS.map((row) => ({
				code: row.code, userId: row.user_id, action: row.action, mjId: row.mj_id, prompt: row.prompt, promptEn: row.prompt_en, description: row.description,
				state: row.state, submitTime: row.submit_time, startTime: row.start_time, finishTime: row.finish_time, imageUrl: row.image_url, status: row.status,
				progress: row.progress, failReason: row.fail_reason, channelId: row.channel_id, quota: row.quota, buttons: row.buttons, properties: row.properties,
				requestId: row.request_id, privateData: row.private_data, cost: row.cost,
			})))
			// The view answers what the old table held, under the rows' new ids.
			const shown = await store!.db.select().from(midjourneys).orderBy(asc(midjourneys.id))
			expect(shown.map(({ id: _id, ...row }) => row)).toEqual(moved.map(drawingOf).map(({ id: _id, group: _group, ...drawing }) => drawing))
			expect(shown.map((row) => row.id)).toEqual(moved.map((row) => row.id))
			// The Suno task stays, and is not a drawing.
			expect((await store!.db.select().from(tasks).where(eq(tasks.platform, TASK_PLATFORM.suno))).map((row) => [row.taskId, row.quota])).toEqual([['task_song', 10_000]])
			// The unfinished drawing's hold is still a live task's; a finished one's is not.
			const live = await store!.transaction(function* (tx, tables) {
				return { running: yield* isLiveTaskHold(tx, tables, 'req-running'), done: yield* isLiveTaskHold(tx, tables, 'req-done'), song: yield* isLiveTaskHold(tx, tables, 'req-song') }
			})
			expect(live).toEqual({ running: true, done: false, song: true })
		})

		test('the view is read-only: a write into midjourneys is refused', async () => {
			store = await target.open()
			await expect(run(sql.raw("INSERT INTO midjourneys (mj_id) VALUES ('mj-new')"))).rejects.toThrow()
		})
	})
}
