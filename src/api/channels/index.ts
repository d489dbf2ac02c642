import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { authentication } from '../plugins/auth'
import { ok } from '../respond'
import { modelsByChannelType } from './models'

export function channelRoutes(dependencies: Dependencies) {
	return new Elysia()
		.use(authentication(dependencies))
		.get('/models', async () => ok(await modelsByChannelType(dependencies)))
}
