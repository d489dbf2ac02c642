/**
 * Ferry's entry point and the only module with start-up side effects:
 * configuration → database → migrations → app → listen. `ferry audit` (later) checks the ledger.
 */
import { createApp } from './app'
import { ConfigError, loadConfig } from './config'
import { openStore } from './db'
import { createLogger } from './lib/logger'

async function serve() {
	const config = loadConfig(Bun.env, Bun.argv.slice(2))
	const logger = createLogger(config.logLevel)
	const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
	const { app } = await createApp({ config, store, logger })
	app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: config.maxBodyBytes })
	logger.info(`Ferry listening on http://${config.host}:${app.server?.port} (${store.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'Postgres'})`)
	const stop = async (signal: string) => {
		logger.info(`received ${signal}, shutting down`)
		await app.stop()
		await store.close()
		process.exit(0)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
}

serve().catch((error) => {
	console.error(error instanceof ConfigError ? error.message : error)
	process.exit(1)
})
