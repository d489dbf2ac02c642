import { Elysia } from 'elysia'
import type { z } from 'zod'
import { midjourneyQuerySchema, type TaskListQuery, taskQuerySchema } from '@shared/task'
import { ROLE } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller, type Caller } from '../plugins/auth'
import { ok } from '../respond'
import { ASYNC_TASK_LOG, DRAWING_LOG, listTaskLog, type TaskLog, type TaskScope } from './service'

/** The route policy keeps `/` to admins; `/self` shows the channel only to an admin reading their own. */
const everyone = (): TaskScope => ({ admin: true })
const own = (caller: Caller | undefined): TaskScope => {
	const { user } = requireCaller(caller)
	return { userId: user.id, admin: user.role >= ROLE.admin }
}

/** One log's `GET /` (everyone's, for admins) and `GET /self` (the caller's own), paged. */
function logRoutes<Query extends TaskListQuery, Entry>(dependencies: Dependencies, prefix: string, log: TaskLog<Query, Entry>, querySchema: z.ZodType<Query>) {
	return new Elysia({ prefix })
		.use(authentication(dependencies))
		.get('/', async ({ query }) => ok(await listTaskLog(dependencies, log, query as Query, everyone())), { query: querySchema })
		.get('/self', async ({ caller, query }) => ok(await listTaskLog(dependencies, log, query as Query, own(caller))), { query: querySchema })
}

/** `GET /api/mj/`, `/api/mj/self/` (the drawing log) and `GET /api/task/`, `/api/task/self` (the async task log). */
export function taskRoutes(dependencies: Dependencies) {
	return new Elysia()
		.use(logRoutes(dependencies, '/mj', DRAWING_LOG, midjourneyQuerySchema))
		.use(logRoutes(dependencies, '/task', ASYNC_TASK_LOG, taskQuerySchema))
}
