import { Elysia } from 'elysia'
import { midjourneyQuerySchema, taskQuerySchema } from '@shared/task'
import { ROLE } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller, type Caller } from '../plugins/auth'
import { ok } from '../respond'
import { ASYNC_TASK_LOG, DRAWING_LOG, listTaskLog, type TaskScope } from './service'

/** The route policy keeps `/` to admins; `/self` shows the channel only to an admin reading their own. */
const everyone = (): TaskScope => ({ admin: true })
const own = (caller: Caller | undefined): TaskScope => {
	const { user } = requireCaller(caller)
	return { userId: user.id, admin: user.role >= ROLE.admin }
}

/** `GET /api/mj/`, `/api/mj/self/` (drawing tasks) and `GET /api/task/`, `/api/task/self` (async tasks), paged. */
export function taskRoutes(dependencies: Dependencies) {
	const drawings = new Elysia({ prefix: '/mj' })
		.use(authentication(dependencies))
		.get('/', async ({ query }) => ok(await listTaskLog(dependencies, DRAWING_LOG, query, everyone())), { query: midjourneyQuerySchema })
		.get('/self', async ({ caller, query }) => ok(await listTaskLog(dependencies, DRAWING_LOG, query, own(caller))), { query: midjourneyQuerySchema })
	const tasks = new Elysia({ prefix: '/task' })
		.use(authentication(dependencies))
		.get('/', async ({ query }) => ok(await listTaskLog(dependencies, ASYNC_TASK_LOG, query, everyone())), { query: taskQuerySchema })
		.get('/self', async ({ caller, query }) => ok(await listTaskLog(dependencies, ASYNC_TASK_LOG, query, own(caller))), { query: taskQuerySchema })
	return new Elysia().use(drawings).use(tasks)
}
