/**
 * The Claude client format's HTTP edge: `POST /v1/messages` — the key (`x-api-key` or a bearer
 * token) is authenticated before the body is read; the body is converted to the canonical request
 * (formats/claude/request.ts), with the client's own request for a channel that speaks Claude's API
 * (formats/claude/same-format.ts) — and `POST /v1/messages/count_tokens`, which counts the prompt
 * locally on the tokenizer's thread (free, but counted by the request rate limits like any call,
 * before its body is read). Errors answer in Claude's shape. Query strings such as the SDKs'
 * `?beta=true` are accepted.
 */
import type { Dependencies } from '@/dependencies'
import { relayFailure } from '../errors'
import { canonicalRequestFromClaude, claudeClientFormat } from '../formats/claude/client'
import { claudeErrorResponse } from '../formats/claude/errors'
import type { RelayServices } from '../services'
import { countRequestTokens } from './count-request'
import { readJsonCall } from './read-body'
import { respond } from './respond'
import { bearerKey } from './token-auth'

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
		const counted = Response.json({ input_tokens: (await countRequestTokens(request, relay.bodyGate(caller), 'claude')).tokens })
		succeeded?.()
		return counted
	} catch (error) {
		return relayFailure(error, dependencies.logger, claudeErrorResponse)
	}
}
