/**
 * The core of every relayed call, whatever format the client speaks (design §5): check the canonical
 * request, the model and the group, refuse before anything is held a call no channel can serve,
 * price it, hold (CallScope), send upstream with retries, and answer a typed result — an answer
 * object, or a stream of parsed events — in the upstream's wire format: the client's own when the
 * channel spoke it, else OpenAI's (canonical). Client formats encode the result at the edge
 * (respond.ts); this file never builds an HTTP response.
 *
 * The hold's whole life is the call's CallScope: a whole answer is settled here before it is
 * returned; a stream is settled or voided by its meter when it ends; any failure voids it.
 */
import type { Dependencies } from '@/dependencies'
import { holdFor, resolvePricing, type Pricing, type Usage } from '@/billing/price'
import { countPrompt, countText, estimatePrompt, type PromptRequest } from '@/billing/tokenizer'
import { bodyOrEmpty } from '@/lib/outbound'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { RelayError, relayErrors, wordedRelayError } from '../errors'
import type { EventReader, Json, WireFormat } from '../formats/events'
import { generatesNoTokens, imageCallRatio, isImageEndpoint, isMediaEndpoint, mediaPromptTexts } from '../formats/media/requests'
import { checkOpenAIRequest, isStreamable } from '../formats/openai/requests'
import { rerankInput, rerankUsageFrom, withRerankUsage } from '../formats/rerank'
import { wireReader } from '../formats/wire'
import { servesEndpoint, type ServiceCall } from '../providers/registry'
import type { RelayEndpoint } from '../providers/types'
import type { CanonicalRequest, ConvertedRequest } from '../formats/canonical'
import { scrubbedStreamErrors } from '../upstream/messages'
import { canTakeKey, channelCanTake, MalformedAnswerError } from '../upstream/open'
import { checkWholeAnswer, streamAnswerFilter } from '../sensitive-words/answer-filter'
import { sendWithRetries, type UpstreamAnswer } from './attempts'
import type { CallRecord } from '../call-metrics'
import { CallScope, type SensitiveAnswer } from './call-scope'
import { mediaAnswer, type MediaResult } from './media-answer'
import { resolveGroup } from '../routing/groups'
import { readAhead } from './read-ahead'
import type { RoutableChannel } from '../routing/routing-table'
import type { RelayServices } from '../services'
import { findWords, promptTexts, sensitiveErrors, wordList } from '../sensitive-words/words'
import { meterStream } from './stream-meter'
import type { RelayCaller } from '../edge/token-auth'

/** Self-use mode lets unpriced models through at no cost. */
const FREE: Pricing = { kind: 'per_token', modelRatio: 0, completionRatio: 1, cacheRatio: 1, createCacheRatio: 1, groupRatio: 1 }

/** What a client format hands the core: the caller, and the canonical request. */
export interface CallRequest {
	requestId: string
	/** Authenticated by the client format (a token), or known without one (the playground's session user). */
	caller: RelayCaller
	/** The canonical request, as the client format converted it: what is checked, held, routed and billed by. */
	request: ConvertedRequest
	/**
	 * A channel to try first (the one keeping the conversation a request continues): only a
	 * preference, taken when routing would choose among it for the caller's group and model.
	 */
	preferredChannelId?: number
	/** Aborts when the client goes away. */
	signal: AbortSignal
	clientAddress: string
	/** `performance.now()` when the call arrived. */
	startedAt: number
	/** The call's metrics record: what it settled is added to it. */
	metrics?: CallRecord
	/** The wire format the client's format writes as it came (ClientFormat.passThroughWire): a stream in it may pass through unread. */
	passThroughWire?: WireFormat
}

/** A whole answer, already settled. `text` is `answer` as the upstream sent it, while unchanged. */
interface WholeResult {
	kind: 'answer'
	wire: WireFormat
	answer: Json
	text?: string
	usage: Usage
	/** The channel that answered. */
	channelId: number
}

/** A stream of the upstream's events; reading it to its end (or cancelling it) settles or voids the call. */
interface StreamedResult {
	kind: 'stream'
	wire: WireFormat
	events: EventReader
	/** The channel that answers. */
	channelId: number
}

export type CallResult = WholeResult | StreamedResult | MediaResult

function promptOf(endpoint: RelayEndpoint, body: Record<string, unknown>): PromptRequest {
	if (endpoint === 'chat') return { endpoint, messages: body.messages as never[], tools: body.tools }
	if (endpoint === 'rerank') return { endpoint, input: rerankInput(body) }
	if (isMediaEndpoint(endpoint)) return { endpoint: 'media', input: mediaPromptTexts(endpoint, body) }
	return { endpoint, input: endpoint === 'completions' ? body.prompt : body.input }
}

