import { Elysia } from 'elysia'
import { and, eq, inArray, lt, ne, not, or } from 'drizzle-orm'
import { CREDIT_LOG_TYPES } from '@/billing/audit'
import { z } from 'zod'
import { LOG_MESSAGES, LOG_TYPE, logQuerySchema } from '@shared/log'
import { ROLE } from '@shared/user'
import { run } from '@/db'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller, type Caller } from '../plugins/auth'
import { ok } from '../respond'
import { requestLanguage } from '../language'
import { adminActionWork, type AdminActor } from '../admin-audit'
import { listLogs, logStats, type LogScope } from './service'

const deleteLogsQuerySchema = z.object({
	target_timestamp: z.coerce.number({ error: LOG_MESSAGES.chooseTime }).int(LOG_MESSAGES.chooseTime).positive(LOG_MESSAGES.chooseTime),
})

/**
 * Log cleanup: removes entries created before the given unix time and answers how many. Credits
 * (top-ups, codes, admin and system grants) stay: they are the ledger's record of money that
 * came in (docs/architecture.md#the-ledger), which `ferry audit` sums. So does every admin line (type 3): the admin
 * audit trail is not for an admin to erase, and the cleanup itself adds a line to it.
 */
export async function deleteLogsBefore({ store }: Dependencies, targetTimestamp: number, actor: AdminActor): Promise<number> {
	return store.transaction(function* (tx, tables) {
		const { logs } = tables
		const kept = or(eq(logs.type, LOG_TYPE.manage), and(inArray(logs.type, [...CREDIT_LOG_TYPES]), ne(logs.quota, 0)))
		const deleted = yield* run(tx.delete(logs).where(and(lt(logs.createdAt, targetTimestamp), not(kept!))))
		yield* adminActionWork(tx, tables, actor, {
			action: 'log.cleanup', target: '', summary: `deleted ${deleted} log entries created before ${new Date(targetTimestamp * 1000).toISOString()}`,
			details: { before: targetTimestamp, count: deleted },
		})
		return deleted
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
		.get('/', async ({ query, request }) => ok(await listLogs(dependencies, query, everyone(), requestLanguage(request))), { query: logQuerySchema })
		.get('/stat', async ({ query }) => ok(await logStats(dependencies, query, everyone())), { query: logQuerySchema })
		.get('/self', async ({ caller, query, request }) => ok(await listLogs(dependencies, query, own(caller), requestLanguage(request))), { query: logQuerySchema })
		.get('/self/stat', async ({ caller, query }) => ok(await logStats(dependencies, query, own(caller))), { query: logQuerySchema })
		.delete('/', async ({ query, caller }) => ok(await deleteLogsBefore(dependencies, query.target_timestamp, requireCaller(caller).user)), { query: deleteLogsQuerySchema })
}
