import { Elysia } from 'elysia'
import { updateOptionSchema } from '@shared/option'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'

export function optionRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/option' })
		.use(authentication(dependencies))
		.get('/', () => ok(dependencies.options.listPublic()))
		.put('/', async ({ body }) => {
			await dependencies.options.set(body.key, body.value)
			dependencies.changes.notify('options')
			return ok()
		}, { body: updateOptionSchema })
		.post('/rest_model_ratio', async () => {
			await dependencies.options.resetModelRatio()
			dependencies.changes.notify('options')
			return ok(undefined, 'model ratios have been reset to the defaults')
		})
}
