/**
 * `bun run bench`: Ferry against the floor, in one run on this machine (docs/performance.md#the-benches, README.md here).
 *
 * Starts the bench upstream, the bare pass-through proxy and Ferry (seeded with 1 000 channels and
 * 10 000 tokens), each as its own process, then drives each target with the same load from a fresh
 * load-generator process: saturation, open loop at half the bare proxy's saturation rate, and one
 * connection at a time — for non-stream and stream chat completions with the tokens taken in turn,
 * and for non-stream calls with a skewed mix of tokens (workload.ts). Prints the tables and a summary
 * block for the README. Never asserts numbers; stops by itself.
 *
 * Flags: --seconds N (each measured run, default 5), --connections N (default 64), --keep-data (leave
 * Ferry's data directory), --profile DIR (CPU profile of Ferry, .cpuprofile and Markdown, written into DIR),
 * --database postgres (also Ferry on a fresh Postgres database made on the server of
 * BENCH_DATABASE_URL), --nodes 2 (also two Ferry nodes on another fresh database and the Redis of
 * BENCH_REDIS_URL, redis://127.0.0.1:6379 by default, the load split between them; implies
 * --database postgres), --workloads a,b (some of: non-stream, stream, skewed, one-wallet).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { randomString } from '../src/lib/crypto'
import { type FerryTarget, startFerry } from './ferry'
import type { LoadPlan, LoadResult } from './load'
import { cpuSeconds, memory, postgresCpuSeconds, type Server, startServer, stopProcess } from './processes'
import { type Memory, type ModeResults, modeTables, type OpenBlock, type Run, summaryBlock, type TargetName } from './report'
import { TOKENS_PER_USER, tokenKeys } from './seed-ferry'
import { CHAT_PATH, requestBodies, skewedTokens } from './workload'

const benchDirectory = import.meta.dir
const WATCHDOG_MS = 20 * 60_000
const WARMUP_MS = 1_000
const SEQUENTIAL_MS = 2_000

const flagValue = (name: string) => {
	const index = process.argv.indexOf(`--${name}`)
	return index >= 0 ? process.argv[index + 1] : undefined
}
function numberFlag(name: string, fallback: number) {
	const value = Number(flagValue(name) ?? fallback)
	return Number.isFinite(value) && value > 0 ? value : fallback
}
const seconds = numberFlag('seconds', 5)
const connections = numberFlag('connections', 64)
const ferryOptions = { keepData: process.argv.includes('--keep-data'), profileDirectory: flagValue('profile') }
const nodeCount = numberFlag('nodes', 1)
const onPostgres = flagValue('database') === 'postgres' || nodeCount > 1
const postgresBase = process.env.BENCH_DATABASE_URL ?? ''
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
const WORKLOADS = ['non-stream', 'stream', 'skewed', 'one-wallet'] as const
const workloads = (flagValue('workloads')?.split(',') ?? [...WORKLOADS]).filter((name): name is (typeof WORKLOADS)[number] => (WORKLOADS as readonly string[]).includes(name))

const workDirectory = mkdtempSync(join(tmpdir(), 'ferry-bench-load-'))
let upstream: Server | undefined
let bare: Server | undefined
const ferries: FerryTarget[] = []
const databases: { drop(): Promise<void> }[] = []

async function cleanUp() {
	await Promise.allSettled([stopProcess(upstream?.process), stopProcess(bare?.process), ...ferries.map((ferry) => ferry.stop())])
	await Promise.allSettled(databases.map((database) => database.drop()))
	rmSync(workDirectory, { recursive: true, force: true })
}

/** A fresh database on the server of BENCH_DATABASE_URL, dropped when the bench ends. */
async function freshDatabase(): Promise<string> {
	const name = `ferry_bench_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
	const admin = postgres(postgresBase, { max: 1, onnotice: () => {} })
	try {
		await admin.unsafe(`CREATE DATABASE "${name}"`)
	} finally {
		await admin.end({ timeout: 5 })
	}
	databases.push({
		async drop() {
			const dropper = postgres(postgresBase, { max: 1, onnotice: () => {} })
			await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => dropper.end({ timeout: 5 }))
		},
	})
	const url = new URL(postgresBase)
	url.pathname = `/${name}`
	return url.toString()
}

const watchdog = setTimeout(async () => {
	console.error(`bench: still running after ${WATCHDOG_MS / 60_000} minutes, stopping`)
	await cleanUp()
	process.exit(1)
}, WATCHDOG_MS)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, async () => {
		await cleanUp()
		process.exit(130)
	})
}

let planCount = 0
/** Runs one load in its own process and returns what it measured, with the target's CPU per call. */
async function drive(target: Target, plan: Omit<LoadPlan, 'urls' | 'bodies' | 'authorizations'>, stream: boolean, tokens: string[]): Promise<Run> {
	const file = join(workDirectory, `plan-${++planCount}.json`)
	const full: LoadPlan = { ...plan, urls: target.urls.map((url) => url + CHAT_PATH), bodies: requestBodies(stream), authorizations: tokens.map((token) => `Bearer ${token}`) }
	writeFileSync(file, JSON.stringify(full))
	const child = Bun.spawn(['bun', join(benchDirectory, 'load.ts'), file], { stdout: 'pipe', stderr: 'pipe' })
	const killer = setTimeout(() => child.kill('SIGKILL'), plan.durationMs + 30_000)
	const cpuOf = () => target.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
	const cpuBefore = cpuOf()
	const databaseBefore = target.postgres ? postgresCpuSeconds() : 0
	const [output, errors] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
	const cpuAfter = cpuOf()
	const databaseAfter = target.postgres ? postgresCpuSeconds() : 0
	clearTimeout(killer)
	const line = output.trim().split('\n').at(-1) ?? ''
	if (!line.startsWith('{')) return { note: `load generator failed: ${errors.trim().split('\n').at(-1) ?? `exit ${child.exitCode}`}` }
	const result = JSON.parse(line) as LoadResult
	const perCall = (seconds: number) => result.ok > 0 ? (seconds * 1e6) / result.ok : undefined
	return { result, cpuMicroseconds: perCall(cpuAfter - cpuBefore), databaseCpuMicroseconds: target.postgres ? perCall(databaseAfter - databaseBefore) : undefined }
}

/** A target's nodes (one but for `ferry-pg-2`); CPU per call is that of all of them. */
type Target = { urls: string[]; pids: number[]; unavailable?: string; postgres?: boolean }
type Targets = Record<TargetName, Target>

/** Every workload also runs open loop at this rate: a busy real gateway (the SQLite node's added p99 there should stay within 2 ms). */
const BUSY_GATEWAY_RATE = 1_000

/** Sustaining a rate needs headroom: open-loop latency at or past saturation only measures the queue. */
const HEADROOM = 1.1

async function measureMode(mode: ModeResults['mode'], targets: Targets, tokens: string[]): Promise<ModeResults> {
	const stream = mode === 'stream'
	const names = Object.keys(targets)
	const results: ModeResults = { mode, targets: names, saturation: {}, open: [], sequential: {} }
	const closed = (durationMs: number, count: number) => ({ mode: 'closed' as const, connections: count, durationMs, maxRequests: 2_000_000 })
	for (const name of names) {
		const target = targets[name]!
		if (target.unavailable) {
			results.saturation[name] = { note: target.unavailable }
			continue
		}
		progress(`${mode}: saturating ${name}`)
		await drive(target, closed(WARMUP_MS, connections), stream, tokens)
		results.saturation[name] = await drive(target, closed(seconds * 1000, connections), stream, tokens)
	}
	const saturated = (name: TargetName) => results.saturation[name]?.result?.perSecond ?? 0
	const halfOf = (perSecond: number) => Math.max(50, Math.round(perSecond / 2 / 50) * 50)
	const rates = [{ rate: halfOf(saturated('bare') || saturated('upstream') / 2), basis: "half the bare proxy's saturation" }]
	const slowest = Math.min(...names.filter((name) => name.startsWith('ferry') && saturated(name) > 0).map(saturated))
	if (Number.isFinite(slowest) && slowest < rates[0]!.rate * HEADROOM) rates.push({ rate: halfOf(slowest), basis: "half the slowest Ferry's saturation" })
	if (!rates.some((entry) => entry.rate === BUSY_GATEWAY_RATE)) rates.push({ rate: BUSY_GATEWAY_RATE, basis: 'a busy gateway' })
	for (const { rate, basis } of rates) {
		const block: OpenBlock = { rate, basis, runs: {} }
		results.open.push(block)
		for (const name of names) {
			const target = targets[name]!
			if (target.unavailable) block.runs[name] = { note: target.unavailable }
			else if (saturated(name) < rate * HEADROOM) block.runs[name] = { note: `not run: saturates at ${Math.round(saturated(name))}/s` }
			else {
				progress(`${mode}: open loop at ${rate}/s on ${name}`)
				block.runs[name] = await drive(target, { mode: 'open', rate, connections, durationMs: seconds * 1000, maxRequests: Math.ceil(rate * seconds) + 1 }, stream, tokens)
			}
		}
	}
	for (const name of names) {
		const target = targets[name]!
		if (target.unavailable) {
			results.sequential[name] = { note: target.unavailable }
			continue
		}
		progress(`${mode}: sequential calls on ${name}`)
		results.sequential[name] = await drive(target, closed(SEQUENTIAL_MS, 1), stream, tokens)
	}
	return results
}

function progress(message: string) {
	process.stderr.write(`bench: ${message}\n`)
}

async function main() {
	const started = performance.now()
	const context = `${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}, load average ${loadavg()[0]!.toFixed(1)} at start`
	progress('starting the upstream and the bare proxy')
	upstream = await startServer('upstream', ['bun', join(benchDirectory, 'upstream.ts')])
	bare = await startServer('bare proxy', ['bun', join(benchDirectory, 'bare-proxy.ts'), upstream.url])
	const bareIdle = memory(bare.process.pid)

	const keys = tokenKeys()
	const tokens = keys.map((key) => `sk-${key}`)
	const targets: Targets = {
		upstream: { urls: [upstream.url], pids: [upstream.process.pid] },
		bare: { urls: [bare.url], pids: [bare.process.pid] },
	}
	const plans: { name: TargetName; nodes: number; postgres: boolean }[] = [{ name: 'ferry', nodes: 1, postgres: false }]
	if (onPostgres) plans.push({ name: 'ferry-pg', nodes: 1, postgres: true })
	if (nodeCount > 1) plans.push({ name: 'ferry-pg-2', nodes: nodeCount, postgres: true })
	const memoryReadings: Partial<Record<TargetName, Memory>> = { bare: { idleMb: bareIdle.rssMb, peakMb: 0 } }
	const problems: string[] = []
	for (const plan of plans) {
		progress(`seeding and starting ${plan.name} (1 000 channels, 10 000 tokens${plan.nodes > 1 ? `, ${plan.nodes} nodes` : ''})`)
		let problem: string | undefined
		let ferry: FerryTarget | undefined
		try {
			if (plan.postgres && !postgresBase) throw new Error('BENCH_DATABASE_URL is not set')
			const databaseUrl = plan.postgres ? await freshDatabase() : ''
			ferry = await startFerry(upstream.url, { ...ferryOptions, keys, databaseUrl, nodes: plan.nodes, redisUrl: plan.nodes > 1 ? redisUrl : '' })
			ferries.push(ferry)
			problem = ferry.unavailable && `Ferry relay not available — ${ferry.unavailable}`
		} catch (error) {
			problem = `Ferry did not start — ${(error as Error).message.split('\n').join(' | ').slice(0, 300)}`
		}
		if (problem) problems.push(`${plan.name}: ${problem}`)
		targets[plan.name] = { urls: ferry?.urls ?? [], pids: ferry?.processes.map((child) => child.pid) ?? [], unavailable: problem, postgres: plan.postgres }
	}
	await Bun.sleep(1_000)
	for (const plan of plans) {
		const pids = targets[plan.name]!.pids
		if (pids.length > 0) memoryReadings[plan.name] = { idleMb: memory(pids[0]!).rssMb, peakMb: 0 }
	}

	// A running gateway has its tokens cached: one call per token first, so no workload measures the
	// cache filling (10 000 reads, a round trip each on Postgres).
	for (const plan of plans) {
		const target = targets[plan.name]!
		if (target.unavailable) continue
		progress(`warming ${plan.name}'s token cache (one call per token)`)
		await drive(target, { mode: 'closed', connections, durationMs: 30_000, maxRequests: tokens.length }, false, tokens)
	}

	const all: ModeResults[] = []
	if (workloads.includes('non-stream')) all.push(await measureMode('non-stream', targets, tokens))
	if (workloads.includes('stream')) all.push(await measureMode('stream', targets, tokens))
	if (workloads.includes('skewed')) all.push(await measureMode('non-stream, skewed tokens', targets, skewedTokens(tokens)))
	// One user's 100 tokens (seed-ferry.ts gives user 1 the first ones): 64 calls at a time on one wallet.
	if (workloads.includes('one-wallet')) all.push(await measureMode('non-stream, one wallet', targets, tokens.slice(0, TOKENS_PER_USER)))

	for (const [name, reading] of Object.entries(memoryReadings)) {
		const pid = targets[name]?.pids[0]
		if (reading && pid) reading.peakMb = memory(pid).peakMb
	}

	console.log()
	console.log(`Ferry bench — ${context}`)
	console.log('Load: bench/load.ts (raw keep-alive HTTP/1.1 sockets, own process); all processes on the same cores over loopback.')
	console.log('"added" = latency minus the upstream-direct latency in the same block; CPU µs/call = the target process only.')
	for (const problem of problems) console.log(problem)
	for (const results of all) {
		console.log()
		console.log(modeTables(results, seconds, connections))
	}
	console.log()
	console.log(`Memory (VmRSS idle / VmHWM peak, the first node): ${Object.entries(memoryReadings).map(([name, reading]) => `${name} ${reading!.idleMb.toFixed(0)} / ${reading!.peakMb.toFixed(0)} MB`).join(', ')}`)
	console.log()
	console.log('──── summary (paste into the README) ────')
	console.log(summaryBlock(all, memoryReadings, context))
	console.log('────')
	console.log(`bench took ${((performance.now() - started) / 1000).toFixed(0)} s`)
}

try {
	await main()
} finally {
	clearTimeout(watchdog)
	await cleanUp()
}
process.exit(0)
