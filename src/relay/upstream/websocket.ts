/** The guarded WebSocket client for upstreams that are not one HTTP request (iFlytek Spark), one per app. */
import type { Dependencies } from '@/dependencies'
import { parseHostList } from '@/lib/outbound'
import { createWebSocketClient, type WebSocketOpen } from '@/lib/outbound/websocket'

const webSocketOpeners = new WeakMap<Dependencies, WebSocketOpen>()

/** Opens under the `upstream` policy (private addresses only when allowed) with the configured timeouts. */
export function upstreamWebSocket(dependencies: Dependencies): WebSocketOpen {
	let open = webSocketOpeners.get(dependencies)
	if (!open) {
		const { options, logger } = dependencies
		const client = createWebSocketClient({
			privateUpstreams: {
				privateUpstreamsEnabled: () => options.get('PrivateUpstreamsEnabled'),
				privateUpstreamHosts: () => parseHostList(options.get('PrivateUpstreamHosts')),
			},
			logger,
		})
		const { connectMs, firstByteMs, idleMs } = dependencies.config.upstreamTimeouts
		open = (url, init = {}) => client(url, { ...init, policy: 'upstream', timeouts: { connect: connectMs, firstByte: firstByteMs, idle: idleMs } })
		webSocketOpeners.set(dependencies, open)
	}
	return open
}
