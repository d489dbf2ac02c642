/**
 * One OpenAI-format call from start to bill (design §5): authenticate the token, check the model,
 * resolve the group, price the call, reserve the hold, send upstream with retries, pass the answer
 * back while reading its usage, then settle — or void when nothing billable reached the client.
 */
import type { Dependencies } from '@/dependencies'
import { InsufficientQuotaError, reserve, settle, voidHold } from '@/billing/holds'
import { holdFor, quotaForUsage, resolvePricing, type Pricing, type Usage } from '@/billing/price'
import { newRequestId } from '@/lib/crypto'
import { type BodyReader, bodyOrEmpty } from '@/lib/outbound'
import { type ErrorResponder, RelayError, openAIErrorResponse, relayErrors, relayFailure } from '../errors'
import { isObject } from '../formats/json'
import { checkOpenAIRequest, isStreamable, readJsonBody } from '../formats/openai/requests'
import { tapOpenAIStream, type StreamEnd, type StreamTap } from '../formats/openai/stream-tap'
import { answerText, usageFrom } from '../formats/openai/usage'
import { rerankInput, rerankUsageFrom, withRerankUsage } from '../formats/rerank'
import { servesEndpoint } from '../providers/registry'
import type { RelayEndpoint, SameFormatCall } from '../providers/types'
import { checkWholeAnswer, streamAnswerFilter } from './answer-filter'
import { channelCanTake } from '../upstream/open'
import { sendWithRetries, type UpstreamAnswer } from './attempts'
import { resolveGroup } from './groups'
import { readAhead } from './read-ahead'
import type { RoutableChannel } from './routing-table'
import type { RelayServices } from './services'
import { findWords, promptTexts, SENSITIVE_MASK, sensitiveErrors, wordList } from './sensitive-words'
import { bearerKey, type RelayCaller } from './token-auth'
import { countPrompt, countText, estimatePrompt, type PromptRequest } from '@/billing/tokenizer'
import { scrubbedStreamErrors } from '../upstream/messages'

/** Self-use mode lets unpriced models through at no cost. */
const FREE: Pricing = { kind: 'per_token', modelRatio: 0, completionRatio: 1, cacheRatio: 1, createCacheRatio: 1, groupRatio: 1 }

interface Call {
	requestId: string
	endpoint: RelayEndpoint
	caller: RelayCaller
	model: string
	group: string
	pricing: Pricing
	prompt: PromptRequest
	stream: boolean
	includeUsage: boolean
	startedAt: number
	clientAddress: string
}

function promptOf(endpoint: RelayEndpoint, body: Record<string, unknown>): PromptRequest {
	if (endpoint === 'chat') return { endpoint, messages: body.messages as never[], tools: body.tools }
	if (endpoint === 'rerank') return { endpoint, input: rerankInput(body) }
	return { endpoint, input: endpoint === 'completions' ? body.prompt : body.input }
}

/** Embeddings and rerank generate no text: the hold covers the prompt alone. */
function completionAllowance(dependencies: Dependencies, endpoint: RelayEndpoint, body: Record<string, unknown>) {
	if (endpoint === 'embeddings' || endpoint === 'rerank') return 0
	const limit = body.max_completion_tokens ?? body.max_tokens
	return typeof limit === 'number' && limit > 0 ? limit : dependencies.options.get('PreConsumedQuota')
}

/**
 * A call whose body was already read: one that arrived in another client format (Claude, Gemini),
 * converted to OpenAI's, or the playground's. `key` is the key as the client sent it; `caller`, when
 * given, is a caller known without a token (the playground's session user) and skips token
 * authentication. A successful answer is OpenAI-format; a client format converts it back.
 */
interface ConvertedInput {
	key: string | undefined
	caller?: RelayCaller
	body: unknown
	respondError: ErrorResponder
	/** The client's own request, passed through to a channel that speaks its format (design §5). */
	sameFormat?: SameFormatInput
}

export interface SameFormatInput {
	call: SameFormatCall
	/** How to read an answer in that format: usage, generated text, and the stream (passed on unchanged). */
	answers: AnswerReader
}

