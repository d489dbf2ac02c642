/**
 * Sends a call upstream, moving to channels not yet tried when one fails (design §5.4):
 * at most `RetryTimes` retries, on connection errors, timeouts and statuses that say nothing about
 * the request itself. A pinned channel is tried alone.
 */
import type { Dependencies } from '@/dependencies'
import { type BodyReader, type OpenedResponse, readAllText } from '@/lib/outbound'
import { RelayError, relayErrors } from '../errors'
import { adaptorFor, servesEndpoint } from '../providers/registry'
import { THINKING_BLOCKS_FIELD } from '../formats/claude/thinking'
import { textReader } from '../formats/sse'
import { type AdaptorContext, AdaptorFetchError, type Converter, type OpenAIPassThrough, type RelayEndpoint, type SameFormatCall, type UpstreamChannel } from '../providers/types'
import { upstreamWebSocket } from './upstream-websocket'
import { disableReason } from './channel-health'
import { mappingServes, ModelMappingCycleError, upstreamModel } from './model-mapping'
import { scrubSecrets, upstreamMessageOf } from './upstream-message'
import { mediaFetcher } from './user-media'
import type { RelayServices } from './services'
import type { RoutableChannel } from './routing-table'

/** 504/524 mean the upstream already spent the time; the rest are the request's own fault. */
const NEVER_RETRY = new Set([400, 408, 413, 415, 422, 504, 524])
const ERROR_BODY_LIMIT = 64 * 1024

export interface UpstreamAnswer {
	channel: RoutableChannel
	response: OpenedResponse
	upstreamModel: string
	tried: number[]
	/** The upstream spoke the client's own format: the answer is in that format, not OpenAI's. */
	sameFormat: boolean
}

export interface AttemptPlan {
	endpoint: RelayEndpoint
	group: string
	model: string
	body: Record<string, unknown>
	stream: boolean
	pinnedChannelId: number | undefined
	signal: AbortSignal
	/** The client's own request, for channels that speak its format. */
	sameFormat?: SameFormatCall
}

/** A token or signing service refusing the channel's key with one of these means the key is wrong. */
const CREDENTIAL_STATUSES = new Set([400, 401, 403])
const UNAUTHORIZED = 401

const credentialsRejected = () => new RelayError(502, 'the upstream rejected the channel credentials', 'upstream_error', 'upstream_auth_failed')

/** A channel's `status_code_mapping` rewrites the upstream status before anything else sees it. */
function mappedStatus(channel: RoutableChannel, status: number) {
	const mapped = Number(channel.statusCodeMapping[String(status)])
	return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status
}

/** The error the client sees, and the upstream's own (scrubbed) message for the channel's record. */
async function upstreamError(channel: RoutableChannel, response: OpenedResponse, status: number) {
	const text = await response.text().then((body) => body.slice(0, ERROR_BODY_LIMIT), () => '')
	const upstreamMessage = scrubSecrets(upstreamMessageOf(text) ?? `upstream error ${response.status}`, channel)
	// The upstream refusing the gateway's own credentials is not the client's key being wrong.
	const error = status === 401 || status === 403
		? credentialsRejected()
		: new RelayError(status, upstreamMessage, status === 429 ? 'rate_limit_error' : 'upstream_error', `upstream_${status}`)
	return { error, upstreamMessage }
}

/** Why one channel could not take the call: its adaptor lacks the endpoint, or its mapping loops. */
export class ChannelUnfitError extends Error {}

/**
 * Whether a channel's configuration can take the call: its type serves the endpoint and its
 * `model_mapping` gives the model an upstream name. Routing picks only such channels.
 */
export function channelCanTake(channel: RoutableChannel, call: { endpoint: RelayEndpoint; stream: boolean; model: string }): boolean {
	return servesEndpoint(channel.type, call.endpoint, call.stream) && mappingServes(channel.modelMapping, call.model)
}

export interface OpenedUpstream {
	response: OpenedResponse
	upstreamModel: string
	/** See UpstreamAnswer.sameFormat. */
	sameFormat?: boolean
}

/**
 * Sends one call to one channel: picks the adaptor's pass-through or converter for the endpoint,
 * maps the model, builds and sends the request. A converted upstream's answer comes back already
 * in OpenAI's format, so callers (the relay, channel tests) never see the difference.
 */
