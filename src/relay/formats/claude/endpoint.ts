/**
 * The Claude client format (design §5): `POST /v1/messages` converts the request to OpenAI's
 * form, which the pipeline checks, holds, routes and bills by; a channel that speaks Claude's API
 * gets the client's own request (same-format.ts) and its answer reaches the client as it came,
 * any other channel's answer is converted back (answer.ts, stream.ts). `POST
 * /v1/messages/count_tokens` counts the prompt locally, on the tokenizer's thread (free, but
 * counted by the request rate limits like any call, before its body is read). Keys come as `x-api-key` or as a bearer
 * token; errors answer in Claude's shape. Query strings such as the SDKs' `?beta=true` are accepted.
 */
import type { Dependencies } from '@/dependencies'
import { relayFailure } from '../../errors'
import { respond } from '../../pipeline/respond'
import type { RelayServices } from '../../pipeline/services'
import { type BodyGate, readJsonCall } from '../../pipeline/read-body'
import { countRequestTokens } from '../../pipeline/count-request'
import { bearerKey } from '../../pipeline/token-auth'
import type { ClientFormat } from '../client-format'
import { encodedStream } from '../events'
import { claudeMessageFromOpenAI } from './answer'
import { claudeErrorResponse } from './errors'
import { openAIBodyFromClaude } from './request'
import { claudeNativeRequest } from './same-format'
import { claudeStreamEncoder } from './stream'

function claudeKey(headers: Headers): string | undefined {
	return headers.get('x-api-key')?.trim() || bearerKey(headers)
}

/** The client's request as sent (text) and parsed, and its OpenAI form (`body`). */
async function readClaudeRequest(request: Request, gate: BodyGate) {
	const { text, value: parsed } = await readJsonCall(request, gate)
	const body = openAIBodyFromClaude(parsed)
	return { model: typeof body.model === 'string' ? body.model : '', text, claude: parsed as Record<string, unknown>, body }
}

/** Answers for a client that asked for `model`: Claude's own passed on, OpenAI's converted. */
function claudeFormat(model: string): ClientFormat {
	return {
		answerText: (answer, wire, text) => (wire === 'claude' ? text ?? JSON.stringify(answer) : JSON.stringify(claudeMessageFromOpenAI(answer, model))),
		stream: (events, wire) => encodedStream(events, claudeStreamEncoder(wire, model)),
		streamContentType: 'text/event-stream',
	}
}

export function relayClaudeMessages(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	return respond(dependencies, relay, request, clientAddress, claudeErrorResponse, async () => {
		const caller = await relay.authenticate(claudeKey(request.headers), clientAddress)
		const { model, text, claude, body } = await readClaudeRequest(request, relay.bodyGate(caller))
		return { call: { endpoint: 'chat', caller, body, native: claudeNativeRequest(request, text, claude) }, format: claudeFormat(model) }
	})
}

export async function countClaudeTokens(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		const caller = await relay.authenticate(claudeKey(request.headers), clientAddress)
		const succeeded = await relay.requestLimits.admit(caller)
		const counted = Response.json({ input_tokens: await countRequestTokens(request, relay.bodyGate(caller), 'claude') })
		succeeded?.()
		return counted
	} catch (error) {
		return relayFailure(error, dependencies.logger, claudeErrorResponse)
	}
}