/** Embeddings, rerank, speech and moderations generate no tokens: the hold covers the prompt alone. */
function completionAllowance(dependencies: Dependencies, endpoint: RelayEndpoint, body: Record<string, unknown>) {
	if (endpoint === 'embeddings' || endpoint === 'rerank' || (isMediaEndpoint(endpoint) && generatesNoTokens(endpoint))) return 0
	const limit = body.max_completion_tokens ?? body.max_tokens
	return typeof limit === 'number' && limit > 0 ? limit : dependencies.options.get('PreConsumedQuota')
}

/** Only chat and completions generate text that could carry a sensitive word. */
const generatesText = (endpoint: RelayEndpoint) => endpoint === 'chat' || endpoint === 'completions'

/**
 * Throws a RelayError (in no format: the client format renders it) when the call is refused or fails.
 * The caller (respond.ts) has waited for the routing table to be ready.
 */
export async function relayCall(dependencies: Dependencies, relay: RelayServices, request: CallRequest): Promise<CallResult> {
	const { requestId, caller } = request
	const { endpoint } = request.request
	const body = checkOpenAIRequest(endpoint, request.request.body, request.request.upload)
	const canonical = request.request as CanonicalRequest
	const promptWords = relay.sensitiveWords.forPrompts()
	if (promptWords) {
		const found = await findWords(promptWords, promptTexts(endpoint, body))
		if (found.length > 0) {
			dependencies.logger.warn('a prompt with sensitive words was refused', { requestId, userId: caller.user.id, words: wordList(found) })
			throw sensitiveErrors.prompt(found)
		}
	}
	const model = body.model
	if (caller.token.modelLimits && !caller.token.modelLimits.has(model)) throw relayErrors.modelNotAllowed(model)
	const stream = isStreamable(endpoint) && body.stream === true
	// Answers are checked for sensitive words in OpenAI's form, so with that check on a client's own
	// format is converted rather than passed through.
	const checksAnswers = generatesText(endpoint) && relay.sensitiveWords.forAnswers() !== undefined
	if (checksAnswers && canonical.native?.required) throw relayErrors.badRequest(`${canonical.native.required}, and answers are checked for sensitive words here, which such a channel's answers cannot be`)
	const native = checksAnswers ? undefined : canonical.native
	const service = { endpoint, stream, native: native?.format, nativeRequired: native?.required !== undefined }
	const takes = (channel: RoutableChannel) => channelCanTake(channel, { ...service, model })
	const takesKey = canTakeKey(service)
	const group = resolveGroup(dependencies.options, caller, model, (candidate, name) => relay.routing.hasModel(candidate, name, takes, takesKey))
	checkChannels(relay, caller.pinnedChannelId, group, model, takes, takesKey, service, native?.required)
	const price = resolvePricing(dependencies.options, model, caller.user.group, group)
		?? (dependencies.options.get('SelfUseModeEnabled') ? FREE : undefined)
	if (!price) throw relayErrors.modelUnpriced(model)
	// A fixed-price image call is charged per image, times the size/quality factor.
	const pricing: Pricing = price.kind === 'per_call' && isImageEndpoint(endpoint) ? { ...price, callRatio: imageCallRatio(model, body) } : price
	const prompt = promptOf(endpoint, body)
	const scope = new CallScope(dependencies, relay, {
		requestId, caller, model, group, pricing, stream, startedAt: request.startedAt, clientAddress: request.clientAddress, metrics: request.metrics,
	})
	await scope.reserve(holdFor(pricing, estimatePrompt(prompt), completionAllowance(dependencies, endpoint, body), dependencies.options.get('QuotaPerUnit')))
	try {
		const answer = await sendWithRetries(dependencies, relay, {
			request: canonical, group, model, stream, pinnedChannelId: caller.pinnedChannelId, preferredChannelId: request.preferredChannelId, signal: request.signal, native,
		})
		scope.answered(answer.channel, answer.tried)
		if (isMediaEndpoint(endpoint)) return await mediaAnswer({ logger: dependencies.logger, endpoint, prompt, scope }, answer)
		const call = { endpoint, prompt, stream, body, scope, passThroughWire: request.passThroughWire }
		return stream ? streamedAnswer(dependencies, relay, call, answer) : await wholeAnswer(relay, call, answer)
	} catch (error) {
		// Whatever failed before an answer could be returned: nothing billable reached the client.
		await scope.void('upstream_failed')
		throw error
	}
}

