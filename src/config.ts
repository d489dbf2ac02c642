/**
 * The one place that reads the environment. Every setting is an environment variable and also a
 * command-line flag (`PORT` ↔ `--port`, `DATA_DIR` ↔ `--data-dir`); a flag wins over the variable.
 * Secrets left unset are generated once into the data directory so restarts keep sessions valid
 * and encrypted columns readable.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { isAddressOrRange } from './lib/client-address'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const

/**
 * A node's name: it starts the `<node name>/<boot id>` that marks the node's holds, allowances and
 * leases, so it must not contain the "/" that ends it (a node `a` would otherwise take for its own
 * the holds of a node `a/1`).
 */
const NODE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/
const NODE_NAME_RULE = 'at most 64 letters (A-Z, a-z), digits, ".", "_" or "-"'

/** The host name stands in for an unset NODE_NAME, made to fit its rule rather than refused. */
export function nodeNameOfHost(host: string) {
	return host.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64) || 'node'
}

const configSchema = z.object({
	PORT: z.coerce.number().int().min(0).max(65535).default(3000),
	HOST: z.string().default('0.0.0.0'),
	DATA_DIR: z.string().default('./data'),
	DATABASE_URL: z.string().default('').refine(
		(value) => value === '' || /^postgres(ql)?:\/\//.test(value),
		'DATABASE_URL must be empty (SQLite) or a postgres:// URL',
	),
	REDIS_URL: z.string().default(''),
	REDIS_KEY_PREFIX: z.string().default('ferry:'),
	SESSION_SECRET: z.string().default(''),
	CRYPTO_SECRET: z.string().default(''),
	LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
	NODE_NAME: z.string().default('').refine((value) => value === '' || NODE_NAME_PATTERN.test(value), `NODE_NAME must be ${NODE_NAME_RULE}`),
	MAX_BODY_MB: z.coerce.number().positive().default(32),
	METRICS_TOKEN: z.string().default(''),
	UPSTREAM_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
	UPSTREAM_FIRST_BYTE_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
	UPSTREAM_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
	UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS: z.coerce.number().min(0).default(0),
	TRUSTED_PROXIES: z.string().default('').transform((text) => text.split(/[\s,]+/).filter(Boolean)).refine(
		(entries) => entries.every(isAddressOrRange),
		'TRUSTED_PROXIES must list IP addresses or CIDR ranges, separated by commas',
	),
})

export type Config = Readonly<{
	port: number
	host: string
	dataDir: string
	databaseUrl: string
	redisUrl: string
	/** Prepended to Ferry's Redis keys and channels, so several deployments can share one server. */
	redisKeyPrefix: string
	sessionSecret: string
	cryptoSecret: string
	logLevel: (typeof LOG_LEVELS)[number]
	nodeName: string
	maxBodyBytes: number
	/** Reverse proxies whose `X-Forwarded-For` names the client (empty: trust no header). */
	trustedProxies: readonly string[]
	/**
	 * Limits on every upstream call: reaching the server, its first byte, the gap between chunks; and
	 * for a streamed answer, its first content after the head (0: none; a channel's setting may differ).
	 */
	upstreamTimeouts: { connectMs: number; firstByteMs: number; idleMs: number; firstTokenMs: number }
	/** The bearer `/metrics` asks for; empty: `/metrics` answers direct loopback requests only. */
	metricsToken: string
}>

/** Reads `--name value` and `--name=value` flags into their environment-variable names. */
export function flagsToEnvironment(argv: readonly string[]): Record<string, string> {
	const values: Record<string, string> = {}
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index]!
		if (!argument.startsWith('--')) continue
		const [flag, inline] = argument.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
		const name = flag.replaceAll('-', '_').toUpperCase()
		if (inline !== undefined) values[name] = inline
		else if (argv[index + 1] !== undefined && !argv[index + 1]!.startsWith('--')) values[name] = argv[++index]!
		else values[name] = 'true'
	}
	return values
}

export class ConfigError extends Error {}

export function loadConfig(environment: Record<string, string | undefined>, argv: readonly string[] = []): Config {
	const parsed = configSchema.safeParse({ ...pickKnown(environment), ...flagsToEnvironment(argv) })
	if (!parsed.success) {
		const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
		throw new ConfigError(`invalid configuration: ${problems.join('; ')}`)
	}
	const values = parsed.data
	const nodeName = values.NODE_NAME || nodeNameOfHost(hostname())
	const dataDir = resolve(values.DATA_DIR)
	mkdirSync(dataDir, { recursive: true })
	const secrets = values.SESSION_SECRET && values.CRYPTO_SECRET ? undefined : readOrCreateSecrets(dataDir)
	return Object.freeze({
		port: values.PORT,
		host: values.HOST,
		dataDir,
		databaseUrl: values.DATABASE_URL,
		redisUrl: values.REDIS_URL,
		redisKeyPrefix: values.REDIS_KEY_PREFIX,
		sessionSecret: values.SESSION_SECRET || secrets!.session,
		cryptoSecret: values.CRYPTO_SECRET || secrets!.crypto,
		logLevel: values.LOG_LEVEL,
		nodeName,
		maxBodyBytes: Math.round(values.MAX_BODY_MB * 1024 * 1024),
		trustedProxies: values.TRUSTED_PROXIES,
		upstreamTimeouts: {
			connectMs: values.UPSTREAM_CONNECT_TIMEOUT_SECONDS * 1000,
			firstByteMs: values.UPSTREAM_FIRST_BYTE_TIMEOUT_SECONDS * 1000,
			idleMs: values.UPSTREAM_IDLE_TIMEOUT_SECONDS * 1000,
			firstTokenMs: values.UPSTREAM_FIRST_TOKEN_TIMEOUT_SECONDS * 1000,
		},
		metricsToken: values.METRICS_TOKEN,
	})
}

function pickKnown(environment: Record<string, string | undefined>) {
	const known: Record<string, string> = {}
	for (const key of Object.keys(configSchema.shape)) {
		const value = environment[key]
		if (value !== undefined && value !== '') known[key] = value
	}
	return known
}

const secretsSchema = z.object({ session: z.string().min(32), crypto: z.string().min(32) })

function readOrCreateSecrets(dataDir: string) {
	const file = join(dataDir, 'secrets.json')
	if (existsSync(file)) return secretsSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
	const secrets = { session: randomBytes(32).toString('base64url'), crypto: randomBytes(32).toString('base64url') }
	writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 })
	chmodSync(file, 0o600)
	return secrets
}
