/**
 * The long sessions' routes: `GET /v1/realtime` and `GET /v1/responses`, each a WebSocket upgrade
 * checked before it happens (a refusal answers in OpenAI's error shape). See NOTES.md.
 */
import { Elysia } from 'elysia'
import type { Server } from 'bun'
import type { Dependencies } from '@/dependencies'
import type { RelayServices } from '../services'
import { openRealtimeSession } from './realtime'
import { openResponsesSession } from './responses-socket'

type Context = { request: Request; server: Server<unknown> | null }

export function sessionRoutes(dependencies: Dependencies, relay: RelayServices) {
	const address = dependencies.clientAddress
	return new Elysia()
		.get('/v1/realtime', ({ request, server }: Context) => openRealtimeSession(dependencies, relay, request, server!, address(server, request)))
		.get('/v1/responses', ({ request, server }: Context) => openResponsesSession(dependencies, relay, request, server!, address(server, request)))
}