/**
 * Before anything is held: some channel can take the call (`takes`). A pinned channel, or every
 * channel of the model, whose type lacks the endpoint makes a clear client error (400) rather than a
 * failed attempt; channels whose model mapping loops leave the model without a channel.
 */
function checkChannels(
	relay: RelayServices, pinnedChannelId: number | undefined, group: string, model: string,
	takes: (channel: RoutableChannel) => boolean, takesKey: string, call: ServiceCall, nativeRequired?: string,
) {
	const serves = (channel: RoutableChannel) => servesEndpoint(channel.type, call.endpoint, call.stream, call.native, call.nativeRequired)
	const unsupported = (modelName?: string) => nativeRequired
		? new RelayError(400, `${modelName ? `no channel serving the model ${modelName}` : 'this channel type'} can take this request: ${nativeRequired}`, 'invalid_request_error', 'endpoint_not_supported')
		: relayErrors.endpointUnsupported(call.endpoint, call.stream, modelName)
	if (pinnedChannelId !== undefined) {
		const pinned = relay.routing.channel(pinnedChannelId)
		if (pinned && !serves(pinned)) throw unsupported()
		if (pinned && !takes(pinned)) throw relayErrors.noChannel(group, model)
		return
	}
	if (relay.routing.hasModel(group, model, takes, takesKey)) return
	const endpointLacking = relay.routing.hasModel(group, model) && !relay.routing.hasModel(group, model, serves)
	throw endpointLacking ? unsupported(model) : relayErrors.noChannel(group, model)
}

interface AnsweredCall {
	endpoint: RelayEndpoint
	prompt: PromptRequest
	stream: boolean
	body: Record<string, unknown>
	scope: CallScope
	passThroughWire: WireFormat | undefined
}

async function wholeAnswer(relay: RelayServices, call: AnsweredCall, upstream: UpstreamAnswer): Promise<WholeResult> {
	const { scope, endpoint } = call
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
	await scope.settle(usage, { localCount: !upstreamUsage, sensitive })
	if (sensitive?.action === 'refused') throw sensitiveErrors.answer()
	if (sensitive) text = undefined
	if (rerank) text = withRerankUsage(text ?? JSON.stringify(answer), answer, usage)
	return { kind: 'answer', wire: opened.wire, answer, text, usage, channelId: upstream.channel.id }
}

function streamedAnswer(dependencies: Dependencies, relay: RelayServices, call: AnsweredCall, upstream: UpstreamAnswer): StreamedResult {
	const { scope } = call
	const { opened, channel } = upstream
	let firstTokenMs: number | undefined
	const policy = opened.wire === 'openai' && generatesText(call.endpoint) ? relay.sensitiveWords.forAnswers() : undefined
	const body = readAhead(bodyOrEmpty(opened.response), dependencies.options.get('StreamCacheQueueLength'))
	// The client gets the upstream's own events: only what billing needs is parsed (stream-meter.ts).
	const deferParsing = !policy && opened.wire === call.passThroughWire
	const events = meterStream(scrubbedStreamErrors(opened.readEvents(body, { deferParsing }), channel), wireReader(opened.wire).stream(), {
		includeUsage: (call.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
		answerFilter: policy && streamAnswerFilter(policy),
		onFirstContent: () => {
			firstTokenMs = Math.round(performance.now() - scope.call.startedAt)
		},
		onEnd: async ({ end, usage, text, delivered, sensitiveWords }) => {
			try {
				// A stream cut at a sensitive word is billed for what the upstream sent up to there.
				if (!delivered && end !== 'completed' && end !== 'sensitive_words') {
					await scope.void(end)
					return
				}
				const billed = end === 'completed' && usage ? usage : { promptTokens: await countPrompt(call.prompt), completionTokens: await countText(text) }
				const sensitive: SensitiveAnswer | undefined = sensitiveWords.length > 0 ? { words: sensitiveWords, action: end === 'sensitive_words' ? 'cut' : 'masked' } : undefined
				await scope.settle(billed, { localCount: billed !== usage, firstTokenMs, end, sensitive })
				return billed
			} catch (error) {
				dependencies.logger.error('closing a streamed call failed', { requestId: scope.call.requestId, error: String(error) })
			}
		},
	})
	return { kind: 'stream', wire: opened.wire, events, channelId: channel.id }
}
