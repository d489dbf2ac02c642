/**
 * Bun's fetch has no connect timeout and does not say when its connection is up, so the client
 * opens its own connection to the same checked address alongside the request: if that one is not
 * up within the connect limit, the request is given up as a connect timeout. For https the probe
 * also completes a TLS handshake (same address, same SNI name), so a server that accepts the TCP
 * connection and never answers the ClientHello is a connect timeout too, not a wait for the first
 * byte (minutes for relayed calls). The probe does not verify the certificate: the request itself
 * does, and reports its own error. Addresses that answered recently are not probed again (their
 * connections are usually pooled).
 */
import { connect, type Socket } from 'node:net'

/** For https: the TLS handshake is part of connecting; `serverName` is the SNI name (none for an IP literal). */
interface ProbeTls {
	serverName?: string
}

/**
 * Resolves once a connection to the address is up (TCP, and the TLS handshake when `tls` is
 * given); rejects when it fails or the signal aborts.
 */
export type ConnectionProbe = (address: string, port: number, signal: AbortSignal, tls?: ProbeTls) => Promise<void>

/** node:tls loads on the first https probe: a node whose upstreams are all plain http never holds it. */
let tlsModule: Promise<typeof import('node:tls')> | undefined

export const probeConnection: ConnectionProbe = (address, port, signal, tls) => {
	if (!tls) return waitForConnection(connect({ host: address, port }), 'connect', signal)
	return (tlsModule ??= import('node:tls')).then(({ connect: connectTls }) => {
		if (signal.aborted) throw signal.reason
		const socket = connectTls({ host: address, port, servername: tls.serverName, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
		return waitForConnection(socket, 'secureConnect', signal)
	})
}

function waitForConnection(socket: Socket, upEvent: 'connect' | 'secureConnect', signal: AbortSignal) {
	return new Promise<void>((resolve, reject) => {
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
		socket.once(upEvent, () => finish())
		socket.on('error', (error) => finish(error))
	})
}

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
