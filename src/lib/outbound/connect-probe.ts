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
	const key = (address: string, port: number) => `${address} ${port}`
	return {
		recentlyAnswered(address: string, port: number): boolean {
			const time = answeredAt.get(key(address, port))
			return time !== undefined && now() - time < REMEMBER_MILLISECONDS
		},
		answered(address: string, port: number) {
			const entry = key(address, port)
			answeredAt.delete(entry)
			answeredAt.set(entry, now())
			if (answeredAt.size > REMEMBER_AT_MOST) answeredAt.delete(answeredAt.keys().next().value!)
		},
	}
}
