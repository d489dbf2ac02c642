/**
 * The meter stage: reads what an upstream's answer used, and has the call settled by it
 * (settle.ts through the call's scope). A whole answer is read at once: its usage as the upstream
 * reported it in its wire format (formats/wire.ts), or counted locally; it is checked for sensitive
 * words, settled, and only then returned. A stream is metered as the client reads it
 * (stream-meter.ts): settled or voided before the client sees its end, when it is cut, or when its
 * client goes away. An answer that completed empty (empty-output.ts) is settled as such: charged,
 * or its hold returned, as `ChargeEmptyOutputs` says. Image, audio and moderation answers are
 * billed by their own rules (media-answer.ts). The result is typed — an answer object, a stream of parsed events, or media
 * bytes — in the upstream's wire format; the edge encodes it for the client.
 */
import type { Dependencies } from '@/dependencies'
import { countPrompt, countText, type PromptRequest } from '@/billing/tokenizer'
import type { Usage } from '@/billing/price'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { RelayError, relayErrors, wordedRelayError } from '../errors'
import type { EventReader, Json, WireFormat } from '../formats/events'
import { isMediaEndpoint } from '../formats/media/requests'
import { rerankUsageFrom, withRerankUsage } from '../formats/rerank'
import { wireReader } from '../formats/wire'
import { checkWholeAnswer, streamAnswerFilter } from '../sensitive-words/answer-filter'
import { sensitiveErrors } from '../sensitive-words/words'
import type { RelayServices } from '../services'
import { scrubbedStreamErrors } from '../upstream/messages'
import { MalformedAnswerError } from '../upstream/open'
import { generatesText } from './admit'
import type { HeldCall } from './call'
import { carriesOutput, isEmptyOutput, watchOutput } from './empty-output'
import { mediaAnswer, type MediaResult } from './media-answer'
import { videoAnswer } from './video-answer'
import type { KeyTarget } from '@/lib/session-affinity'
import { keyTargetOf } from './route'
import type { UpstreamAnswer } from './send'
import type { SensitiveAnswer } from './settle'
import { meterStream } from './stream-meter'
import { answersAsEventStream, streamSource } from './stream-source'

/** A whole answer, already settled. `text` is `answer` as the upstream sent it, while unchanged. */
interface WholeResult {
	kind: 'answer'
	wire: WireFormat
	answer: Json
	text?: string
	usage: Usage
	/** The channel and key that answered. */
	answeredBy: KeyTarget
	/** An empty answer that was not charged (empty-output.ts): its hold was returned, and it is not worth keeping. */
	notCharged?: boolean
}

/** A stream of the upstream's events; reading it to its end (or cancelling it) settles or voids the call. */
export interface StreamedResult {
	kind: 'stream'
	wire: WireFormat
	events: EventReader
	/** The channel and key that answer. */
	answeredBy: KeyTarget
	/** What is counted of the request (a client format that tells the prompt's size before the upstream does counts it). */
	prompt: PromptRequest
	/** The usage the stream was settled by once it ended, or undefined when it was voided (the response cache reads it). */
	billed: Promise<Usage | undefined>
}

export type CallResult = WholeResult | StreamedResult | MediaResult

/** Throws a RelayError; the composition (index.ts) voids the hold on any failure. */
export async function meter(dependencies: Dependencies, relay: RelayServices, call: HeldCall, answer: UpstreamAnswer): Promise<CallResult> {
	const { endpoint } = call.request
	if (endpoint === 'videos') return await videoAnswer(dependencies, relay, call, answer)
	if (isMediaEndpoint(endpoint)) return await mediaAnswer({ logger: dependencies.logger, endpoint, prompt: call.prompt, scope: call.scope }, answer)
	return answersAsEventStream(call) ? streamedAnswer(dependencies, relay, call, answer) : await wholeAnswer(relay, call, answer)
}

