/**
 * The command line of `ferry import new-api <source> [--dry-run] [--with-logs] [--logs-source <source>]`,
 * with Ferry's usual `--data-dir` / `--database-url` (or DATA_DIR / DATABASE_URL) naming the target.
 * A dry run reads only the source: it loads no configuration, so it creates no data directory,
 * no secrets file and no database. Answers the exit code.
 */
import { randomBytes } from 'node:crypto'
import { ConfigError, loadConfig } from '@/config'
import { openStore, type Store } from '@/db'
import { createSecretBox } from '@/lib/crypto'
import { importNewApi } from './index'
import { NotNewApiError } from './plan'
import { openSource, SourceError, type SourceDatabase } from './source'
import { TargetNotEmptyError } from './write'

const USAGE = 'usage: ferry import new-api <new-api SQLite file | postgres://… | mysql://…> [--dry-run] [--with-logs] [--logs-source <source>] [--data-dir <dir> | --database-url <postgres://…>]'
const SWITCHES = new Set(['--dry-run', '--with-logs'])
const SOURCE_FLAVORS = new Set(['new-api', 'one-api'])

interface Arguments {
	source: string
	logsSource: string | undefined
	dryRun: boolean
	withLogs: boolean
	/** The rest: Ferry's configuration flags. */
	configFlags: string[]
}

function parse(argv: readonly string[]): Arguments | string {
	const positional: string[] = []
	const configFlags: string[] = []
	let logsSource: string | undefined
	const switches = new Set<string>()
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index]!
		if (SWITCHES.has(argument)) switches.add(argument)
		else if (argument === '--logs-source') logsSource = argv[++index]
		else if (argument.startsWith('--logs-source=')) logsSource = argument.slice('--logs-source='.length)
		else if (argument.startsWith('--')) {
			configFlags.push(argument)
			if (!argument.includes('=') && argv[index + 1] !== undefined && !argv[index + 1]!.startsWith('--')) configFlags.push(argv[++index]!)
		} else positional.push(argument)
	}
	const [flavor, source, ...extra] = positional
	if (!flavor || !SOURCE_FLAVORS.has(flavor)) return `ferry import: name what to import from (new-api)\n${USAGE}`
	if (!source || extra.length) return `ferry import ${flavor}: give exactly one source\n${USAGE}`
	if (logsSource === '') return `--logs-source needs a source\n${USAGE}`
	return { source, logsSource, dryRun: switches.has('--dry-run'), withLogs: switches.has('--with-logs'), configFlags }
}

/** Failures the import words itself: their message says what to do. */
const EXPECTED_ERRORS = [SourceError, NotNewApiError, TargetNotEmptyError, ConfigError]
/** Wrappers seen are one or two deep; a cycle of causes must not loop. */
const MAX_CAUSE_DEPTH = 8

/**
 * Any other failure (a database refusing a write or unreachable, a bug) in one line: the first
 * line of the innermost cause, the driver's own words. drizzle's wrapper lists the query's
 * parameters — password hashes and keys among them — so its message is never printed.
 */
function oneLine(error: unknown): string {
	let innermost = error
	for (let depth = 0; depth < MAX_CAUSE_DEPTH && innermost instanceof Error && innermost.cause !== undefined; depth++) innermost = innermost.cause
	const message = innermost instanceof Error ? innermost.message : String(innermost)
	return message.split('\n')[0]!.trim() || 'unknown error'
}

export async function runImportCommand(argv: readonly string[]): Promise<number> {
	const parsed = parse(argv)
	if (typeof parsed === 'string') {
		console.error(parsed)
		return 2
	}
	const progress = (line: string) => console.log(line)
	const opened: { close(): Promise<void> }[] = []
	try {
		const source: SourceDatabase = await openSource(parsed.source)
		opened.push(source)
		const logsSource = parsed.logsSource ? await openSource(parsed.logsSource) : undefined
		if (logsSource) opened.push(logsSource)
		if (parsed.dryRun) {
			// Keys are sealed only to be thrown away: throwaway secrets, and no configuration loaded.
			const throwaway = () => randomBytes(32).toString('base64url')
			const report = await importNewApi({ source, logsSource, secrets: createSecretBox(throwaway(), throwaway()), withLogs: parsed.withLogs, progress })
			console.log('dry run: nothing was written. What the import would do:')
			for (const line of report.lines()) console.log(line)
			return 0
		}
		const config = loadConfig(Bun.env, parsed.configFlags)
		const store: Store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
		opened.push(store)
		const where = config.databaseUrl ? 'Postgres at DATABASE_URL' : `SQLite in ${config.dataDir}`
		const report = await importNewApi({
			source, logsSource, target: { store, where }, secrets: createSecretBox(config.cryptoSecret, config.sessionSecret),
			withLogs: parsed.withLogs, progress,
		})
		console.log(`import done into ${where}:`)
		for (const line of report.lines()) console.log(line)
		console.log('Start Ferry on this database with the same CRYPTO_SECRET (kept in the data directory unless set): `ferry --port <new-api\'s port>`. `ferry audit` checks the ledger.')
		return 0
	} catch (error) {
		const expected = EXPECTED_ERRORS.some((kind) => error instanceof kind)
		console.error(`ferry import: ${expected ? (error as Error).message : `failed: ${oneLine(error)}`}`)
		return 1
	} finally {
		for (const handle of opened.reverse()) await handle.close().catch(() => {})
	}
}