export interface AnswerReader {
	usageOf(answer: Record<string, unknown>): Usage | undefined
	textOf(answer: Record<string, unknown>): string
	tapStream(reader: BodyReader, tap: StreamTap): ReadableStream<Uint8Array>
}

/** Answers already in the client's format: the client format sends them on as they are. */
const sameFormatAnswers = new WeakSet<Response>()

export const isSameFormatAnswer = (response: Response) => sameFormatAnswers.has(response)

export async function relayOpenAI(
	dependencies: Dependencies, relay: RelayServices, endpoint: RelayEndpoint, request: Request, clientAddress: string, converted?: ConvertedInput,
): Promise<Response> {
	const requestId = newRequestId()
	const startedAt = performance.now()
	let held = false
	try {
		const caller = converted?.caller ?? await relay.authenticate(converted ? converted.key : bearerKey(request.headers), clientAddress)
		const body = checkOpenAIRequest(endpoint, converted ? converted.body : await readJsonBody(request))
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
		await relay.routing.ready()
		const takes = (channel: RoutableChannel) => channelCanTake(channel, { endpoint, stream, model })
		const group = resolveGroup(dependencies.options, caller, model, (candidate, name) => relay.routing.hasModel(candidate, name, takes))
		checkChannels(relay, caller.pinnedChannelId, group, model, takes, { endpoint, stream })
		const pricing = resolvePricing(dependencies.options, model, caller.user.group, group)
			?? (dependencies.options.get('SelfUseModeEnabled') ? FREE : undefined)
		if (!pricing) throw relayErrors.modelUnpriced(model)
		const call: Call = {
			requestId, endpoint, caller, model, group, pricing, stream, startedAt, clientAddress,
			prompt: promptOf(endpoint, body),
			includeUsage: (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
		}
		const amount = holdFor(pricing, estimatePrompt(call.prompt), completionAllowance(dependencies, endpoint, body), dependencies.options.get('QuotaPerUnit'))
		try {
			await reserve(relay.ledger, {
				requestId, userId: caller.user.id, tokenId: caller.token.id, tokenLimited: !caller.token.unlimited, amount, node: relay.nodeInstance,
			})
		} catch (error) {
			if (error instanceof InsufficientQuotaError) throw error.owner === 'user' ? relayErrors.insufficientUserQuota() : relayErrors.insufficientTokenQuota()
			throw error
		}
		held = true
		// Answers are checked for sensitive words in OpenAI's form, so with that check on a client's own
		// format is converted rather than passed through.
		const passThrough = generatesText(endpoint) && relay.sensitiveWords.forAnswers() ? undefined : converted?.sameFormat?.call
		const answer = await sendWithRetries(dependencies, relay, {
			endpoint, group, model, body, stream, pinnedChannelId: caller.pinnedChannelId, signal: request.signal, sameFormat: passThrough,
		})
		held = false
		const answers = answer.sameFormat ? converted?.sameFormat?.answers : undefined
		const response = stream ? streamAnswer(dependencies, relay, call, answer, answers) : await completeAnswer(dependencies, relay, call, answer, answers)
		if (answers) sameFormatAnswers.add(response)
		return response
	} catch (error) {
		if (held) await voidHold(relay.ledger, requestId, 'upstream_failed').catch((voidError) => dependencies.logger.error('voiding a hold failed', { requestId, error: String(voidError) }))
		const respondError = converted?.respondError ?? openAIErrorResponse
		if (!(error instanceof RelayError) && request.signal.aborted) {
			return respondError(new RelayError(499, 'the client closed the request', 'invalid_request_error', 'client_closed'), requestId)
		}
		return relayFailure(error, dependencies.logger, respondError, requestId)
	}
}

/**
 * Before anything is held: some channel can take the call (`takes`). A pinned channel, or every
 * channel of the model, whose type lacks the endpoint makes a clear client error rather than a
 * failed attempt; channels whose model mapping loops leave the model without a channel.
 */
function checkChannels(
	relay: RelayServices, pinnedChannelId: number | undefined, group: string, model: string,
	takes: (channel: RoutableChannel) => boolean, call: { endpoint: RelayEndpoint; stream: boolean },
) {
	const serves = (channel: RoutableChannel) => servesEndpoint(channel.type, call.endpoint, call.stream)
	if (pinnedChannelId !== undefined) {
		const pinned = relay.routing.channel(pinnedChannelId)
		if (pinned && !serves(pinned)) throw relayErrors.endpointUnsupported(call.endpoint, call.stream)
		if (pinned && !takes(pinned)) throw relayErrors.noChannel(group, model)
		return
	}
	if (relay.routing.hasModel(group, model, takes)) return
	const endpointLacking = relay.routing.hasModel(group, model) && !relay.routing.hasModel(group, model, serves)
	throw endpointLacking ? relayErrors.endpointUnsupported(call.endpoint, call.stream, model) : relayErrors.noChannel(group, model)
}

/** `sameFormat` reads an answer in the client's own format; without it the answer is OpenAI's. */
async function completeAnswer(dependencies: Dependencies, relay: RelayServices, call: Call, answer: UpstreamAnswer, sameFormat?: AnswerReader): Promise<Response> {
	let text: string
	try {
		text = await answer.response.text()
	} catch (error) {
		await voidHold(relay.ledger, call.requestId, 'upstream_failed')
		// A converter that found the upstream's answer to be an error says so in a RelayError.
		throw error instanceof RelayError ? error : relayErrors.upstreamUnavailable()
	}
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		parsed = undefined
	}
	if (!isObject(parsed)) {
		await voidHold(relay.ledger, call.requestId, 'upstream_malformed')
		throw new RelayError(502, 'the upstream sent a malformed answer', 'upstream_error', 'upstream_malformed')
	}
	const rerank = call.endpoint === 'rerank'
	const upstreamUsage = sameFormat ? sameFormat.usageOf(parsed) : rerank ? rerankUsageFrom(parsed.usage) : usageFrom(parsed.usage)
	const generated = sameFormat ? sameFormat.textOf(parsed) : answerText(parsed)
	const usage = upstreamUsage ?? { promptTokens: await countPrompt(call.prompt), completionTokens: rerank ? 0 : await countText(generated) }
	// Checked after counting: the call is billed for what the upstream generated, masked or refused.
		const policy = !sameFormat && generatesText(call.endpoint) ? relay.sensitiveWords.forAnswers() : undefined
	const words = policy ? checkWholeAnswer(policy, parsed) : []
	const sensitive = words.length > 0 ? { words, action: policy!.stop ? 'refused' as const : 'masked' as const } : undefined
	await settleCall(dependencies, relay, call, answer, usage, { localCount: !upstreamUsage, firstTokenMs: undefined, sensitive })
	if (sensitive?.action === 'refused') throw sensitiveErrors.answer(words)
	if (sensitive) text = JSON.stringify(parsed)
	if (rerank) text = withRerankUsage(text, parsed, usage)
	return new Response(text, {
		status: 200,
		headers: { 'content-type': 'application/json', 'x-ferry-request-id': call.requestId },
	})
}

