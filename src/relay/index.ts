/**
 * The relay: its services (the routing table, the token authenticator, the ledger's executor, the
 * way upstream…), built once per process and shared with the management API's channel tools, and
 * its routes (edge/routes.ts). How one call flows is described in NOTES.md.
 */
import { inEnglish } from '@shared/messages'
import { statusReasonMessage } from '@shared/messages/channel-status'
import type { Dependencies } from '@/dependencies'
import { loadChannelListings, loadRoutableChannels, markChannelAutoDisabled } from '@/db/stores/channels'
import { markKeyAutoDisabled } from '@/db/stores/channel-keys'
import { createKeyOutcomeRecorder } from '@/db/stores/key-outcomes'
import { createBatchingExecutor } from '@/billing/batcher'
import { createQuotaReminder } from '@/billing/quota-reminder'
import { nodeInstance } from '@/billing/reconciler'
import { randomString } from '@/lib/crypto'
import { RelayMetrics } from './call-metrics'
import { createBodyGate } from './edge/body-gate'
import { createConcurrencyLimits } from './edge/concurrency-limits'
import { createRequestLimits } from './edge/request-limits'
import { relayRoutes } from './edge/routes'
import { createTokenAuthenticator } from './edge/token-auth'
import { createResponseTimeRecorder } from './routing/response-times'
import { RoutingTable } from './routing/routing-table'
import { loadAdaptors } from './providers/registry'
import type { RelayServices } from './services'
import { createSensitiveWords } from './sensitive-words/words'
import { keyRouter } from './router/key-router'
import { createSharedKeyHealth } from './router/shared-health'
import { createMemoryResponseCache, createRedisResponseCache } from './response-cache/store'

export function createRelayServices(dependencies: Dependencies, outbound: RelayServices['outbound']): RelayServices {
	const { store, secrets, changes, logger } = dependencies
	const routing = new RoutingTable(async () => {
		const channels = await loadRoutableChannels(store, secrets, (channelId) => logger.error('a channel key cannot be decrypted with this CRYPTO_SECRET', { channelId }))
		const listings = await loadChannelListings(store)
		// Their types' adaptors load before the table answers, so no call waits for one (providers/registry.ts).
		await loadAdaptors(channels.map((channel) => channel.type))
		return { channels, listings }
	})
	changes.subscribe('channels', () => routing.invalidate())
	const keyHealth = createSharedKeyHealth(dependencies)
	const instance = nodeInstance(dependencies.config.nodeName, randomString(8))
	return {
		routing,
		router: keyRouter(routing, keyHealth, dependencies.options),
		keyHealth,
		keyOutcomes: createKeyOutcomeRecorder(store, { onWriteError: (error) => logger.warn('recording key outcomes failed', { error: String(error) }) }),
		authenticate: createTokenAuthenticator(dependencies),
		ledger: createBatchingExecutor(store, { allowancesOf: instance }),
		outbound,
		async disableChannel(channelId, reason) {
			routing.remove(channelId)
			await markChannelAutoDisabled(store, channelId, reason, changes)
			logger.warn('channel disabled automatically', { channelId, reason: inEnglish(statusReasonMessage(reason)) })
		},
		async disableKey({ channelId, keyIndex }, reason) {
			routing.removeKey(channelId, keyIndex)
			const changed = await markKeyAutoDisabled(store, { channelId, index: keyIndex }, reason, changes)
			if (changed.key || changed.channel) logger.warn('key disabled automatically', { channelId, key: keyIndex, channel: changed.channel, reason: inEnglish(statusReasonMessage(reason)) })
		},
		recordResponseTime: createResponseTimeRecorder(store),
		nodeInstance: instance,
		sensitiveWords: createSensitiveWords(dependencies.options),
		quotaReminder: createQuotaReminder(dependencies),
		metrics: new RelayMetrics((model) => routing.servesModel(model)),
		requestLimits: createRequestLimits(dependencies.options, dependencies.rateLimiter),
		bodyGate: createBodyGate(dependencies),
		concurrency: createConcurrencyLimits(dependencies.options, dependencies.redis),
		responseCache: dependencies.redis ? createRedisResponseCache(dependencies.redis) : createMemoryResponseCache(),
	}
}

/** The relay's routes (edge/routes.ts), over the services it shares with the management API's tools. */
export function createRelay(dependencies: Dependencies, relay: RelayServices) {
	return relayRoutes(dependencies, relay)
}
