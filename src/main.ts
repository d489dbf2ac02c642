/**
 * Ferry's entry point and the only module with start-up side effects:
 * configuration → database → migrations → app → listen. `ferry audit` checks the ledger instead;
 * `ferry import new-api <source>` moves a new-api installation in (src/cli/import-new-api).
 */
// First: it sets the JIT policy for everything evaluated after it.
import { endStartUpJitPolicy } from './lib/start-up-jit'
import { createApp } from './app'
import { ConfigError, loadConfig, type Config } from './config'
import { startReconciler } from './billing/reconciler'
import { startChannelHealthCheck } from './api/channels/tools/schedule'
import { startKeyRecovery } from './api/channels/tools/recovery'
import { startDataExport } from './api/data/schedule'
import { configureBucketReaderWorker } from './api/data/bucket-reader'
import { startTaskPolling } from './relay/tasks/schedule'
import { startRetention } from './api/logs/retention'
import { openStore } from './db'
import { startWalCheckpointer } from './db/wal-checkpointer'
import { createLogger } from './lib/logger'
import { configureTokenizerWorker } from '@/billing/tokenizer'

async function serve(config: Config) {
	const logger = createLogger(config.logLevel)
	configureTokenizerWorker(new URL('./workers/tokenizer.ts', import.meta.url), logger)
	const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
	const walCheckpointUrl = new URL('./workers/wal-checkpoint.ts', import.meta.url)
	const walCheckpointer = startWalCheckpointer(store, { workerUrl: walCheckpointUrl, logger })
	const { app, relay, changes, dependencies, redis } = await createApp({ config, store, logger })
	const stopReconciler = startReconciler(store, relay.nodeInstance, logger)
	// Relative to this file, so the compiled binary finds the worker among its entrypoints; the jobs share it.
	// On SQLite the WAL checkpointer's worker keeps their time too: one thread and VM fewer.
	const clockUrl = store.wal ? walCheckpointUrl : new URL('./workers/schedule-clock.ts', import.meta.url)
	const healthCheck = startChannelHealthCheck(dependencies, { workerUrl: clockUrl, holder: relay.nodeInstance })
	const keyRecovery = startKeyRecovery(dependencies, { workerUrl: clockUrl, holder: relay.nodeInstance })
	const exportWorkerUrl = new URL('./workers/data-export.ts', import.meta.url)
	// The dashboard's live hours are read on the same kind of thread.
	configureBucketReaderWorker(exportWorkerUrl)
	const dataExport = startDataExport(dependencies, { workerUrl: clockUrl, holder: relay.nodeInstance, exportWorkerUrl })
	const taskPolling = startTaskPolling(dependencies, relay, { workerUrl: clockUrl, holder: relay.nodeInstance })
	const retention = startRetention(dependencies, { workerUrl: clockUrl, holder: relay.nodeInstance })
	const stopWatchingChanges = changes.start()
	app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: config.maxBodyBytes })
	endStartUpJitPolicy()
	logger.info(`Ferry listening on http://${config.host}:${app.server?.port} (${store.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'Postgres'})`)
	const stop = async (signal: string) => {
		logger.info(`received ${signal}, shutting down`)
		stopReconciler()
		await healthCheck.stop()
		await keyRecovery.stop()
		await dataExport.stop()
		await taskPolling.stop()
		await retention.stop()
		stopWatchingChanges()
		await app.stop()
		// What this node holds of busy wallets goes back to them (a killed node's waits for its lease to run out).
		await relay.ledger.allowances?.returnAll()
		redis?.close()
		await walCheckpointer.stop()
		await store.close()
		process.exit(0)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
}

/** Prints every difference from the ledger invariant; exits 1 when there is one. */
async function audit(config: Config) {
	const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
	const { auditLedger } = await import('./billing/audit')
	const differences = await auditLedger(store)
	await store.close()
	for (const difference of differences) console.log(JSON.stringify(difference))
	console.log(differences.length === 0 ? 'ledger audit: no differences' : `ledger audit: ${differences.length} difference(s)`)
	process.exit(differences.length === 0 ? 0 : 1)
}

const [command, ...flags] = Bun.argv.slice(2)
const commands: Record<string, (config: Config) => Promise<void>> = { serve, audit }
const run = command && !command.startsWith('--') ? commands[command] : serve
const argv = command && !command.startsWith('--') ? flags : Bun.argv.slice(2)

if (command === 'import') {
	// Reads its own arguments: a dry run must not load the configuration (which creates the data directory).
	import('./cli/import-new-api/command').then(({ runImportCommand }) => runImportCommand(flags)).then((code) => process.exit(code), (error) => {
		console.error(error)
		process.exit(1)
	})
} else if (!run) {
	console.error(`unknown command "${command}": use "serve" (the default), "audit" or "import new-api <source>"`)
	process.exit(2)
} else {
	Promise.resolve()
		.then(() => run(loadConfig(Bun.env, argv)))
		.catch((error) => {
			console.error(error instanceof ConfigError ? error.message : error)
			process.exit(1)
		})
}
