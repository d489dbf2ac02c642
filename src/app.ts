/**
 * `createApp` composes the relay, the management API and the console from their dependencies;
 * `main.ts` serves it and tests call `app.handle(request)`.
 */
import { Elysia } from 'elysia'
import type { Config } from './config'
import type { Store } from './db'
import { argon2Passwords, type Dependencies, type PasswordHasher } from './dependencies'
import { createApi } from './api'
import { createOptionStore } from './api/options/service'
import { ensureRootUser } from './api/users/account'
import { createConsole } from './console'
import { nowSeconds } from './lib/clock'
import { createSecretBox } from './lib/crypto'
import { createLogger, type Logger } from './lib/logger'
import { createMemoryRateLimiter, type RateLimiter } from './lib/rate-limiter'

export interface AppInput {
	config: Config
	store: Store
	logger?: Logger
	rateLimiter?: RateLimiter
	passwords?: PasswordHasher
	fetch?: Dependencies['fetch']
}

export async function createApp(input: AppInput) {
	const logger = input.logger ?? createLogger(input.config.logLevel)
	const dependencies: Dependencies = {
		config: input.config,
		store: input.store,
		options: await createOptionStore(input.store, logger),
		secrets: createSecretBox(input.config.cryptoSecret, input.config.sessionSecret),
		logger,
		rateLimiter: input.rateLimiter ?? createMemoryRateLimiter(),
		passwords: input.passwords ?? argon2Passwords,
		fetch: input.fetch ?? ((resource, init) => fetch(resource, init)),
		startTime: nowSeconds(),
	}
	await ensureRootUser(dependencies)
	const app: Elysia = new Elysia()
		.use(createApi(dependencies))
		.use(createConsole({ handleApi: (request) => app.handle(request) }))
	return { app, dependencies }
}

export type App = Awaited<ReturnType<typeof createApp>>['app']
