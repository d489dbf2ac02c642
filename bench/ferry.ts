/**
 * Ferry as a bench target: a fresh data directory, seeded before start, then `bun src/main.ts` as
 * its own process on 127.0.0.1, with its output in a log file of the data directory.
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
	process: Subprocess
	url: string
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
}

export async function startFerry(upstreamUrl: string, options: FerryOptions = {}): Promise<FerryTarget> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ferry-bench-'))
	const logFile = join(dataDir, 'ferry.log')
	const secrets = { cryptoSecret: randomBytes(32).toString('base64url'), sessionSecret: randomBytes(32).toString('base64url') }
	const port = freePort()
	const url = `http://127.0.0.1:${port}`
	let child: Subprocess | undefined
	const stop = async () => {
		await stopProcess(child)
		if (options.keepData) console.error(`bench: Ferry's data directory is kept at ${dataDir}`)
		else rmSync(dataDir, { recursive: true, force: true })
	}
	const profiling = options.profileDirectory ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${resolve(options.profileDirectory)}`] : []
	try {
		const tokens = await seedFerry({ dataDir, upstreamUrl, ...secrets })
		child = Bun.spawn(options.command ?? ['bun', ...profiling, 'src/main.ts'], {
			cwd: repositoryRoot,
			env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', CRYPTO_SECRET: secrets.cryptoSecret, SESSION_SECRET: secrets.sessionSecret, ...options.env },
			stdout: Bun.file(logFile),
			stderr: Bun.file(join(dataDir, 'ferry.err.log')),
		})
		await waitForStatus(url, child)
		const unavailable = await probeRelay(url, tokens[0]!)
		return { process: child, url, tokens, unavailable, stop }
	} catch (error) {
		const log = [logFile, join(dataDir, 'ferry.err.log')].map((file) => { try { return readFileSync(file, 'utf8') } catch { return '' } }).join('\n')
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
