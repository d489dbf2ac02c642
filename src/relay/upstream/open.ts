/**
 * Opening one call on one channel, for the relay and the channel tools alike: the adaptor's
 * pass-through, converter or own opening for the endpoint, the channel's model mapping, the request
 * built and sent through the outbound client, and the answer turned into OpenAI's form (or left in
 * the client's own format for a same-format channel).
 */
import type { Dependencies } from '@/dependencies'
import type { RoutableChannel } from '@/db/stores/channels'
import { type BodyReader, type OpenedResponse, readAllText } from '@/lib/outbound'
import { THINKING_BLOCKS_FIELD } from '../formats/claude/thinking'
import { textReader } from '../formats/sse'
import { adaptorFor, servesEndpoint } from '../providers/registry'
import { type AdaptorContext, AdaptorFetchError, type Converter, type OpenAIPassThrough, type RelayEndpoint, type SameFormatCall, type UpstreamChannel } from '../providers/types'
import { mappingServes, ModelMappingCycleError, upstreamModel } from './model-mapping'
import { mediaFetcher } from './user-media'
import { upstreamWebSocket } from './websocket'

/** The outbound client every upstream call goes through (design §8), answering bodies as guarded readers. */
export type UpstreamFetch = (url: string, init: RequestInit) => Promise<OpenedResponse>

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
	dependencies: Dependencies, relay: { outbound: UpstreamFetch }, channel: RoutableChannel,
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

function adaptorContext(dependencies: Dependencies, relay: { outbound: UpstreamFetch }, signal: AbortSignal): AdaptorContext {
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
