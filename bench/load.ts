/**
 * The bench's load generator, run as its own process: `bun bench/load.ts <file with a JSON LoadPlan>`.
 * Prints one JSON `LoadResult` line. Bounded by request count and by time, whichever comes first.
 *
 * - `closed`: every connection sends its next request as soon as the previous answer ended
 *   (saturation, like wrk).
 * - `open`: requests are due on a fixed schedule (`rate` per second) whether or not earlier ones have
 *   finished; a due request waits for a free connection, and its latency counts from the timer tick
 *   that found it due (ticks are about 1 ms apart), so a target that stalls cannot hide its queue (no
 *   coordinated omission) while the generator's own timer lateness is not charged to the target.
 */
import { readFileSync } from 'node:fs'
import { HttpConnection } from './http-connection'

/** In-flight calls still unanswered this long after the end are cut off and counted as failed. */
const DRAIN_GRACE_MS = 10_000

export interface LoadPlan {
	/** One target, or several nodes of one: connection i goes to `urls[i % urls.length]`. */
	urls: string[]
	mode: 'closed' | 'open'
	connections: number
	rate?: number
	durationMs: number
	maxRequests: number
	/** Request bodies and Authorization values, used round-robin. */
	bodies: string[]
	authorizations: string[]
}

export interface LoadResult {
	requests: number
	ok: number
	failed: number
	/** Counts of non-200 statuses and connection errors. */
	failures: Record<string, number>
	/** Open mode: the most due requests that were waiting for a free connection at once. */
	maxBacklog: number
	seconds: number
	perSecond: number
	p50: number
	p90: number
	p99: number
	max: number
}

export function encodeRequests(plan: LoadPlan, target = plan.urls[0]!): Uint8Array[] {
	const url = new URL(target)
	const count = Math.max(plan.bodies.length, plan.authorizations.length)
	return Array.from({ length: count }, (_, index) => {
		const body = Buffer.from(plan.bodies[index % plan.bodies.length]!)
		const head = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n`
			+ `Authorization: ${plan.authorizations[index % plan.authorizations.length]}\r\nContent-Length: ${body.length}\r\n\r\n`
		return Buffer.concat([Buffer.from(head), body])
	})
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
	const targets = plan.urls.map((target) => ({ url: new URL(target), requests: encodeRequests(plan, target) }))
	const connections = Array.from({ length: plan.connections }, (_, index) => {
		const { url, requests } = targets[index % targets.length]!
		return Object.assign(new HttpConnection(url.hostname, Number(url.port)), { requests })
	})
	const latencies = new Float64Array(plan.maxRequests)
	const failures: Record<string, number> = {}
	let started = 0
	let finished = 0
	let ok = 0
	const begin = performance.now()
	const deadline = begin + plan.durationMs
	let cut = false
	const cutOff = setTimeout(() => {
		cut = true
		for (const connection of connections) connection.close()
	}, plan.durationMs + DRAIN_GRACE_MS)

	async function call(connection: HttpConnection & { requests: Uint8Array[] }, index: number, due: number) {
		let outcome: string | undefined
		try {
			const exchange = await connection.send(connection.requests[index % connection.requests.length]!)
			outcome = exchange.error ?? (exchange.status === 200 ? undefined : `HTTP ${exchange.status}`)
		} catch (error) {
			outcome = (error as { code?: string }).code ?? (error as Error).name
		}
		if (outcome === undefined) ok++
		else failures[outcome] = (failures[outcome] ?? 0) + 1
		latencies[finished++] = performance.now() - due
	}

	let maxBacklog = 0
	let unsent = 0
	if (plan.mode === 'closed') {
		await Promise.all(connections.map(async (connection) => {
			while (started < plan.maxRequests && performance.now() < deadline) await call(connection, started++, performance.now())
		}))
	} else {
		const rate = plan.rate!
		const idle = [...connections]
		let busy = 0
		const noticed = new Float64Array(plan.maxRequests)
		let scheduled = 0
		const worker = async (connection: (typeof connections)[number]) => {
			busy++
			while (started < scheduled && !cut) await call(connection, started, noticed[started++]!)
			busy--
			idle.push(connection)
		}
		await new Promise<void>((resolve) => {
			const tick = () => {
				const now = performance.now()
				const due = Math.min(plan.maxRequests, Math.floor(((Math.min(now, deadline) - begin) / 1000) * rate))
				noticed.fill(now, scheduled, due)
				scheduled = due
				while (idle.length > 0 && started < scheduled) void worker(idle.pop()!)
				maxBacklog = Math.max(maxBacklog, scheduled - started)
				if (now < deadline && scheduled < plan.maxRequests) setTimeout(tick, 1)
				else resolve()
			}
			tick()
		})
		while (busy > 0) await Bun.sleep(1)
		unsent = scheduled - started
		if (unsent > 0) failures['never sent: the target fell too far behind'] = unsent
	}
	clearTimeout(cutOff)
	for (const connection of connections) connection.close()

	const seconds = (performance.now() - begin) / 1000
	const sorted = latencies.subarray(0, finished).sort()
	const at = (fraction: number) => sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!
	return {
		requests: finished,
		ok,
		failed: finished - ok + unsent,
		failures,
		maxBacklog,
		seconds,
		perSecond: ok / seconds,
		p50: at(0.5),
		p90: at(0.9),
		p99: at(0.99),
		max: at(1),
	}
}

if (import.meta.main) {
	const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadPlan
	console.log(JSON.stringify(await runLoad(plan)))
	process.exit(0)
}