export async function openUpstream(
	dependencies: Dependencies, relay: Pick<RelayServices, 'outbound'>, channel: RoutableChannel,
	call: { endpoint: RelayEndpoint; model: string; body: Record<string, unknown>; stream: boolean; signal: AbortSignal; sameFormat?: SameFormatCall },
): Promise<OpenedUpstream> {
	const adaptor = adaptorFor(channel.type)
	const passThrough = adaptor?.openai?.endpoints.includes(call.endpoint) ? adaptor.openai : undefined
	const converter = passThrough ? undefined : adaptor?.converted?.[call.endpoint]
	const selfOpened = adaptor?.selfOpened?.[call.endpoint]
	if (!adaptor || !servesEndpoint(channel.type, call.endpoint, call.stream)) throw new ChannelUnfitError('endpoint not served')
	let model: string
	try {
		model = upstreamModel(channel.modelMapping, call.model)
	} catch (error) {
		if (!(error instanceof ModelMappingCycleError)) throw error
		dependencies.logger.warn('channel model mapping has a cycle', { channelId: channel.id })
		throw new ChannelUnfitError('model mapping cycle')
	}
	const body = call.stream
		? { ...call.body, model, stream_options: { ...(call.body.stream_options as object | undefined), include_usage: true } }
		: { ...call.body, model }
	const upstreamChannel = channel.baseUrl ? channel : { ...channel, baseUrl: adaptor.defaultBaseUrl }
	const sameFormat = call.sameFormat && call.endpoint === 'chat' ? adaptor.sameFormat?.[call.sameFormat.format] : undefined
	if (sameFormat) {
		const { bodyFor, ...wire } = call.sameFormat!
		const upstream = sameFormat.buildRequest(upstreamChannel, { ...wire, body: bodyFor(model) })
		const response = await relay.outbound(upstream.url, { method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body, signal: call.signal })
		return { response, upstreamModel: model, sameFormat: true }
	}
	if (selfOpened) {
		const opened = await selfOpened.open(upstreamChannel, body, { model: call.model, stream: call.stream, signal: call.signal, now: () => Date.now(), openWebSocket: upstreamWebSocket(dependencies) })
		return { response: opened, upstreamModel: model }
	}
	const upstream = passThrough
		? await passThroughRequest(passThrough, upstreamChannel, call.endpoint, withoutCanonicalFields(body, call.sameFormat?.format))
		: await converter!.buildRequest(upstreamChannel, body, adaptorContext(dependencies, relay, call.signal))
	const response = await relay.outbound(upstream.url, { method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body, signal: call.signal })
	if (!converter || !response.ok) return { response, upstreamModel: model }
	if (!call.stream && converter.errorOf) {
		// Read now: an error reported inside a 2xx answer must be seen before the call counts as answered.
		const text = await response.text()
		const reported = converter.errorOf(text)
		if (reported) return { response: answeredWith(response, reported.status, JSON.stringify({ error: { message: reported.message } })), upstreamModel: model }
		return { response: convertedAnswer(answeredWith(response, response.status, text), converter, call.model, false), upstreamModel: model }
	}
	return { response: convertedAnswer(response, converter, call.model, call.stream), upstreamModel: model }
}

/**
 * Thinking blocks ride on assistant messages of the canonical form only: OpenAI-format upstreams must
 * not see them. Nor a Claude client's thinking settings: OpenAI's form has none every model accepts
 * (formats/claude/NOTES.md), while an OpenAI client's own `thinking` is its to send.
 */
function withoutCanonicalFields(input: Record<string, unknown>, clientFormat: SameFormatCall['format'] | undefined) {
	const { thinking: _, ...withoutThinking } = input
	const body = clientFormat === 'claude' ? withoutThinking : input
	const messages = body.messages
	if (!Array.isArray(messages) || !messages.some((message) => message?.[THINKING_BLOCKS_FIELD] !== undefined)) return body
	return { ...body, messages: messages.map(({ [THINKING_BLOCKS_FIELD]: _, ...message }) => message) }
}

/** A pass-through request with the headers its adaptor signs, if any, added. */
async function passThroughRequest(passThrough: OpenAIPassThrough, channel: UpstreamChannel, endpoint: RelayEndpoint, body: Record<string, unknown>) {
	const request = passThrough.buildRequest(channel, endpoint, body)
	if (!passThrough.signedHeaders) return request
	return { ...request, headers: { ...request.headers, ...(await passThrough.signedHeaders(channel, Date.now())) } }
}

