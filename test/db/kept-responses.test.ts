/**
 * The records of which channel and key keep a Responses API response live in a table of their own
 * (`kept_responses`): migration 0012 moves the records that shared the `tasks` table there, with
 * their key index, and leaves the tasks alone; the store finds and forgets them by id and owner.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { asc, eq, sql } from 'drizzle-orm'
import type { Store } from '@/db'
import { embeddedMigrations } from '@/db/migrate'
import { forgetResponse, keptResponsePlace, rememberResponse } from '@/db/stores/kept-responses'
import { databaseTargets } from '../helpers/database'

/** Migration 0012's place in the list. */
const KEPT_RESPONSES_MIGRATION = 12

for (const target of databaseTargets()) {
	describe(`kept responses on ${target.dialect}`, () => {
		let store: Store | undefined
		afterEach(async () => {
			await store?.close()
			store = undefined
		})

		test('migration 0012 moves the records out of the tasks table with their key index, and leaves real tasks where they are', async () => {
			store = await target.open()
			const { tasks, keptResponses } = store.tables
			await store.db.insert(tasks).values([
				{ taskId: 'resp_with_key', platform: 'openai-responses', userId: 7, channelId: 3, action: 'response', status: 'SUCCESS', privateData: '{"key_index":2}' },
				{ taskId: 'resp_older', platform: 'openai-responses', userId: 8, channelId: 4, action: 'response', status: 'SUCCESS', privateData: '' },
				{ taskId: 'task_song', platform: 'suno', userId: 7, channelId: 5, action: 'MUSIC', status: 'SUBMITTED' },
			])
			// The data statements of the migration, run again on rows written the old way.
			const migration = embeddedMigrations(target.dialect)[KEPT_RESPONSES_MIGRATION]!.sql.filter((statement) => /INSERT INTO|DELETE FROM/.test(statement))
			expect(migration).toHaveLength(2)
			for (const statement of migration) {
				if (target.dialect === 'sqlite') (store.db as any).run(sql.raw(statement))
				else await (store.db as any).execute(sql.raw(statement))
			}
			const moved = await store.db.select().from(keptResponses).orderBy(asc(keptResponses.responseId))
			expect(moved.map(({ responseId, userId, channelId, keyIndex }) => ({ responseId, userId, channelId, keyIndex }))).toEqual([
				{ responseId: 'resp_older', userId: 8, channelId: 4, keyIndex: 0 },
				{ responseId: 'resp_with_key', userId: 7, channelId: 3, keyIndex: 2 },
			])
			expect((await store.db.select().from(tasks)).map((row) => row.taskId)).toEqual(['task_song'])
			expect(await keptResponsePlace(store, 'resp_with_key', 7)).toEqual({ channelId: 3, keyIndex: 2 })
		})

		test('a record is found only by its owner and forgotten', async () => {
			store = await target.open()
			await rememberResponse(store, { responseId: 'resp_1', userId: 1, channelId: 9, keyIndex: 1 })
			expect(await keptResponsePlace(store, 'resp_1', 1)).toEqual({ channelId: 9, keyIndex: 1 })
			expect(await keptResponsePlace(store, 'resp_1', 2)).toBeUndefined()
			await forgetResponse(store, 'resp_1', 2)
			expect(await keptResponsePlace(store, 'resp_1', 1)).toBeDefined()
			await forgetResponse(store, 'resp_1', 1)
			expect(await keptResponsePlace(store, 'resp_1', 1)).toBeUndefined()
			expect(await store.db.select().from(store.tables.tasks).where(eq(store.tables.tasks.userId, 1))).toEqual([])
		})
	})
}
