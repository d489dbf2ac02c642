/**
 * One OpenAI-format call from start to bill (design §5): authenticate the token, check the model,
 * resolve the group, price the call, reserve the hold, send upstream with retries, pass the answer
 * back while reading its usage, then settle — or void when nothing billable reached the client.
 */
import type { Dependencies } from '@/dependencies'
import { InsufficientQuotaError, reserve, settle, voidHold } from '@/billing/holds'
import { holdFor, quotaForUsage, resolvePricing, type Pricing, type Usage } from '@/billing/price'
import { newRequestId } from '@/lib/crypto'
import { bodyOrEmpty } from '@/lib/outbound'
import { type ErrorResponder, RelayError, openAIErrorResponse, relayErrors, relayFailure } from '../errors'
import { isObject } from '../formats/json'
import { checkOpenAIRequest, isStreamable, readJsonBody } from '../formats/openai/requests'
import { tapOpenAIStream, type StreamEnd } from '../formats/openai/stream-tap'
import { answerText, usageFrom } from '../formats/openai/usage'
import { rerankInput, rerankUsageFrom, withRerankUsage } from '../formats/rerank'
import { servesEndpoint } from '../providers/registry'
import type { RelayEndpoint } from '../providers/types'
import { sendWithRetries, type UpstreamAnswer } from './attempts'
import { resolveGroup } from './groups'
import type { RelayServices } from './services'
import { bearerKey, type RelayCaller } from './token-auth'
import { countPrompt, countText, estimatePrompt, type PromptRequest } from './tokenizer'

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
export interface ConvertedInput {
	key: string | undefined
	caller?: RelayCaller
	body: unknown
	respondError: ErrorResponder
}

export async function relayOpenAI(
	dependencies: Dependencies, relay: RelayServices, endpoint: RelayEndpoint, request: Request, clientAddress: string, converted?: ConvertedInput,
): Promise<Response> {
	const requestId = newRequestId()
	const startedAt = performance.now()
	let held = false
	try {
		const caller = converted?.caller ?? await relay.authenticate(converted ? converted.key : bearerKey(request.headers), clientAddress)
		const body = checkOpenAIRequest(endpoint, converted ? converted.body : await readJsonBody(request))
		const model = body.model
		if (caller.token.modelLimits && !caller.token.modelLimits.has(model)) throw relayErrors.modelNotAllowed(model)
		const stream = isStreamable(endpoint) && body.stream === true
		await relay.routing.ready()
		const serves = (channel: { type: number }) => servesEndpoint(channel.type, endpoint, stream)
		const group = resolveGroup(dependencies.options, caller, model, (candidate, name) => relay.routing.hasModel(candidate, name, serves))
		checkChannels(relay, caller.pinnedChannelId, group, model, serves, { endpoint, stream })
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
		const answer = await sendWithRetries(dependencies, relay, {
			endpoint, group, model, body, stream, pinnedChannelId: caller.pinnedChannelId, signal: request.signal,
		})
		held = false
		return stream ? streamAnswer(dependencies, relay, call, answer) : await completeAnswer(dependencies, relay, call, answer)
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
 * Before anything is held: some channel can take the call. A pinned channel, or every channel of
 * the model, whose type lacks the endpoint makes a clear client error rather than a failed attempt.
 */
function checkChannels(
	relay: RelayServices, pinnedChannelId: number | undefined, group: string, model: string,
	serves: (channel: { type: number }) => boolean, call: { endpoint: RelayEndpoint; stream: boolean },
) {
	if (pinnedChannelId !== undefined) {
		const pinned = relay.routing.channel(pinnedChannelId)
		if (pinned && !serves(pinned)) throw relayErrors.endpointUnsupported(call.endpoint, call.stream)
		return
	}
	if (relay.routing.hasModel(group, model, serves)) return
	throw relay.routing.hasModel(group, model) ? relayErrors.endpointUnsupported(call.endpoint, call.stream, model) : relayErrors.noChannel(group, model)
}

async function completeAnswer(dependencies: Dependencies, relay: RelayServices, call: Call, answer: UpstreamAnswer): Promise<Response> {
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
	const upstreamUsage = rerank ? rerankUsageFrom(parsed.usage) : usageFrom(parsed.usage)
	const usage = upstreamUsage ?? { promptTokens: await countPrompt(call.prompt), completionTokens: rerank ? 0 : await countText(answerText(parsed)) }
	await settleCall(dependencies, relay, call, answer, usage, { localCount: !upstreamUsage, firstTokenMs: undefined })
	if (rerank) text = withRerankUsage(text, parsed, usage)
	return new Response(text, {
		status: 200,
		headers: { 'content-type': 'application/json', 'x-ferry-request-id': call.requestId },
	})
}

function streamAnswer(dependencies: Dependencies, relay: RelayServices, call: Call, answer: UpstreamAnswer): Response {
	let firstTokenMs: number | undefined
	const body = tapOpenAIStream(bodyOrEmpty(answer.response), {
		includeUsage: call.includeUsage,
		onFirstContent: () => {
			firstTokenMs = Math.round(performance.now() - call.startedAt)
		},
		onEnd: async ({ end, usage, text, delivered }) => {
			try {
				if (!delivered && end !== 'completed') {
					await voidHold(relay.ledger, call.requestId, end)
					return
				}
				const billed = end === 'completed' && usage ? usage : { promptTokens: await countPrompt(call.prompt), completionTokens: await countText(text) }
				await settleCall(dependencies, relay, call, answer, billed, { localCount: billed !== usage, firstTokenMs, end })
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

async function settleCall(
	dependencies: Dependencies, relay: RelayServices, call: Call, answer: UpstreamAnswer, usage: Usage,
	details: { localCount: boolean; firstTokenMs: number | undefined; end?: StreamEnd },
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
			ip: '',
			content: '',
			other,
		} : undefined,
	})
	relay.recordResponseTime(answer.channel.id, Math.round(useTimeMs))
	if (outcome.settled && outcome.balance !== undefined) relay.quotaReminder.afterSettle(userId, outcome.balance)
}
