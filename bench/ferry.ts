/**
 * Ferry as a bench target: a fresh data directory per node, seeded before start, then
 * `bun src/main.ts` as its own process on 127.0.0.1, with its output in log files of the data
 * directory. On SQLite (the default) that is one node; with a Postgres database (`databaseUrl`: a
 * fresh database the bench created) one or more nodes share it, and, given `redisUrl`, one Redis.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort, stopProcess, waitForStatus } from './processes'
import { seedFerry } from './seed-ferry'
import { CHAT_PATH, requestBodies, UPSTREAM_REPLY } from './workload'

const repositoryRoot = resolve(import.meta.dir, '..')

export interface FerryTarget {
	/** The first node's process (the only one on SQLite). */
	process: Subprocess
	processes: Subprocess[]
	/** The first node's URL. */
	url: string
	urls: string[]
	tokens: string[]
	/** Why the relay cannot be measured, or undefined when it can. */
	unavailable?: string
	stop(): Promise<void>
}

export interface FerryOptions {
	/** Leave the data directory (database, logs) in place and say where it is. */
	keepData?: boolean
	/** Write a CPU profile of Ferry (.cpuprofile and Markdown) into this directory when it stops. */
	profileDirectory?: string
	/** Start Ferry with this command instead of `bun src/main.ts` (e.g. the compiled `dist/ferry`). */
	command?: string[]
	/** Extra environment for Ferry's process. */
	env?: Record<string, string>
	/** A Postgres database for the nodes (empty: SQLite in the data directory). */
	databaseUrl?: string
	/** Redis for the nodes (several nodes on Postgres share their limits and changes through it). */
	redisUrl?: string
	/** How many nodes (more than one only on Postgres). */
	nodes?: number
	/** The token keys to seed, without `sk-` (seed-ferry.ts `tokenKeys`). */
	keys?: string[]
}

export async function startFerry(upstreamUrl: string, options: FerryOptions = {}): Promise<FerryTarget> {
	const databaseUrl = options.databaseUrl ?? ''
	const nodeCount = databaseUrl ? Math.max(1, options.nodes ?? 1) : 1
	const dataDirs = Array.from({ length: nodeCount }, () => mkdtempSync(join(tmpdir(), 'ferry-bench-')))
	const secrets = { cryptoSecret: randomBytes(32).toString('base64url'), sessionSecret: randomBytes(32).toString('base64url') }
	const redisPrefix = `ferry-bench-${randomBytes(4).toString('hex')}:`
	const children: Subprocess[] = []
	const stop = async () => {
		await Promise.all(children.map((child) => stopProcess(child)))
		for (const dataDir of dataDirs) {
			if (options.keepData) console.error(`bench: Ferry's data directory is kept at ${dataDir}`)
			else rmSync(dataDir, { recursive: true, force: true })
		}
	}
	const profiling = options.profileDirectory ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${resolve(options.profileDirectory)}`] : []
	try {
		const tokens = await seedFerry({ dataDir: dataDirs[0]!, upstreamUrl, databaseUrl, keys: options.keys, ...secrets })
		const urls: string[] = []
		for (const [index, dataDir] of dataDirs.entries()) {
			const port = freePort()
			const url = `http://127.0.0.1:${port}`
			const child = Bun.spawn(options.command ?? ['bun', ...profiling, 'src/main.ts'], {
				cwd: repositoryRoot,
				env: {
					...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, REDIS_URL: options.redisUrl ?? '',
					REDIS_KEY_PREFIX: redisPrefix, NODE_NAME: `bench-${index + 1}`, CRYPTO_SECRET: secrets.cryptoSecret, SESSION_SECRET: secrets.sessionSecret, ...options.env,
				},
				stdout: Bun.file(join(dataDir, 'ferry.log')),
				stderr: Bun.file(join(dataDir, 'ferry.err.log')),
			})
			children.push(child)
			// Nodes start one after the other: the first migrates the database.
			await waitForStatus(url, child)
			urls.push(url)
		}
		let unavailable: string | undefined
		for (const url of urls) unavailable ??= await probeRelay(url, tokens[0]!)
		return { process: children[0]!, processes: children, url: urls[0]!, urls, tokens, unavailable, stop }
	} catch (error) {
		const log = dataDirs.flatMap((dataDir) => [join(dataDir, 'ferry.log'), join(dataDir, 'ferry.err.log')])
			.map((file) => { try { return readFileSync(file, 'utf8') } catch { return '' } }).join('\n')
		await stop()
		throw new Error(`Ferry could not be prepared: ${(error as Error).message}\n${log.trim().split('\n').slice(-10).join('\n')}`)
	}
}

/** One call of each kind; the relay counts as available only if the upstream's answer came back. */
async function probeRelay(url: string, token: string): Promise<string | undefined> {
	for (const stream of [false, true]) {
		const response = await fetch(url + CHAT_PATH, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
			body: requestBodies(stream)[0],
			signal: AbortSignal.timeout(10_000),
		}).catch((error: Error) => error)
		if (response instanceof Error) return `${stream ? 'stream' : 'non-stream'} probe failed: ${response.message}`
		const text = await response.text()
		const relayed = response.status === 200 && (stream ? streamedText(text) === UPSTREAM_REPLY && text.includes('data: [DONE]') : text.includes(UPSTREAM_REPLY))
		if (!relayed) return `${stream ? 'stream' : 'non-stream'} probe: HTTP ${response.status} ${text.replace(/\s+/g, ' ').slice(0, 120)}`
	}
	return undefined
}

/** The content deltas of an SSE chat stream, joined; empty when a chunk is not JSON. */
function streamedText(text: string) {
	let joined = ''
	for (const line of text.split('\n')) {
		if (!line.startsWith('data: ') || line === 'data: [DONE]') continue
		try {
			joined += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? ''
		} catch {
			return ''
		}
	}
	return joined
}
