import { Elysia } from 'elysia'
import { updateOptionSchema } from '@shared/option'
import type { Dependencies } from '@/dependencies'
import { OptionRefusedError } from '@/db/stores/options'
import { refused } from '../errors'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'

export function optionRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/option' })
		.use(authentication(dependencies))
		.get('/', () => ok(dependencies.options.listPublic()))
		.put('/', async ({ body }) => {
			try {
				await dependencies.options.set(body.key, body.value)
			} catch (error) {
				throw error instanceof OptionRefusedError ? refused(error.message) : error
			}
			dependencies.changes.notify('options')
			return ok()
		}, { body: updateOptionSchema })
		.post('/rest_model_ratio', async () => {
			await dependencies.options.resetModelRatio()
			dependencies.changes.notify('options')
			return ok(undefined, 'model ratios have been reset to the defaults')
		})
}