/** Only chat and completions generate text that could carry a sensitive word. */
const generatesText = (endpoint: RelayEndpoint) => endpoint === 'chat' || endpoint === 'completions'

function streamAnswer(dependencies: Dependencies, relay: RelayServices, call: Call, answer: UpstreamAnswer, sameFormat?: AnswerReader): Response {
	let firstTokenMs: number | undefined
	const policy = !sameFormat && generatesText(call.endpoint) ? relay.sensitiveWords.forAnswers() : undefined
	const upstream = readAhead(scrubbedStreamErrors(bodyOrEmpty(answer.response), answer.channel), dependencies.options.get('StreamCacheQueueLength'))
	const tapStream = sameFormat?.tapStream ?? tapOpenAIStream
	const body = tapStream(upstream, {
		includeUsage: call.includeUsage,
		answerFilter: policy && streamAnswerFilter(policy),
		onFirstContent: () => {
			firstTokenMs = Math.round(performance.now() - call.startedAt)
		},
		onEnd: async ({ end, usage, text, delivered, sensitiveWords }) => {
			try {
				// A stream cut at a sensitive word is billed for what the upstream sent up to there.
				if (!delivered && end !== 'completed' && end !== 'sensitive_words') {
					await voidHold(relay.ledger, call.requestId, end)
					return
				}
				const billed = end === 'completed' && usage ? usage : { promptTokens: await countPrompt(call.prompt), completionTokens: await countText(text) }
				const sensitive = sensitiveWords.length > 0 ? { words: sensitiveWords, action: end === 'sensitive_words' ? 'cut' as const : 'masked' as const } : undefined
				await settleCall(dependencies, relay, call, answer, billed, { localCount: billed !== usage, firstTokenMs, end, sensitive })
				return billed
			} catch (error) {
				dependencies.logger.error('closing a streamed call failed', { requestId: call.requestId, error: String(error) })
			}
		},
	})
	return new Response(body, {
		status: 200,
		headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-ferry-request-id': call.requestId },
	})
}

