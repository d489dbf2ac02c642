import { Elysia } from 'elysia'
import { docsQuerySchema } from '@shared/docs'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'
import { readDocsPage } from './service'

/** The documentation pages for the console's `/docs` (admins: the route policy says so). */
export function docsRoutes(dependencies: Dependencies) {
	return new Elysia()
		.use(authentication(dependencies))
		.get('/docs', async ({ query }) => ok(await readDocsPage(query.path)), { query: docsQuerySchema })
}
