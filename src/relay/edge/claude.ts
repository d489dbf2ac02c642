/**
 * The Claude client format's HTTP edge: `POST /v1/messages` — the key (`x-api-key` or a bearer
 * token) is authenticated before the body is read; the body is converted to the canonical request
 * (formats/claude/request.ts), with the client's own request for a channel that speaks Claude's API
 * (formats/claude/same-format.ts) — and `POST /v1/messages/count_tokens`, which counts the prompt
 * locally on the tokenizer's thread and, when a messages call of the model would go to a channel
 * that counts Claude's way itself (Anthropic), answers that upstream's count instead
 * (upstream-count.ts; the local count when it cannot). Free, but counted by the request rate
 * limits like any call, before its body is read. Errors answer in Claude's shape. Query strings
 * such as the SDKs' `?beta=true` are accepted.
 */
import type { Dependencies } from '@/dependencies'
import { relayFailure } from '../errors'
import { canonicalRequestFromClaude, claudeClientFormat } from '../formats/claude/client'
import { claudeErrorResponse } from '../formats/claude/errors'
import type { RelayServices } from '../services'
import { countBodyTokens } from './count-request'
import { readGatedBytes, readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'
import { upstreamClaudeCount } from './upstream-count'

function claudeKey(headers: Headers): string | undefined {
	return headers.get('x-api-key')?.trim() || bearerKey(headers)
}

export function relayClaudeMessages(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, claudeErrorResponse, async () => {
		const caller = await relay.authenticate(claudeKey(request.headers), clientAddress)
		const { text, value } = await readJsonCall(request, relay.bodyGate(caller))
		const canonical = canonicalRequestFromClaude(value, text, request.headers, new URL(request.url).searchParams.get('beta'))
		const model = (canonical.body as { model?: unknown }).model
		return { call: { request: canonical, caller }, format: claudeClientFormat(typeof model === 'string' ? model : '') }
	})
}

export async function countClaudeTokens(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		const caller = await relay.authenticate(claudeKey(request.headers), clientAddress)
		const succeeded = await relay.requestLimits.admit(caller)
		const bytes = await readGatedBytes(request, relay.bodyGate(caller))
		// Counted locally first: that checks the request (a 400 in Claude's shape) and names its model off the main thread.
		const local = await countBodyTokens(bytes, 'claude')
		await relay.routing.ready()
		const upstream = local.model === undefined ? undefined : await upstreamClaudeCount(dependencies, relay, caller, {
			model: local.model, bytes, headers: request.headers, beta: new URL(request.url).searchParams.get('beta'), signal: request.signal,
		})
		const counted = Response.json({ input_tokens: upstream ?? local.tokens })
		succeeded?.()
		return counted
	} catch (error) {
		return relayFailure(error, dependencies.logger, claudeErrorResponse)
	}
}
