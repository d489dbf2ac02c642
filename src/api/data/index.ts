import { Elysia } from 'elysia'
import { quotaDataQuerySchema } from '@shared/quota-data'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { ok } from '../respond'
import { listQuotaData } from './service'
import { marginReport } from './margin'
import { marginQuerySchema } from '@shared/margin'

/** The dashboard's usage buckets: everyone's (admins, optionally one username) or the caller's own; and the margin report (admins). */
export function dataRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/data' })
		.use(authentication(dependencies))
		.get('/', async ({ query }) => ok(await listQuotaData(dependencies, query, {})), { query: quotaDataQuerySchema })
		.get('/margin', async ({ query }) => ok(await marginReport(dependencies, query)), { query: marginQuerySchema })
		.get('/self', async ({ caller, query }) => ok(await listQuotaData(dependencies, query, { userId: requireCaller(caller).user.id })), { query: quotaDataQuerySchema })
}
