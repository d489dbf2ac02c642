/**
 * The answers of OpenAI's image, audio and moderation endpoints: passed to the client as the
 * upstream sent them, with its content type (JSON, a transcript's `text`/`srt`/`vtt`, speech's audio
 * bytes), and billed by the rules of each (README, "Using the relay"):
 * - a whole answer is read, billed from the usage it reports — or, reporting none, by the prompt
 *   (and a transcript's text) counted locally — and settled before it is returned;
 * - speech is billed by its input text's tokens and streamed through as it arrives: the call settles
 *   when the audio ends, or when it is cut after some of it reached the client; cut before any
 *   byte did, it is voided (an upstream that fails before its first byte is a 502 for the client).
 */
import type { Usage } from '@/billing/price'
import type { Logger } from '@/lib/logger'
import { countPrompt, countText, type PromptRequest } from '@/billing/tokenizer'
import { bodyOrEmpty, type BodyReader } from '@/lib/outbound'
import { RelayError, relayErrors } from '../errors'
import { mediaUsageOf, transcriptText } from '../formats/media/usage'
import type { MediaEndpoint } from '../providers/types'
import type { UpstreamAnswer } from './send'
import type { CallScope } from './hold'
import type { StreamEnd } from './stream-meter'

/** A media answer for the client: the upstream's content type and body. Settled, or settling as `body` is read. */
export interface MediaResult {
	kind: 'media'
	contentType: string
	body: string | ReadableStream<Uint8Array>
}

interface MediaCall {
	logger: Logger
	endpoint: MediaEndpoint
	prompt: PromptRequest
	scope: CallScope
}

type BodyChunk = Awaited<ReturnType<BodyReader['read']>>

const DEFAULT_CONTENT_TYPE = 'application/octet-stream'

const malformed = () => new RelayError(502, 'the upstream sent a malformed answer', 'upstream_error', 'upstream_malformed')

const isJson = (contentType: string) => /^application\/([\w.+-]*\+)?json\b/i.test(contentType)

function parsedJson(text: string): unknown {
	try {
		return JSON.parse(text)
	} catch {
		return undefined
	}
}

/** Throws a RelayError; the caller voids the hold on any failure. */
export async function mediaAnswer(call: MediaCall, upstream: UpstreamAnswer): Promise<MediaResult> {
	const { endpoint, scope } = call
	const { response } = upstream.opened
	const contentType = response.headers.get('content-type') ?? DEFAULT_CONTENT_TYPE
	if (endpoint === 'speech') {
		const usage: Usage = { promptTokens: await countPrompt(call.prompt), completionTokens: 0 }
		const reader = bodyOrEmpty(response)
		// The first read decides between an answer and an error the client can read (a 502, nothing billed).
		let first: BodyChunk
		try {
			first = await reader.read()
		} catch {
			throw relayErrors.upstreamUnavailable()
		}
		return { kind: 'media', contentType, body: meteredBytes(reader, first, call, usage) }
	}
	let text: string
	try {
		text = await response.text()
	} catch {
		throw relayErrors.upstreamUnavailable()
	}
	const transcript = endpoint === 'transcriptions' || endpoint === 'translations'
	// A transcript in `text`, `srt` or `vtt` is plain text; everything else is a JSON object.
	const answer = transcript && !isJson(contentType) ? undefined : parsedJson(text)
	if (answer === undefined && !transcript) throw malformed()
	if (answer !== undefined && (typeof answer !== 'object' || answer === null || Array.isArray(answer))) throw malformed()
	const reported = mediaUsageOf(endpoint, answer)
	const usage = reported ?? {
		promptTokens: await countPrompt(call.prompt),
		completionTokens: transcript ? await countText(transcriptText(answer, text)) : 0,
	}
	await scope.settle(usage, { localCount: !reported })
	return { kind: 'media', contentType, body: text }
}

/**
 * The upstream's bytes as the client's body, one upstream read per client read. Settles `usage` when
 * the body ends, or when it is cut or cancelled after a byte reached the client; voids otherwise.
 */
function meteredBytes(reader: BodyReader, first: BodyChunk, { scope, logger }: MediaCall, usage: Usage): ReadableStream<Uint8Array> {
	let delivered = false
	let pending: BodyChunk | undefined = first
	const end = async (how: StreamEnd) => {
		try {
			if (how === 'completed' || delivered) await scope.settle(usage, { localCount: true, end: how })
			else await scope.void(how)
		} catch (error) {
			logger.error('closing a streamed call failed', { requestId: scope.call.requestId, error: String(error) })
		}
	}
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			let chunk = pending
			pending = undefined
			try {
				chunk ??= await reader.read()
			} catch (error) {
				await end('upstream_failed')
				controller.error(error)
				return
			}
			if (chunk.done) {
				await end('completed')
				controller.close()
				return
			}
			delivered = true
			controller.enqueue(chunk.value)
		},
		async cancel(reason) {
			await reader.cancel(reason).catch(() => {})
			await end('client_closed')
		},
	}, { highWaterMark: 0 })
}
