import { Elysia } from 'elysia'
import { and, inArray, lt, ne, not } from 'drizzle-orm'
import { CREDIT_LOG_TYPES } from '@/billing/audit'
import { z } from 'zod'
import { LOG_MESSAGES, logQuerySchema } from '@shared/log'
import { ROLE } from '@shared/user'
import { run } from '@/db'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller, type Caller } from '../plugins/auth'
import { ok } from '../respond'
import { listLogs, logStats, type LogScope } from './service'

const deleteLogsQuerySchema = z.object({
	target_timestamp: z.coerce.number({ error: LOG_MESSAGES.chooseTime }).int(LOG_MESSAGES.chooseTime).positive(LOG_MESSAGES.chooseTime),
})

/**
 * Log cleanup: removes entries created before the given unix time and answers how many. Credits
 * (top-ups, codes, admin and system grants) stay: they are the ledger's record of money that
 * came in (design §4), which `ferry audit` sums.
 */
export async function deleteLogsBefore({ store }: Dependencies, targetTimestamp: number): Promise<number> {
	return store.transaction(function* (tx, { logs }) {
		const isCredit = and(inArray(logs.type, [...CREDIT_LOG_TYPES]), ne(logs.quota, 0))
		return yield* run(tx.delete(logs).where(and(lt(logs.createdAt, targetTimestamp), not(isCredit!))))
	})
}

/** The route policy keeps `/` and `/stat` to admins; what an entry shows follows the caller's role. */
const everyone = (): LogScope => ({ admin: true })
const own = (caller: Caller | undefined): LogScope => {
	const { user } = requireCaller(caller)
	return { userId: user.id, admin: user.role >= ROLE.admin }
}

export function logRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/log' })
		.use(authentication(dependencies))
		.get('/', async ({ query }) => ok(await listLogs(dependencies, query, everyone())), { query: logQuerySchema })
		.get('/stat', async ({ query }) => ok(await logStats(dependencies, query, everyone())), { query: logQuerySchema })
		.get('/self', async ({ caller, query }) => ok(await listLogs(dependencies, query, own(caller))), { query: logQuerySchema })
		.get('/self/stat', async ({ caller, query }) => ok(await logStats(dependencies, query, own(caller))), { query: logQuerySchema })
		.delete('/', async ({ query }) => ok(await deleteLogsBefore(dependencies, query.target_timestamp)), { query: deleteLogsQuerySchema })
}
