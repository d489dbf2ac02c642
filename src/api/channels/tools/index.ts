/**
 * The channel tools of the list and editor (docs/specification/channels.md#the-channel-tools): test one or all, balances, model lists
 * and upstream detection, upstream model sync, under `/api/channel`. Admin only (route policy). "All" calls start their
 * work in the background and answer at once with what they started.
 */
import { Elysia } from 'elysia'
import { idParamsSchema } from '@shared/api'
import type { Dependencies } from '@/dependencies'
import { authentication, requireCaller, type Caller } from '../../plugins/auth'
import { ok } from '../../respond'
import { refused } from '../../errors'
import { requestLanguage } from '../../language'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { channelTestQuerySchema, modelSyncApplySchema } from '@shared/channel'
import { withValues } from '@shared/messages'
import { updateAllBalances, updateBalanceById } from './balance'
import type { TestRunner } from './channel-test'
import { detectUpstream } from './detection'
import { runHealthRound } from './health'
import { keyToTest, testAllKeys, testChannelKey } from './key-tests'
import { fetchModelsOfChannel, fetchModelsOfNewChannel, fetchModelsSchema } from './models'
import { applyModelSync, modelSyncOfAllChannels, modelSyncOfChannel } from './model-sync'
import { loadToolChannel } from './upstream'

const runnerOf = (caller: Caller | undefined): TestRunner => {
	const { user } = requireCaller(caller)
	return { userId: user.id, username: user.username, group: user.group }
}

/** One background "test all" per process at a time. */
const testAllRuns = new WeakMap<Dependencies, Promise<unknown>>()

function startTestAll(dependencies: Dependencies, runner: TestRunner) {
	if (testAllRuns.has(dependencies)) throw refused(CHANNEL_TOOL_MESSAGES.testAllRunning)
	const run = runHealthRound(dependencies, { scheduled: false, runner })
		.catch((error) => dependencies.logger.error('testing all channels failed', { error: String(error) }))
		.finally(() => testAllRuns.delete(dependencies))
	testAllRuns.set(dependencies, run)
}

export function channelToolRoutes(dependencies: Dependencies) {
	return new Elysia({ prefix: '/channel' })
		.use(authentication(dependencies))
		.get('/test', ({ caller }) => {
			startTestAll(dependencies, runnerOf(caller))
			return ok(undefined, CHANNEL_TOOL_MESSAGES.testAllStarted)
		})
		.get('/test/:id', async ({ caller, params, query, request }) => {
			const channel = await loadToolChannel(dependencies, params.id)
			if (query.keys) return ok(await testAllKeys(dependencies, channel, runnerOf(caller), requestLanguage(request), query.model))
			const outcome = await testChannelKey(dependencies, channel, keyToTest(channel, query.key), runnerOf(caller), query.model)
			return { success: outcome.success, message: outcome.message, data: { time: outcome.time, key: outcome.key } }
		}, { params: idParamsSchema, query: channelTestQuerySchema })
		.get('/update_balance', async ({ request }) => ok(await updateAllBalances(dependencies, requestLanguage(request))))
		.get('/update_balance/:id', async ({ params }) => ok(await updateBalanceById(dependencies, params.id)), { params: idParamsSchema })
		.get('/fetch_models/:id', async ({ params }) => ok(await fetchModelsOfChannel(dependencies, params.id)), { params: idParamsSchema })
		.post('/fetch_models', async ({ body }) => ok(await fetchModelsOfNewChannel(dependencies, body)), { body: fetchModelsSchema })
		.get('/test_upstream/:id', async ({ params }) => ok(await detectUpstream(dependencies, params.id)), { params: idParamsSchema })
		.get('/model_sync', async ({ request }) => ok(await modelSyncOfAllChannels(dependencies, requestLanguage(request))))
		.get('/model_sync/:id', async ({ params }) => ok(await modelSyncOfChannel(dependencies, params.id)), { params: idParamsSchema })
		.post('/model_sync/:id', async ({ params, body, caller, request }) => {
			const applied = await applyModelSync(dependencies, params.id, body, requireCaller(caller).user, requestLanguage(request))
			return ok(applied.channel, withValues(CHANNEL_TOOL_MESSAGES.modelSyncApplied, { added: applied.added, removed: applied.removed }))
		}, { params: idParamsSchema, body: modelSyncApplySchema })
}
