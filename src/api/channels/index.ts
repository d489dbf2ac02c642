import { Elysia } from 'elysia'
import { idParamsSchema } from '@shared/api'
import {
	addChannelKeysSchema, CHANNEL_MESSAGES, channelCheckSchema, channelKeyParamsSchema, channelKeyStatusSchema, channelListQuerySchema, channelSearchQuerySchema,
	createChannelSchema, deleteChannelsSchema, editTagSchema, tagChannelsSchema, tagSchema, updateChannelSchema,
} from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { withValues } from '@shared/messages'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller } from '../plugins/auth'
import { requestLanguage } from '../language'
import { ok } from '../respond'
import { channelTypes } from './channel-types'
import { listChannels, searchChannels } from './listing'
import { modelsByChannelType } from './models'
import {
	configuredModels, createChannels, deleteChannel, deleteChannels, deleteDisabledChannels, fixAbilities, getChannel, updateChannel,
} from './service'
import { addChannelKeys, deleteChannelKey, setChannelKeyStatus } from './keys'
import { checkChannelSetup, unpricedModelsOfChannels } from './setup-check'
import { editTag, setTagStatus, tagChannels } from './tags'
import { channelToolRoutes } from './tools'

/**
 * `GET /api/models` (no prefix) and everything under `/api/channel`. Each part authenticates on
 * its own: a parent's authentication would also run for the routes of an instance it uses.
 */
export function channelRoutes(dependencies: Dependencies) {
	return new Elysia()
		.use(new Elysia().use(authentication(dependencies)).get('/models', async () => ok(await modelsByChannelType(dependencies))))
		.use(channelManagementRoutes(dependencies))
		.use(channelToolRoutes(dependencies))
}

function channelManagementRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/channel' })
		.use(authentication(dependencies))
		.get('/', async ({ query, request }) => ok(await listChannels(dependencies, query, requestLanguage(request))), { query: channelListQuerySchema })
		.get('/search', async ({ query, request }) => ok(await searchChannels(dependencies, query, requestLanguage(request))), { query: channelSearchQuerySchema })
		.get('/models', async () => ok(await configuredModels(dependencies)))
		.get('/types', ({ request }) => ok(channelTypes(requestLanguage(request))))
		.get('/unpriced_models', async () => ok(await unpricedModelsOfChannels(dependencies)))
		.post('/check', async ({ body }) => ok(await checkChannelSetup(dependencies, body)), { body: channelCheckSchema })
		.get('/:id', async ({ params, request }) => ok(await getChannel(dependencies, params.id, requestLanguage(request))), { params: idParamsSchema })
		.post('/', async ({ body, caller, request }) => {
			const created = await createChannels(dependencies, body, requireCaller(caller).user, requestLanguage(request))
			return ok(created.channels, created.duplicates > 0 ? withValues(CHANNEL_MESSAGES.duplicateKeysLeftOut, { count: created.duplicates }) : '')
		}, { body: createChannelSchema })
		.put('/', async ({ body, caller, request }) => ok(await updateChannel(dependencies, body, requireCaller(caller).user, requestLanguage(request))), { body: updateChannelSchema })
		.delete('/disabled', async ({ caller }) => ok(await deleteDisabledChannels(dependencies, requireCaller(caller).user)))
		.delete('/:id', async ({ params, caller }) => {
			await deleteChannel(dependencies, params.id, requireCaller(caller).user)
			return ok()
		}, { params: idParamsSchema })
		.post('/batch', async ({ body, caller }) => ok(await deleteChannels(dependencies, body.ids, requireCaller(caller).user)), { body: deleteChannelsSchema })
		.post('/batch/tag', async ({ body, caller }) => ok(await tagChannels(dependencies, body, requireCaller(caller).user)), { body: tagChannelsSchema })
		.put('/tag', async ({ body, caller }) => ok(await editTag(dependencies, body, requireCaller(caller).user)), { body: editTagSchema })
		.post('/tag/enabled', async ({ body, caller }) => ok(await setTagStatus(dependencies, body.tag, CHANNEL_STATUS.enabled, requireCaller(caller).user)), { body: tagSchema })
		.post('/tag/disabled', async ({ body, caller }) => ok(await setTagStatus(dependencies, body.tag, CHANNEL_STATUS.manuallyDisabled, requireCaller(caller).user)), { body: tagSchema })
		.post('/fix', async ({ caller }) => ok(await fixAbilities(dependencies, requireCaller(caller).user)))
		.post('/:id/keys', async ({ params, body, caller }) => {
			const added = await addChannelKeys(dependencies, params.id, body, requireCaller(caller).user)
			return ok(added, withValues(CHANNEL_MESSAGES.keysAdded, { added: added.indexes.length, duplicates: added.duplicates }))
		}, { params: idParamsSchema, body: addChannelKeysSchema })
		.put('/:id/keys/:index', async ({ params, body, caller, request }) =>
			ok(await setChannelKeyStatus(dependencies, { channelId: params.id, index: params.index }, body.status, requireCaller(caller).user, requestLanguage(request))),
		{ params: channelKeyParamsSchema, body: channelKeyStatusSchema })
		.delete('/:id/keys/:index', async ({ params, caller }) => {
			await deleteChannelKey(dependencies, { channelId: params.id, index: params.index }, requireCaller(caller).user)
			return ok()
		}, { params: channelKeyParamsSchema })
}
