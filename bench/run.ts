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
 * Ferry's data directory), --profile DIR (CPU profile of Ferry, .cpuprofile and Markdown, written into DIR).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomString } from '../src/lib/crypto'
import { type FerryTarget, startFerry } from './ferry'
import type { LoadPlan, LoadResult } from './load'
import { cpuSeconds, memory, type Server, startServer, stopProcess } from './processes'
import { type Memory, type ModeResults, modeTables, type OpenBlock, type Run, summaryBlock, TARGETS, type TargetName } from './report'
import { CHAT_PATH, requestBodies, skewedTokens } from './workload'

const benchDirectory = import.meta.dir
const WATCHDOG_MS = 5 * 60_000
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

const workDirectory = mkdtempSync(join(tmpdir(), 'ferry-bench-load-'))
let upstream: Server | undefined
let bare: Server | undefined
let ferry: FerryTarget | undefined

async function cleanUp() {
	await Promise.allSettled([stopProcess(upstream?.process), stopProcess(bare?.process), ferry?.stop()])
	rmSync(workDirectory, { recursive: true, force: true })
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
async function drive(url: string, pid: number, plan: Omit<LoadPlan, 'url' | 'bodies' | 'authorizations'>, stream: boolean, tokens: string[]): Promise<Run> {
	const file = join(workDirectory, `plan-${++planCount}.json`)
	const full: LoadPlan = { ...plan, url: url + CHAT_PATH, bodies: requestBodies(stream), authorizations: tokens.map((token) => `Bearer ${token}`) }
	writeFileSync(file, JSON.stringify(full))
	const child = Bun.spawn(['bun', join(benchDirectory, 'load.ts'), file], { stdout: 'pipe', stderr: 'pipe' })
	const killer = setTimeout(() => child.kill('SIGKILL'), plan.durationMs + 30_000)
	const cpuBefore = cpuSeconds(pid)
	const [output, errors] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
	const cpuAfter = cpuSeconds(pid)
	clearTimeout(killer)
	const line = output.trim().split('\n').at(-1) ?? ''
	if (!line.startsWith('{')) return { note: `load generator failed: ${errors.trim().split('\n').at(-1) ?? `exit ${child.exitCode}`}` }
	const result = JSON.parse(line) as LoadResult
	return { result, cpuMicroseconds: result.ok > 0 ? ((cpuAfter - cpuBefore) * 1e6) / result.ok : undefined }
}

type Targets = Record<TargetName, { url: string; pid: number; unavailable?: string }>

/** Sustaining a rate needs headroom: open-loop latency at or past saturation only measures the queue. */
const HEADROOM = 1.1

async function measureMode(mode: ModeResults['mode'], targets: Targets, tokens: string[]): Promise<ModeResults> {
	const stream = mode === 'stream'
	const results: ModeResults = { mode, saturation: {}, open: [], sequential: {} }
	const closed = (durationMs: number, count: number) => ({ mode: 'closed' as const, connections: count, durationMs, maxRequests: 2_000_000 })
	for (const name of TARGETS) {
		const target = targets[name]
		if (target.unavailable) {
			results.saturation[name] = { note: target.unavailable }
			continue
		}
		progress(`${mode}: saturating ${name}`)
		await drive(target.url, target.pid, closed(WARMUP_MS, connections), stream, tokens)
		results.saturation[name] = await drive(target.url, target.pid, closed(seconds * 1000, connections), stream, tokens)
	}
	const saturated = (name: TargetName) => results.saturation[name]?.result?.perSecond ?? 0
	const halfOf = (perSecond: number) => Math.max(50, Math.round(perSecond / 2 / 50) * 50)
	const rates = [{ rate: halfOf(saturated('bare') || saturated('upstream') / 2), basis: "half the bare proxy's saturation" }]
	if (saturated('ferry') > 0 && saturated('ferry') < rates[0]!.rate * HEADROOM) rates.push({ rate: halfOf(saturated('ferry')), basis: "half Ferry's saturation" })
	for (const { rate, basis } of rates) {
		const block: OpenBlock = { rate, basis, runs: {} }
		results.open.push(block)
		for (const name of TARGETS) {
			const target = targets[name]
			if (target.unavailable) block.runs[name] = { note: target.unavailable }
			else if (saturated(name) < rate * HEADROOM) block.runs[name] = { note: `not run: saturates at ${Math.round(saturated(name))}/s` }
			else {
				progress(`${mode}: open loop at ${rate}/s on ${name}`)
				block.runs[name] = await drive(target.url, target.pid, { mode: 'open', rate, connections, durationMs: seconds * 1000, maxRequests: Math.ceil(rate * seconds) + 1 }, stream, tokens)
			}
		}
	}
	for (const name of TARGETS) {
		const target = targets[name]
		if (target.unavailable) {
			results.sequential[name] = { note: target.unavailable }
			continue
		}
		progress(`${mode}: sequential calls on ${name}`)
		results.sequential[name] = await drive(target.url, target.pid, closed(SEQUENTIAL_MS, 1), stream, tokens)
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

	progress('seeding and starting Ferry (1 000 channels, 10 000 tokens)')
	let ferryProblem: string | undefined
	try {
		ferry = await startFerry(upstream.url, ferryOptions)
		ferryProblem = ferry.unavailable && `Ferry relay not available — ${ferry.unavailable}`
	} catch (error) {
		ferryProblem = `Ferry did not start — ${(error as Error).message.split('\n').join(' | ').slice(0, 300)}`
	}
	await Bun.sleep(1_000)
	const ferryIdle = ferry ? memory(ferry.process.pid) : undefined
	const tokens = ferry?.tokens ?? Array.from({ length: 10_000 }, () => `sk-${randomString(48)}`)

	const targets: Targets = {
		upstream: { url: upstream.url, pid: upstream.process.pid },
		bare: { url: bare.url, pid: bare.process.pid },
		ferry: { url: ferry?.url ?? '', pid: ferry?.process.pid ?? 0, unavailable: ferryProblem },
	}
	const all = [
		await measureMode('non-stream', targets, tokens),
		await measureMode('stream', targets, tokens),
		await measureMode('non-stream, skewed tokens', targets, skewedTokens(tokens)),
	]

	const memoryReadings: Partial<Record<TargetName, Memory>> = { bare: { idleMb: bareIdle.rssMb, peakMb: memory(bare.process.pid).peakMb } }
	if (ferry && ferryIdle) memoryReadings.ferry = { idleMb: ferryIdle.rssMb, peakMb: memory(ferry.process.pid).peakMb }

	console.log()
	console.log(`Ferry bench — ${context}`)
	console.log('Load: bench/load.ts (raw keep-alive HTTP/1.1 sockets, own process); all processes on the same cores over loopback.')
	console.log('"added" = latency minus the upstream-direct latency in the same block; CPU µs/call = the target process only.')
	if (ferryProblem) console.log(`Ferry: ${ferryProblem}`)
	for (const results of all) {
		console.log()
		console.log(modeTables(results, seconds, connections))
	}
	console.log()
	console.log(`Memory (VmRSS idle / VmHWM peak): ${memoryReadings.ferry ? `Ferry ${memoryReadings.ferry.idleMb.toFixed(0)} / ${memoryReadings.ferry.peakMb.toFixed(0)} MB, ` : ''}bare proxy ${memoryReadings.bare!.idleMb.toFixed(0)} / ${memoryReadings.bare!.peakMb.toFixed(0)} MB`)
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
