/**
 * Every relay path, each with its client format's edge: OpenAI-format endpoints under `/v1`,
 * Claude's `/v1/messages`, the Responses API, the long sessions on WebSocket (`/v1/realtime`, `/v1/responses`
 * upgraded: sessions/), Gemini's `/v1beta` (and `/v1/models/*:…`, where
 * @google/genai calls by default), the console's playground, the async tasks (`/mj`, `/suno`),
 * videos (`/v1/videos`, and Kling's own `/kling/v1/videos/…`) and OpenAI's legacy dashboard
 * billing (`[/v1]/dashboard/billing/…`: billing.ts).
 * Each format answers errors in its own shape; unknown OpenAI paths answer 501.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import { openAIErrorResponse, relayErrors } from '../errors'
import type { RelayServices } from '../services'
import { taskRoutes } from '../tasks/routes'
import { BILLING_PATHS, billingSubscription, billingUsage } from './billing'
import { countClaudeTokens, relayClaudeMessages } from './claude'
import { geminiRoutes, listGeminiModels, speaksGemini } from './gemini'
import { klingRoutes } from './kling'
import { mediaRoutes } from './media'
import { videoRoutes } from './videos'
import { listModels, relayOpenAI } from './openai'
import { playgroundRoutes } from './playground/routes'
import { responsesRoutes } from './responses'
import { sessionRoutes } from '../sessions/routes'

export function relayRoutes(dependencies: Dependencies, relay: RelayServices) {
	const address = dependencies.clientAddress
	const openAIFormat = new Elysia({ prefix: '/v1' })
		.post('/chat/completions', ({ request, server }) => relayOpenAI(dependencies, relay, 'chat', request, address(server, request)), { parse: 'none' })
		.post('/completions', ({ request, server }) => relayOpenAI(dependencies, relay, 'completions', request, address(server, request)), { parse: 'none' })
		.post('/embeddings', ({ request, server }) => relayOpenAI(dependencies, relay, 'embeddings', request, address(server, request)), { parse: 'none' })
		.post('/rerank', ({ request, server }) => relayOpenAI(dependencies, relay, 'rerank', request, address(server, request)), { parse: 'none' })
		.post('/messages', ({ request, server }) => relayClaudeMessages(dependencies, relay, request, address(server, request)), { parse: 'none' })
		.post('/messages/count_tokens', ({ request, server }) => countClaudeTokens(dependencies, relay, request, address(server, request)), { parse: 'none' })
		// A Gemini client (its key as `x-goog-api-key` or `?key=`) lists models in Gemini's shape here too.
		.get('/models', ({ request, server }) => speaksGemini(request) ? listGeminiModels(dependencies, relay, request, address(server, request)) : listModels(dependencies, relay, request, address(server, request)))
		// Elysia has percent-decoded `:model`; one it could not decode (`%FF`) comes as null, and names no model.
		.get('/models/:model', ({ request, server, params }) => speaksGemini(request)
			? listGeminiModels(dependencies, relay, request, address(server, request), params.model ?? '')
			: listModels(dependencies, relay, request, address(server, request), params.model ?? ''))
		.get(BILLING_PATHS.subscription, ({ request, server }) => billingSubscription(dependencies, relay, request, address(server, request)))
		.get(BILLING_PATHS.usage, ({ request, server }) => billingUsage(dependencies, relay, request, address(server, request)))
		.use(mediaRoutes(dependencies, relay))
		.use(videoRoutes(dependencies, relay))
		.all('/*', ({ request }) => openAIErrorResponse(relayErrors.notImplemented(new URL(request.url).pathname)))
	// OpenAI's legacy billing paths, also without `/v1` (clients of the old dashboards call them there).
	const billing = new Elysia()
		.get(BILLING_PATHS.subscription, ({ request, server }) => billingSubscription(dependencies, relay, request, address(server, request)))
		.get(BILLING_PATHS.usage, ({ request, server }) => billingUsage(dependencies, relay, request, address(server, request)))
	return new Elysia().use(sessionRoutes(dependencies, relay)).use(billing).use(openAIFormat).use(responsesRoutes(dependencies, relay)).use(geminiRoutes(dependencies, relay)).use(playgroundRoutes(dependencies, relay)).use(taskRoutes(dependencies, relay)).use(klingRoutes(dependencies, relay))
}