/** What happened to an answer that carried sensitive words: refused whole, cut in its stream, or masked. */
interface SensitiveAnswer {
	words: string[]
	action: 'refused' | 'cut' | 'masked'
}

const SENSITIVE_ACTIONS: Record<SensitiveAnswer['action'], string> = {
	refused: 'the answer was refused',
	cut: 'the stream was cut before the word',
	masked: `each word was replaced by ${SENSITIVE_MASK}`,
}

async function settleCall(
	dependencies: Dependencies, relay: RelayServices, call: Call, answer: UpstreamAnswer, usage: Usage,
	details: { localCount: boolean; firstTokenMs: number | undefined; end?: StreamEnd; sensitive?: SensitiveAnswer },
) {
	const { pricing } = call
	const actual = quotaForUsage(pricing, usage, dependencies.options.get('QuotaPerUnit'))
	const useTimeMs = performance.now() - call.startedAt
	const other: Record<string, unknown> = pricing.kind === 'per_call'
		? { model_price: pricing.modelPrice, group_ratio: pricing.groupRatio }
		: { model_ratio: pricing.modelRatio, completion_ratio: pricing.completionRatio, cache_ratio: pricing.cacheRatio, group_ratio: pricing.groupRatio }
	Object.assign(other, {
		group: call.group,
		admin_info: { use_channel: answer.tried },
		...(details.firstTokenMs !== undefined ? { frt: details.firstTokenMs } : {}),
		...(details.localCount ? { local_count_tokens: true } : {}),
		...(details.end && details.end !== 'completed' ? { stream_end: details.end } : {}),
		...(usage.cachedTokens ? { cache_tokens: usage.cachedTokens } : {}),
		...(details.sensitive ? { sensitive_words: details.sensitive.words, sensitive_action: details.sensitive.action } : {}),
	})
	const userId = call.caller.user.id
	const outcome = await settle(relay.ledger, {
		requestId: call.requestId,
		readBalance: relay.quotaReminder.wantsBalance(userId),
		actual,
		channelId: answer.channel.id,
		log: dependencies.options.get('LogConsumeEnabled') ? {
			username: call.caller.user.username,
			tokenName: call.caller.token.name,
			modelName: call.model,
			group: call.group,
			promptTokens: usage.promptTokens,
			completionTokens: usage.completionTokens,
			useTime: Math.round(useTimeMs / 1000),
			isStream: call.stream,
			channelName: answer.channel.name,
			ip: call.clientAddress,
			content: details.sensitive ? `sensitive words in the answer (${SENSITIVE_ACTIONS[details.sensitive.action]}): ${wordList(details.sensitive.words)}` : '',
			other,
		} : undefined,
	})
	relay.recordResponseTime(answer.channel.id, Math.round(useTimeMs))
	if (outcome.settled && outcome.balance !== undefined) relay.quotaReminder.afterSettle(userId, outcome.balance)
}
