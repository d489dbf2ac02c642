/**
 * Bun's fetch has no connect timeout and does not say when its connection is up, so the client
 * opens a bare TCP connection to the same checked address alongside the request: if that one is
 * not up within the connect limit, the request is given up as a connect timeout. Addresses that
 * answered recently are not probed again (their connections are usually pooled).
 */
import { connect } from 'node:net'

/** Resolves once a TCP connection to the address is up; rejects when it fails or the signal aborts. */
export type ConnectionProbe = (address: string, port: number, signal: AbortSignal) => Promise<void>

export const probeTcp: ConnectionProbe = (address, port, signal) => new Promise<void>((resolve, reject) => {
	const socket = connect({ host: address, port })
	const onAbort = () => finish(signal.reason)
	let settled = false
	function finish(error?: unknown) {
		if (settled) return
		settled = true
		socket.destroy()
		signal.removeEventListener('abort', onAbort)
		if (error === undefined) resolve()
		else reject(error)
	}
	signal.addEventListener('abort', onAbort, { once: true })
	socket.once('connect', () => finish())
	socket.on('error', (error) => finish(error))
})

const REMEMBER_MILLISECONDS = 60_000
const REMEMBER_AT_MOST = 1_000

/** Addresses that answered a request within the last minute. */
export function createReachableMemory(now: () => number = Date.now) {
	const answeredAt = new Map<string, number>()
	return {
		/** `endpoint` names an address and port, e.g. `127.0.0.1 8080`. */
		recentlyAnswered(endpoint: string): boolean {
			const time = answeredAt.get(endpoint)
			return time !== undefined && now() - time < REMEMBER_MILLISECONDS
		},
		answered(endpoint: string) {
			const entry = endpoint
			const time = now()
			// Refreshing an entry answered moments ago buys nothing; skip the Map churn on busy upstreams.
			const previous = answeredAt.get(entry)
			if (previous !== undefined && time - previous < REMEMBER_MILLISECONDS / 10) return
			answeredAt.delete(entry)
			answeredAt.set(entry, time)
			if (answeredAt.size > REMEMBER_AT_MOST) answeredAt.delete(answeredAt.keys().next().value!)
		},
	}
}