async function wholeAnswer(relay: RelayServices, call: HeldCall, upstream: UpstreamAnswer): Promise<WholeResult> {
	const { scope } = call
	const { endpoint } = call.request
	const { opened } = upstream
	let read
	try {
		read = opened.readAnswer(await opened.response.text())
	} catch (error) {
		if (error instanceof MalformedAnswerError) {
			await scope.void('upstream_malformed')
			throw wordedRelayError(502, RELAY_MESSAGES.malformedAnswer, 'upstream_error', 'upstream_malformed')
		}
		await scope.void('upstream_failed')
		// A converter that found the upstream's answer to be an error says so in a RelayError.
		throw error instanceof RelayError ? error : relayErrors.upstreamUnavailable()
	}
	const { answer } = read
	let { text } = read
	const wire = wireReader(opened.wire)
	const rerank = endpoint === 'rerank'
	const upstreamUsage = rerank ? rerankUsageFrom(answer.usage) : wire.usageOf(answer)
	const usage = upstreamUsage ?? { promptTokens: await countPrompt(call.prompt), completionTokens: rerank ? 0 : await countText(wire.textOf(answer)) }
	// Checked after counting: the call is billed for what the upstream generated, masked or refused.
	const policy = opened.wire === 'openai' && generatesText(endpoint) ? relay.sensitiveWords.forAnswers() : undefined
	const words = policy ? checkWholeAnswer(policy, answer) : []
	const sensitive: SensitiveAnswer | undefined = words.length > 0 ? { words, action: policy!.stop ? 'refused' : 'masked' } : undefined
	const emptyOutput = isEmptyOutput(endpoint, usage, carriesOutput(opened.wire, answer))
	const charged = await scope.settle(usage, { localCount: !upstreamUsage, sensitive, emptyOutput })
	if (sensitive?.action === 'refused') throw sensitiveErrors.answer()
	if (sensitive) text = undefined
	if (rerank) text = withRerankUsage(text ?? JSON.stringify(answer), answer, usage)
	return { kind: 'answer', wire: opened.wire, answer, text, usage, answeredBy: keyTargetOf(upstream.target), ...(emptyOutput && !charged ? { notCharged: true } : {}) }
}

function streamedAnswer(dependencies: Dependencies, relay: RelayServices, call: HeldCall, upstream: UpstreamAnswer): StreamedResult {
	const { scope } = call
	const { opened, target: { channel } } = upstream
	let firstTokenMs: number | undefined
	let billed: (usage: Usage | undefined) => void = () => {}
	const settled = new Promise<Usage | undefined>((resolve) => (billed = resolve))
	// Made by the send stage when it waited for the stream's first content.
	const { events: source, policy } = upstream.stream ?? streamSource(dependencies, relay, call, opened)
	const output = watchOutput(opened.wire, wireReader(opened.wire).stream())
	const events = meterStream(scrubbedStreamErrors(source, channel), output.inspector, {
		includeUsage: (call.request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
		answerFilter: policy && streamAnswerFilter(policy),
		onFirstContent: () => {
			firstTokenMs = Math.round(performance.now() - call.startedAt)
		},
		onEnd: async ({ end, usage, text, delivered, sensitiveWords }) => {
			try {
				// A stream cut at a sensitive word is billed for what the upstream sent up to there.
				if (!delivered && end !== 'completed' && end !== 'sensitive_words') {
					await scope.void(end)
					billed(undefined)
					return
				}
				const charged = end === 'completed' && usage ? usage : { promptTokens: await countPrompt(call.prompt), completionTokens: await countText(text) }
				const sensitive: SensitiveAnswer | undefined = sensitiveWords.length > 0 ? { words: sensitiveWords, action: end === 'sensitive_words' ? 'cut' : 'masked' } : undefined
				const emptyOutput = end === 'completed' && isEmptyOutput(call.request.endpoint, charged, output.produced())
				const settled = await scope.settle(charged, { localCount: charged !== usage, firstTokenMs, end, sensitive, emptyOutput })
				// An empty answer whose hold was returned is not worth keeping (response-cache.ts).
				billed(end === 'completed' && (settled || !emptyOutput) ? charged : undefined)
				return charged
			} catch (error) {
				billed(undefined)
				dependencies.logger.error('closing a streamed call failed', { requestId: call.requestId, error: String(error) })
			}
		},
	})
	return { kind: 'stream', wire: opened.wire, events, answeredBy: keyTargetOf(upstream.target), prompt: call.prompt, billed: settled }
}
