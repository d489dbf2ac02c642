/**
 * Whether a Ferry on loopback keeps answering other clients while one client sends it something
 * costly: `probeWhile` repeats the attack until a worker thread (./status-prober.ts) has timed its
 * `/api/status` probes, then answers both. The bound for those probes is 300 ms.
 */
import type { AttackReply, AttackRequest } from './attacker'
import type { ContinuousProbeRequest, ProbeRequest } from './status-prober'

export type AttackAnswer = { status: number; body: unknown; ms: number }

const HEAD_START_MS = 100
const PROBES = 8
const PROBE_SPACING_MS = 100
const PROBE_TIMEOUT_MS = 5_000
/** Attacks that answer at once are repeated this often at most while the probes run. */
const MAX_ATTACKS = 2_000

export async function probeWhile(baseUrl: string, attack: () => Promise<Response>): Promise<{ attacks: AttackAnswer[]; latencies: number[] }> {
	const worker = new Worker(new URL('./status-prober.ts', import.meta.url))
	try {
		let probing = true
		const latencies = new Promise<number[]>((resolve, reject) => {
			worker.onmessage = (event: MessageEvent<number[]>) => resolve(event.data)
			worker.onerror = (event) => reject(new Error(event.message))
		}).finally(() => {
			probing = false
		})
		worker.postMessage({ url: `${baseUrl}/api/status`, headStartMs: HEAD_START_MS, probes: PROBES, spacingMs: PROBE_SPACING_MS, timeoutMs: PROBE_TIMEOUT_MS } satisfies ProbeRequest)
		const attacks: AttackAnswer[] = []
		do {
			const started = performance.now()
			const response = await attack()
			const text = await response.text()
			let body: unknown = text
			try {
				body = JSON.parse(text)
			} catch {
				// Kept as text: the caller's assertion on its shape says what is wrong.
			}
			attacks.push({ status: response.status, body, ms: performance.now() - started })
		} while (probing && attacks.length < MAX_ATTACKS)
		return { attacks, latencies: await latencies }
	} finally {
		worker.terminate()
	}
}

/**
 * Probes `/api/status` every 100 ms from a worker until `stop`, which answers every probe's latency:
 * for a long run of many requests (the fuzz), to see whether any of them held the server.
 */
export function probeThroughout(baseUrl: string): { stop(): Promise<number[]> } {
	const worker = new Worker(new URL('./status-prober.ts', import.meta.url))
	const latencies = new Promise<number[]>((resolve, reject) => {
		worker.onmessage = (event: MessageEvent<number[]>) => resolve(event.data)
		worker.onerror = (event) => reject(new Error(event.message))
	})
	worker.postMessage({ url: `${baseUrl}/api/status`, spacingMs: PROBE_SPACING_MS, timeoutMs: PROBE_TIMEOUT_MS, continuous: true } satisfies ContinuousProbeRequest)
	return {
		async stop() {
			worker.postMessage('stop')
			try {
				return await latencies
			} finally {
				worker.terminate()
			}
		},
	}
}

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((first, second) => first - second)
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/**
 * An attack for `probeWhile` sent from a worker thread (./attacker.ts): `copies` requests at once
 * with the same body, answered as the first one's response.
 */
export function attackFromWorker(request: AttackRequest): { attack: () => Promise<Response>; stop: () => void } {
	const worker = new Worker(new URL('./attacker.ts', import.meta.url))
	return {
		attack: () => new Promise<Response>((resolve, reject) => {
			worker.onmessage = (event: MessageEvent<AttackReply>) => {
				const [first] = event.data
				resolve(new Response(first!.text, { status: first!.status }))
			}
			worker.onerror = (event) => reject(new Error(event.message))
			worker.postMessage(request)
		}),
		stop: () => worker.terminate(),
	}
}
