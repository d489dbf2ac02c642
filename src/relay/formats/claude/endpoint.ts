/**
 * The Claude client format (design §5): `POST /v1/messages` converts the request to OpenAI's
 * form, relays it through the billed OpenAI pipeline and converts the answer back — or, on a
 * channel that speaks Claude's API, passes the client's own request and the upstream's answer
 * through (same-format.ts); `POST /v1/messages/count_tokens` counts the prompt locally. Keys come
 * as `x-api-key` or as a bearer token; errors answer in Claude's shape. Query strings such as the
 * SDKs' `?beta=true` are accepted.
 */
import type { Dependencies } from '@/dependencies'
import { relayErrors, relayFailure } from '../../errors'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey } from '../../pipeline/token-auth'
import { countPrompt } from '@/billing/tokenizer'
import { relayInFormat } from '../client-format'
import { readJsonRequest } from '../openai/requests'
import { isObject } from '../json'
import { claudeMessageFromOpenAI } from './answer'
import { claudeErrorResponse } from './errors'
import { openAIBodyFromClaude } from './request'
import { claudeSameFormat } from './same-format'
import { claudeStreamFromOpenAI } from './stream'

function claudeKey(headers: Headers): string | undefined {
	return headers.get('x-api-key')?.trim() || bearerKey(headers)
}

/** The client's request as sent (text) and parsed, and its OpenAI form (`body`). */
async function readClaudeRequest(request: Request) {
	const { text, value: parsed } = await readJsonRequest(request)
	const body = openAIBodyFromClaude(parsed)
	return { model: typeof body.model === 'string' ? body.model : '', text, claude: parsed as Record<string, unknown>, body }
}

export async function relayClaudeMessages(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		const { model, text, claude, body } = await readClaudeRequest(request)
		const sameFormat = claudeSameFormat(request, text, claude)
		return await relayInFormat(dependencies, relay, request, clientAddress, { endpoint: 'chat', key: claudeKey(request.headers), body, sameFormat }, {
			respondError: claudeErrorResponse,
			answer: (openAI) => claudeMessageFromOpenAI(openAI, model),
			stream: (reader) => claudeStreamFromOpenAI(reader, model),
			streamContentType: 'text/event-stream',
		})
	} catch (error) {
		return relayFailure(error, dependencies.logger, claudeErrorResponse)
	}
}

export async function countClaudeTokens(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		await relay.authenticate(claudeKey(request.headers), clientAddress)
		const { model, body } = await readClaudeRequest(request)
		if (!model) throw relayErrors.badRequest('model: Field required')
		const { messages, tools } = body as { messages: never[]; tools?: unknown }
		return Response.json({ input_tokens: await countPrompt({ endpoint: 'chat', messages, tools }) })
	} catch (error) {
		return relayFailure(error, dependencies.logger, claudeErrorResponse)
	}
}
