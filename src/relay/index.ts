/**
 * The relay: OpenAI-format endpoints under `/v1`, Claude's `/v1/messages` and Gemini's `/v1beta`
 * (and `/v1/models/*:…`, where @google/genai calls by default). Each format answers errors in its
 * own shape; unknown OpenAI paths answer 501.
 */
import { Elysia } from 'elysia'
import { inEnglish } from '@shared/messages'
import { statusReasonMessage } from '@shared/messages/channel-status'
import type { Dependencies } from '@/dependencies'
import { loadRoutableChannels, markChannelAutoDisabled } from '@/db/stores/channels'
import { createBatchingExecutor } from '@/billing/batcher'
import { createQuotaReminder } from '@/billing/quota-reminder'
import { nodeInstance } from '@/billing/reconciler'
import { randomString } from '@/lib/crypto'
import { openAIErrorResponse, relayErrors, relayFailure } from './errors'
import { countClaudeTokens, relayClaudeMessages } from './formats/claude/endpoint'
import { relayOpenAI } from './formats/openai/endpoint'
import { mediaRoutes } from './formats/media/routes'
import { geminiRoutes } from './formats/gemini/routes'
import { responsesRoutes } from './formats/responses/routes'
import { playgroundRoutes } from './playground/routes'
import { taskRoutes } from './tasks/routes'
import { createBodyGate } from './pipeline/body-gate'
import { RelayMetrics } from './pipeline/call-metrics'
import { resolveGroup } from './pipeline/groups'
import { createRequestLimits } from './pipeline/request-limits'
import { createResponseTimeRecorder } from './pipeline/response-times'
import { RoutingTable } from './pipeline/routing-table'
import type { RelayServices } from './pipeline/services'
import { createSensitiveWords } from './pipeline/sensitive-words'
import { bearerKey, createTokenAuthenticator } from './pipeline/token-auth'

export function createRelayServices(dependencies: Dependencies, outbound: RelayServices['outbound']): RelayServices {
	const { store, secrets, changes, logger } = dependencies
	const routing = new RoutingTable(() => loadRoutableChannels(store, secrets, (channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId })))
	changes.subscribe('channels', () => routing.invalidate())
	return {
		routing,
		authenticate: createTokenAuthenticator(dependencies),
		ledger: createBatchingExecutor(store),
		outbound,
		async disableChannel(channelId, reason) {
			routing.remove(channelId)
			await markChannelAutoDisabled(store, channelId, reason, changes)
			logger.warn('channel disabled automatically', { channelId, reason: inEnglish(statusReasonMessage(reason)) })
		},
		recordResponseTime: createResponseTimeRecorder(store),
		nodeInstance: nodeInstance(dependencies.config.nodeName, randomString(8)),
		sensitiveWords: createSensitiveWords(dependencies.options),
		quotaReminder: createQuotaReminder(dependencies),
		metrics: new RelayMetrics((model) => routing.servesModel(model)),
		requestLimits: createRequestLimits(dependencies.options, dependencies.rateLimiter),
		bodyGate: createBodyGate(dependencies),
	}
}

const OPENAI_MODEL_OWNER = 'ferry'

export function createRelay(dependencies: Dependencies, relay: RelayServices) {
	const modelList = async (request: Request, address: string) => {
		const caller = await relay.authenticate(bearerKey(request.headers), address)
		await relay.routing.ready()
		const group = resolveGroup(dependencies.options, caller, '', () => false)
		const models = relay.routing.models(group).filter((model) => !caller.token.modelLimits || caller.token.modelLimits.has(model))
		return models.map((id) => ({ id, object: 'model', created: dependencies.startTime, owned_by: OPENAI_MODEL_OWNER }))
	}
	const answering = async (work: () => Promise<Response | object>) => {
		try {
			const result = await work()
			return result instanceof Response ? result : Response.json(result)
		} catch (error) {
			return relayFailure(error, dependencies.logger, openAIErrorResponse)
		}
	}
	const openAIFormat = new Elysia({ prefix: '/v1' })
		.post('/chat/completions', ({ request, server }) => relayOpenAI(dependencies, relay, 'chat', request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/completions', ({ request, server }) => relayOpenAI(dependencies, relay, 'completions', request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/embeddings', ({ request, server }) => relayOpenAI(dependencies, relay, 'embeddings', request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/rerank', ({ request, server }) => relayOpenAI(dependencies, relay, 'rerank', request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/messages', ({ request, server }) => relayClaudeMessages(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.post('/messages/count_tokens', ({ request, server }) => countClaudeTokens(dependencies, relay, request, dependencies.clientAddress(server, request)), { parse: 'none' })
		.get('/models', ({ request, server }) => answering(async () => ({ object: 'list', data: await modelList(request, dependencies.clientAddress(server, request)) })))
		.get('/models/:model', ({ request, server, params }) => answering(async () => {
			const model = decodeURIComponent(params.model)
			const found = (await modelList(request, dependencies.clientAddress(server, request))).find((entry) => entry.id === model)
			if (!found) throw relayErrors.modelNotFound(model)
			return found
		}))
		.use(mediaRoutes(dependencies, relay))
		.all('/*', ({ request }) => openAIErrorResponse(relayErrors.notImplemented(new URL(request.url).pathname)))
	return new Elysia().use(openAIFormat).use(responsesRoutes(dependencies, relay)).use(geminiRoutes(dependencies, relay)).use(playgroundRoutes(dependencies, relay)).use(taskRoutes(dependencies, relay))
}
