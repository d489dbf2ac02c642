/**
 * The Claude client format (design §5): `POST /v1/messages` converts the request to OpenAI's
 * form, relays it through the billed OpenAI pipeline and converts the answer back;
 * `POST /v1/messages/count_tokens` counts the prompt locally. Keys come as `x-api-key` or as a
 * bearer token; errors answer in Claude's shape.
 */
import type { Dependencies } from '@/dependencies'
import { relayErrors } from '../../errors'
import { relayOpenAI } from '../../pipeline/openai-call'
import type { RelayServices } from '../../pipeline/services'
import { bearerKey } from '../../pipeline/token-auth'
import { countPrompt } from '../../pipeline/tokenizer'
import { claudeMessageFromOpenAI } from './answer'
import { claudeErrorFromOpenAI, claudeErrorResponse, claudeFailure } from './errors'
import { ClaudeRequestError, openAIBodyFromClaude } from './request'
import { claudeStreamFromOpenAI } from './stream'

export function claudeKey(headers: Headers): string | undefined {
	return headers.get('x-api-key')?.trim() || bearerKey(headers)
}

type Converted = { model: string; body: Record<string, unknown> }

async function readClaudeRequest(request: Request): Promise<Converted | Response> {
	let parsed: unknown
	try {
		parsed = await request.json()
	} catch {
		return claudeErrorResponse(400, 'the request body is not valid JSON')
	}
	try {
		const body = openAIBodyFromClaude(parsed)
		return { model: typeof body.model === 'string' ? body.model : '', body }
	} catch (error) {
		if (error instanceof ClaudeRequestError) return claudeErrorResponse(400, error.message)
		throw error
	}
}

export async function relayClaudeMessages(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		const converted = await readClaudeRequest(request)
		if (converted instanceof Response) return converted
		const answer = await relayOpenAI(dependencies, relay, 'chat', request, clientAddress, { key: claudeKey(request.headers), body: converted.body })
		if (!answer.ok) return await claudeErrorFromOpenAI(answer)
		const headers = new Headers({ 'x-ferry-request-id': answer.headers.get('x-ferry-request-id') ?? '' })
		if (converted.body.stream === true && answer.body) {
			headers.set('content-type', 'text/event-stream')
			headers.set('cache-control', 'no-cache')
			return new Response(claudeStreamFromOpenAI(answer.body.getReader(), converted.model), { status: 200, headers })
		}
		return Response.json(claudeMessageFromOpenAI(await answer.json(), converted.model), { status: 200, headers })
	} catch (error) {
		return claudeFailure(error, dependencies.logger)
	}
}

export async function countClaudeTokens(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string): Promise<Response> {
	try {
		await relay.authenticate(claudeKey(request.headers), clientAddress)
		const converted = await readClaudeRequest(request)
		if (converted instanceof Response) return converted
		if (!converted.model) throw relayErrors.badRequest('model: Field required')
		const { messages, tools } = converted.body as { messages: never[]; tools?: unknown }
		return Response.json({ input_tokens: await countPrompt({ endpoint: 'chat', messages, tools }) })
	} catch (error) {
		return claudeFailure(error, dependencies.logger)
	}
}