/** An answer whose body was already read, with the given status and text. */
function answeredWith(response: OpenedResponse, status: number, text: string): OpenedResponse {
	return { ...response, status, ok: status >= 200 && status < 300, body: textReader(text), text: async () => text }
}

function adaptorContext(dependencies: Dependencies, relay: Pick<RelayServices, 'outbound'>, signal: AbortSignal): AdaptorContext {
	return {
		now: () => Date.now(),
		fetchMedia: mediaFetcher(dependencies, signal),
		async fetchJson(url, init) {
			const response = await relay.outbound(url, { ...init, signal })
			const text = await response.text()
			if (!response.ok) throw new AdaptorFetchError(response.status, `${new URL(url).host} answered ${response.status}`)
			return JSON.parse(text) as unknown
		},
	}
}

/** The upstream's own answer, turned into OpenAI's shape when it is read. */
function convertedAnswer(response: OpenedResponse, converter: Converter, model: string, stream: boolean): OpenedResponse {
	if (stream) {
		const body = response.body ? converter.streamToOpenAI!(response.body, model) : undefined
		return { ...response, headers: new Headers({ 'content-type': 'text/event-stream' }), body, text: () => (body ? readAllText(body) : Promise.resolve('')) }
	}
	const text = async () => JSON.stringify(converter.toOpenAI(await response.text(), model))
	let converted: Promise<string> | undefined
	const once = () => (converted ??= text())
	return {
		...response,
		headers: new Headers({ 'content-type': 'application/json' }),
		get body() {
			return lazyReader(once)
		},
		text: once,
	}
}

function lazyReader(text: () => Promise<string>): BodyReader {
	let inner: BodyReader | undefined
	return {
		async read() {
			inner ??= textReader(await text())
			return inner.read()
		},
		async cancel() {
			inner = textReader('')
			await inner.cancel()
		},
	}
}

/**
 * A channel that cannot take the call (channelCanTake) is skipped without counting as an attempt,
 * so a misconfigured channel never uses up the retries other channels would get. Every pass adds
 * a channel to `tried`, so the loop ends.
 */
export async function sendWithRetries(dependencies: Dependencies, relay: RelayServices, plan: AttemptPlan): Promise<UpstreamAnswer> {
	const tried: number[] = []
	const retries = plan.pinnedChannelId ? 0 : dependencies.options.get('RetryTimes')
	let lastError: RelayError | undefined
	for (let attempts = 0; attempts <= retries;) {
		const channel = plan.pinnedChannelId
			? relay.routing.channel(plan.pinnedChannelId)
			: relay.routing.pick(plan.group, plan.model, new Set(tried), { accepts: (candidate) => channelCanTake(candidate, plan) })
		if (!channel) {
			if (plan.pinnedChannelId) throw relayErrors.channelDisabled()
			break
		}
		tried.push(channel.id)
		let opened: OpenedUpstream
		try {
			opened = await openUpstream(dependencies, relay, channel, plan)
		} catch (error) {
			if (error instanceof ChannelUnfitError) {
				lastError ??= relayErrors.noChannel(plan.group, plan.model)
				if (plan.pinnedChannelId) break
				continue
			}
			attempts++
			if (error instanceof AdaptorFetchError && CREDENTIAL_STATUSES.has(error.status)) {
				const reason = disableReason(dependencies.options, channel.autoBan, UNAUTHORIZED, error.message)
				if (reason) await relay.disableChannel(channel.id, reason)
				lastError = credentialsRejected()
				continue
			}
			// A request the channel's wire format cannot express (token arrays to a text-only API) is the client's to change.
			if (error instanceof RelayError && error.status < 500) throw error
			if (plan.signal.aborted) throw error
			dependencies.logger.warn('upstream request failed', { channelId: channel.id, reason: String((error as Error).name ?? error) })
			lastError = relayErrors.upstreamUnavailable()
			continue
		}
		attempts++
		const { response } = opened
		if (response.ok) return { channel, response, upstreamModel: opened.upstreamModel, tried, sameFormat: opened.sameFormat === true }
		const status = mappedStatus(channel, response.status)
		const { error, upstreamMessage } = await upstreamError(channel, response, status)
		const reason = disableReason(dependencies.options, channel.autoBan, status, upstreamMessage)
		if (reason) await relay.disableChannel(channel.id, reason)
		lastError = error
		if (NEVER_RETRY.has(status)) break
	}
	throw lastError ?? relayErrors.noChannel(plan.group, plan.model)
}
