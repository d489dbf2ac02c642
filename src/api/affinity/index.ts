/** Session affinity for the super admin: forget one session, or all (`@shared/affinity`). */
import { Elysia } from 'elysia'
import { AFFINITY_MESSAGES, purgeAffinitySchema } from '@shared/affinity'
import { withValues } from '@shared/messages'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'
import { purgeAffinity } from './service'

export function affinityRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/affinity' })
		.use(authentication(dependencies))
		.post('/purge', async ({ body }) => {
			const purged = await purgeAffinity(dependencies, body)
			return ok({ purged }, withValues(AFFINITY_MESSAGES.purged, { count: purged }))
		}, { body: purgeAffinitySchema })
}
