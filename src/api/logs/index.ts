import { Elysia } from 'elysia'
import { lt } from 'drizzle-orm'
import { z } from 'zod'
import { run } from '@/db'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'

export const deleteLogsQuerySchema = z.object({
	target_timestamp: z.coerce.number({ error: 'please choose log time' }).int('please choose log time').positive('please choose log time'),
})

/** Log cleanup: removes log rows created before the given unix time and answers how many. */
export async function deleteLogsBefore({ store }: Dependencies, targetTimestamp: number): Promise<number> {
	return store.transaction(function* (tx, { logs }) {
		return yield* run(tx.delete(logs).where(lt(logs.createdAt, targetTimestamp)))
	})
}

export function logRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/log' })
		.use(authentication(dependencies))
		.delete('/', async ({ query }) => ok(await deleteLogsBefore(dependencies, query.target_timestamp)), { query: deleteLogsQuerySchema })
}
