/**
 * The guarded WebSocket clients for upstreams, one of each per app: messages read one at a time
 * (iFlytek Spark's answers), and sockets connected for a caller that relays them itself (long
 * sessions: src/relay/sessions). Both under the `upstream` policy (private addresses only when
 * allowed) with the configured connect timeout.
 */
import type { Dependencies } from '@/dependencies'
import { parseHostList } from '@/lib/outbound'
import { createWebSocketClient, createWebSocketConnector, type WebSocketConnect, type WebSocketOpen } from '@/lib/outbound/websocket'

const webSocketOpeners = new WeakMap<Dependencies, WebSocketOpen>()
const webSocketConnectors = new WeakMap<Dependencies, WebSocketConnect>()

const clientOptions = ({ options, logger }: Dependencies) => ({
	privateUpstreams: {
		privateUpstreamsEnabled: () => options.get('PrivateUpstreamsEnabled'),
		privateUpstreamHosts: () => parseHostList(options.get('PrivateUpstreamHosts')),
	},
	logger,
})

/** Opens under the `upstream` policy with the configured timeouts. */
export function upstreamWebSocket(dependencies: Dependencies): WebSocketOpen {
	let open = webSocketOpeners.get(dependencies)
	if (!open) {
		const client = createWebSocketClient(clientOptions(dependencies))
		const { connectMs, firstByteMs, idleMs } = dependencies.config.upstreamTimeouts
		open = (url, init = {}) => client(url, { ...init, policy: 'upstream', timeouts: { connect: connectMs, firstByte: firstByteMs, idle: idleMs } })
		webSocketOpeners.set(dependencies, open)
	}
	return open
}

/** Connects a socket under the `upstream` policy within the configured connect timeout; the caller reads it. */
export function upstreamWebSocketConnect(dependencies: Dependencies): WebSocketConnect {
	let connect = webSocketConnectors.get(dependencies)
	if (!connect) {
		const connector = createWebSocketConnector(clientOptions(dependencies))
		const { connectMs } = dependencies.config.upstreamTimeouts
		connect = (url, init = {}) => connector(url, { ...init, policy: 'upstream', timeouts: { connect: connectMs } })
		webSocketConnectors.set(dependencies, connect)
	}
	return connect
}
