/**
 * The plumbing the client formats other than OpenAI's (Claude, Gemini) share: the request, converted to
 * OpenAI's form, goes through the billed OpenAI pipeline with the client's key; the pipeline answers
 * errors in the format's shape, and an answer is converted back whole or, streamed, as it arrives.
 * A channel that speaks the client's format gets the client's own request instead, and its answer
 * reaches the client unconverted.
 */
import type { Dependencies } from '@/dependencies'
import type { BodyReader } from '@/lib/outbound'
import type { ErrorResponder } from '../errors'
import { isSameFormatAnswer, relayOpenAI, type SameFormatInput } from '../pipeline/openai-call'
import type { RelayServices } from '../pipeline/services'
import type { RelayEndpoint } from '../providers/types'

interface ClientFormat {
	respondError: ErrorResponder
	/** A whole OpenAI-format answer in the client's format. */
	answer(openAI: Record<string, unknown>): unknown
	/** An OpenAI-format SSE stream in the client's format, sent with `streamContentType`. */
	stream(reader: BodyReader): ReadableStream<Uint8Array>
	streamContentType: string
}

interface ConvertedCall {
	endpoint: RelayEndpoint
	key: string | undefined
	body: Record<string, unknown>
	sameFormat?: SameFormatInput
}

export async function relayInFormat(
	dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, call: ConvertedCall, format: ClientFormat,
): Promise<Response> {
	const answer = await relayOpenAI(dependencies, relay, call.endpoint, request, clientAddress, {
		key: call.key, body: call.body, respondError: format.respondError, sameFormat: call.sameFormat,
	})
	if (!answer.ok || isSameFormatAnswer(answer)) return answer
	const headers = { 'x-ferry-request-id': answer.headers.get('x-ferry-request-id') ?? '' }
	if (call.body.stream === true && answer.body) {
		return new Response(format.stream(answer.body.getReader()), {
			headers: { ...headers, 'content-type': format.streamContentType, 'cache-control': 'no-cache' },
		})
	}
	return Response.json(format.answer(await answer.json() as Record<string, unknown>), { headers })
}
