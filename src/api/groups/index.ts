import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'

/** Group names known to pricing (`GroupRatio`), for admins choosing a user's or channel's group. */
export function groupRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/group' })
		.use(authentication(dependencies))
		.get('/', () => ok(Object.keys(dependencies.options.get('GroupRatio'))))
}
