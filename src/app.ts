/**
 * `createApp` composes the relay, the management API and the console from their dependencies;
 * `main.ts` serves it and tests call `app.handle(request)`.
 */
import { Elysia } from 'elysia'
import type { Config } from './config'
import type { Store } from './db'
import { argon2Passwords, type Dependencies, type PasswordHasher } from './dependencies'
import { createApi } from './api'
import { openApiRoutes } from './api/openapi'
import { createOptionStore } from '@/db/stores/options'
import { ensureRootUser } from './api/users/account'
import { createConsole } from './console'
import { createSessions } from '@/auth/session'
import { createSharedChangeFeed } from './db/shared-change-feed'
import { createRelay, createRelayServices } from './relay'
import { metricsRoutes } from './relay/metrics-route'
import { createClientAddress, type RequestPeer } from './lib/client-address'
import { nowSeconds } from './lib/clock'
import { createSecretBox } from './lib/crypto'
import { createLogger, type Logger } from './lib/logger'
import { createSmtpMailer, MAILER_TIMEOUT_MILLISECONDS, type Mailer } from './lib/mailer'
import { createHostCheck, createOutboundClient, openerWith, parseHostList } from './lib/outbound'
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './lib/rate-limiter'
import { connectRedis } from './lib/redis'
import { createMemoryAffinity, createRedisAffinity } from './lib/session-affinity'
import { createSubscriptionBook } from './billing/subscription-book'

export interface AppInput {
	config: Config
	store: Store
	logger?: Logger
	rateLimiter?: RateLimiter
	passwords?: PasswordHasher
	fetch?: Dependencies['fetch']
	mailer?: Mailer
}

/** The parsed list for the option's current text, parsed again only when the text changes. */
function memoizedHostList(read: () => string) {
	let text: string | undefined
	let list: string[] = []
	return () => {
		const current = read()
		if (current !== text) {
			text = current
			list = parseHostList(current)
		}
		return list
	}
}

/**
 * The long sessions' sockets (src/relay/sessions): a frame over MAX_BODY_MB is answered with an error
 * event by the session, and one over twice that is refused by Bun itself (closed with 1009); Bun's own
 * idle limit is its longest, the sessions keep theirs (SessionIdleSeconds); events queue for a slow
 * client up to 64 MiB (the session closes past it).
 */
function webSocketSettings(config: Config) {
	return { maxPayloadLength: config.maxBodyBytes * 2, idleTimeout: 960, backpressureLimit: 64 * 1024 * 1024, closeOnBackpressureLimit: false, perMessageDeflate: false }
}

export async function createApp(input: AppInput) {
	const logger = input.logger ?? createLogger(input.config.logLevel)
	const options = await createOptionStore(input.store, logger)
	// Optional (docs/operations/several-nodes.md): shares rate limits and carries change notices between nodes; never required.
	const redis = input.config.redisUrl ? await connectRedis(input.config.redisUrl, input.config.redisKeyPrefix, logger) : undefined
	const changes = createSharedChangeFeed(input.store, logger, redis)
	// Only another node's change needs a re-read: this node's own `set` already updated memory.
	changes.subscribe('options', (origin) => {
		if (origin === 'remote') options.reload().catch((error) => logger.error('reloading options failed', { error: String(error) }))
	})
	// Channel base URLs, the SMTP server and the proxy worker: admin-set addresses under one consent (docs/operations/security.md#outbound-requests).
	const privateUpstreams = {
		privateUpstreamsEnabled: () => options.get('PrivateUpstreamsEnabled'),
		privateUpstreamHosts: memoizedHostList(() => options.get('PrivateUpstreamHosts')),
	}
	const affinitySettings = () => ({ ttlSeconds: options.get('AffinityTTLSeconds'), maxEntries: options.get('AffinityMaxEntries') })
	const dependencies: Dependencies = {
		config: input.config,
		store: input.store,
		options,
		secrets: createSecretBox(input.config.cryptoSecret, input.config.sessionSecret),
		sessions: createSessions(input.config.sessionSecret),
		logger,
		rateLimiter: input.rateLimiter ?? (redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter()),
		changes,
		passwords: input.passwords ?? argon2Passwords,
		mailer: input.mailer ?? createSmtpMailer(options, logger, createHostCheck({ privateUpstreams, timeout: MAILER_TIMEOUT_MILLISECONDS })),
		fetch: input.fetch ?? createOutboundClient({ privateUpstreams, logger }),
		redis,
		affinity: redis ? createRedisAffinity(redis, affinitySettings) : createMemoryAffinity(affinitySettings),
		clientAddress: createClientAddress(input.config.trustedProxies),
		subscriptions: createSubscriptionBook(input.store, changes, logger),
		startTime: nowSeconds(),
	}
	await dependencies.subscriptions.reload()
	// Another node purged every session: forget what this one keeps in memory too.
	changes.subscribe('affinity', (origin) => {
		if (origin === 'remote') dependencies.affinity.forgetLocal()
	})
	await ensureRootUser(dependencies)
	const { connectMs, firstByteMs, idleMs } = input.config.upstreamTimeouts
	const relay = createRelayServices(dependencies, openerWith(dependencies.fetch, {
		policy: 'upstream', timeouts: { connect: connectMs, firstByte: firstByteMs, idle: idleMs },
	}))
	const api = createApi(dependencies, { server: (): RequestPeer => app.server })
	// The console renders pages by calling the API in-process, so it is handed the app's own handler.
	const app = new Elysia({ websocket: webSocketSettings(input.config) })
		.use(openApiRoutes({ routes: (): Promise<readonly unknown[]> => routes() }))
		.use(createRelay(dependencies, relay))
		.use(metricsRoutes(dependencies, relay))
		.use(api.plugin)
		.use(await createConsole({
			handleApi: (request: Request): Promise<Response> => app.handle(request),
			sessionUserId: async (headers) => (await dependencies.sessions.fromHeaders(headers))?.sub,
		}))
	/** Every route the app serves, the management API's loaded first. */
	const routes = () => api.withManagementRoutes(app.routes)
	return { app, routes, dependencies, relay, changes, redis }
}

export type App = Awaited<ReturnType<typeof createApp>>['app']
