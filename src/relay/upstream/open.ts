/**
 * Opening one call on one channel, for the relay and the channel tools alike: the adaptor's way of
 * serving the endpoint (the client's own format passed through, OpenAI's format passed through, a
 * converter, or its own opening), the channel's model mapping, the request built and sent through
 * the outbound client. The answer is read as typed values — a whole answer object, or a stream of
 * parsed events — in the client's own wire format (same-format) or OpenAI's, the canonical one.
 */
import type { Dependencies } from '@/dependencies'
import type { RoutableChannel } from '@/db/stores/channels'
import type { BodyReader, OpenedResponse } from '@/lib/outbound'
import { type CanonicalRequest, withReasoningContent, withThinkingFields } from '../formats/canonical'
import { readSseAnswerEvents, type EventReader, type Json, type ReadEvent, type SseAnswerOptions, type WireFormat } from '../formats/events'
import { isObject } from '../formats/json'
import { uploadUpstreamBody } from '../formats/media/multipart'
import { videoReference } from '../formats/videos/reference'
import { textReader } from '../formats/sse'
import { adaptorFor, loadAdaptor, serviceFor, servesEndpoint } from '../providers/registry'
import {
	type AdaptorContext, AdaptorFetchError, type NativeFormat, type NativeRequest, type OpenAIPassThrough, type RelayEndpoint, type SelfOpenedResponse,
	type UpstreamChannel,
} from '../providers/types'
import { applySetting, nativeFor, thinkingAsContent, thinkingAsContentEvents } from './channel-setting'
import { mappingServes, ModelMappingCycleError, upstreamModel } from './model-mapping'
import { mediaFetcher } from './user-media'
import { upstreamWebSocket } from './websocket'

/** The outbound client every upstream call goes through, answering bodies as guarded readers. */
export type UpstreamFetch = (url: string, init: RequestInit) => Promise<OpenedResponse>

/** Why one channel could not take the call: its adaptor lacks the endpoint, or its mapping loops. */
export class ChannelUnfitError extends Error {}

/** A whole answer that is not a JSON object, from an upstream whose answer passes through. */
export class MalformedAnswerError extends Error {}

/**
 * Whether a channel's configuration can take the call: its type serves it (registry.ts serviceFor)
 * and its `model_mapping` gives the model an upstream name. Routing picks only such channels.
 */
export function channelCanTake(channel: RoutableChannel, call: { endpoint: RelayEndpoint; stream: boolean; model: string; native?: NativeFormat; nativeRequired?: boolean }): boolean {
	return servesEndpoint(channel.type, call.endpoint, call.stream, call.native, call.nativeRequired) && mappingServes(channel.modelMapping, call.model)
}

/**
 * What channelCanTake's answer depends on besides the channel and the model: the key under which
 * the routing table keeps it (routing-table.ts `cacheKey`) until channels change.
 */
export const canTakeKey = (call: { endpoint: RelayEndpoint; stream: boolean; native?: NativeFormat; nativeRequired?: boolean }) =>
	`can-take ${call.endpoint} ${call.stream} ${call.native ?? ''} ${call.nativeRequired === true}`

export interface UpstreamCall {
	/**
	 * The canonical request, checked: its endpoint and OpenAI-format body, its extras (for converters
	 * that can send them on), the client's bytes (an OpenAI-format upstream gets them while nothing
	 * changes) and an upload (sent intact).
	 */
	request: CanonicalRequest
	/** The model the client asked for. */
	model: string
	stream: boolean
	signal: AbortSignal
	/** The client's own request, for a channel that speaks its format, when it may pass through. */
	native?: NativeRequest
}

/** A whole answer read: the object, and its text as the upstream sent it when the object is that text unchanged. */
interface ReadAnswer {
	answer: Json
	text?: string
}

export interface OpenedUpstream {
	/** The upstream's HTTP answer: its status, and for an error its text. */
	response: OpenedResponse
	upstreamModel: string
	/** The wire format of the answer: the client's own (same-format pass-through) or OpenAI's (canonical). */
	wire: WireFormat
	/**
	 * A whole answer's text → the answer in `wire`. Throws a MalformedAnswerError for a passed-through
	 * answer that is not a JSON object; a converter's failures (a RelayError for an error it found) propagate.
	 */
	readAnswer(text: string): ReadAnswer
	/**
	 * A stream's body → its events in `wire`, parsed once, one upstream read per read. Asked to defer
	 * parsing, an SSE pass-through may answer data events unparsed (`passed`); other readers ignore it.
	 */
	readEvents(body: BodyReader, options?: SseAnswerOptions): EventReader<ReadEvent>
}

/** A passed-through answer: parsed, and kept with its bytes. */
function passedAnswer(text: string): ReadAnswer {
	let answer: unknown
	try {
		answer = JSON.parse(text)
	} catch {
		throw new MalformedAnswerError('the upstream answer is not JSON')
	}
	if (!isObject(answer)) throw new MalformedAnswerError('the upstream answer is not a JSON object')
	return { answer, text }
}

/**
 * Sends one call to one channel: picks how the adaptor serves it, maps the model, builds and sends
 * the request. Throws ChannelUnfitError when the channel cannot take the call at all.
 */
export async function openUpstream(dependencies: Dependencies, relay: { outbound: UpstreamFetch }, channel: RoutableChannel, call: UpstreamCall): Promise<OpenedUpstream> {
	const { request: canonicalRequest } = call
	const { setting } = channel
	// Loaded already for a routed channel (the routing table loads its channels' types); a channel tool's test may load one.
	const adaptor = adaptorFor(channel.type) ?? await loadAdaptor(channel.type)
	const serviceOf = (native: NativeRequest | undefined) => serviceFor(channel.type, { endpoint: canonicalRequest.endpoint, stream: call.stream, native: native?.format, nativeRequired: native?.required !== undefined })
	// A setting that changes the body takes the client's own format converted, when the channel can convert it.
	const settingNative = nativeFor(setting, call.native)
	const service = serviceOf(settingNative) ?? serviceOf(call.native)
	if (!adaptor || !service) throw new ChannelUnfitError('endpoint not served')
	let model: string
	try {
		model = upstreamModel(channel.modelMapping, call.model)
	} catch (error) {
		if (!(error instanceof ModelMappingCycleError)) throw error
		dependencies.logger.warn('channel model mapping has a cycle', { channelId: channel.id })
		throw new ChannelUnfitError('model mapping cycle')
	}
	const upstreamChannel = channel.baseUrl ? channel : { ...channel, baseUrl: adaptor.defaultBaseUrl }
	const send = (request: { method?: 'GET' | 'POST' | 'DELETE'; url: string; headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> }) =>
		relay.outbound(request.url, { method: request.method ?? 'POST', headers: request.headers, body: request.body, signal: call.signal })

	if (service.via === 'native') {
		const { value, headers, search, path } = call.native!
		const { passThrough } = service
		const body = setting.pass_through_body_enabled ? call.native!.text : nativeBody(call.native!, model)
		const request = await passThrough.buildRequest(upstreamChannel, { value, headers, search, path, model, stream: call.stream, body }, adaptorContext(dependencies, relay, call.signal))
		return { response: await send(request), upstreamModel: model, wire: service.format, readAnswer: passedAnswer, readEvents: (body) => (passThrough.streamEvents ?? readSseAnswerEvents)(body) }
	}

	// The client's body as it came, bytes and all, to a channel of its format that asks for that.
	const passesBody = setting.pass_through_body_enabled === true && service.via === 'openai' && canonicalRequest.bodyText !== undefined
	const usageAsked = (canonicalRequest.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true
	// The body is copied only when Ferry changes it: the model's upstream name, usage asked for, the channel's setting.
	const mapped: Record<string, unknown> = passesBody
		? canonicalRequest.body
		: call.stream && !usageAsked
			? { ...canonicalRequest.body, model, stream_options: { ...(canonicalRequest.body.stream_options as object | undefined), include_usage: true } }
			: model === call.model ? canonicalRequest.body : { ...canonicalRequest.body, model }
	// Thinking blocks a client sends back, where an upstream that reasons takes a turn's reasoning;
	// before the channel's setting, so that force_format (OpenAI's fields only) still has the last word.
	const withReasoning = adaptor.reasoningContent && canonicalRequest.endpoint === 'chat' ? withReasoningContent(mapped, canonicalRequest.extras) : mapped
	// A Claude client's thinking setting, as the upstream's own fields where it has some.
	const reasoned = adaptor.thinkingFields && canonicalRequest.endpoint === 'chat' ? withThinkingFields(withReasoning, canonicalRequest.extras, adaptor.thinkingFields) : withReasoning
	const body = passesBody ? mapped : applySetting(setting, canonicalRequest.endpoint, reasoned, service.via === 'openai')
	const thinkingAsText = setting.thinking_to_content === true && canonicalRequest.endpoint === 'chat'
	const canonical = { upstreamModel: passesBody ? call.model : model, wire: 'openai' as const }

	if (service.via === 'self-opened') {
		const opened: SelfOpenedResponse = await service.opener.open(upstreamChannel, body, {
			model: call.model, stream: call.stream, signal: call.signal, now: () => Date.now(), openWebSocket: upstreamWebSocket(dependencies),
		})
		const events = opened.events
		const selfOpened: OpenedUpstream = { ...canonical, response: opened, readAnswer: passedAnswer, readEvents: (body) => events ?? readSseAnswerEvents(body) }
		return thinkingAsText ? withThinkingAsContent(selfOpened) : selfOpened
	}

	if (service.via === 'openai') {
		// The client's bytes go as they are while Ferry changes nothing in them: same model, usage already asked for.
		const text = body === canonicalRequest.body ? canonicalRequest.bodyText : undefined
		const request = await passThroughRequest(service.passThrough, upstreamChannel, canonicalRequest.endpoint, body, text)
		// An upload goes as it came (formats/media/multipart.ts), not as the JSON of its text fields.
		const upload = canonicalRequest.upload && await uploadUpstreamBody(canonicalRequest.upload, body.model)
		const sent = upload ? { ...request, headers: { ...request.headers, 'content-type': upload.contentType }, body: upload.bytes } : request
		const opened: OpenedUpstream = { ...canonical, response: await send(sent), readAnswer: passedAnswer, readEvents: (body, options = {}) => readSseAnswerEvents(body, options) }
		return thinkingAsText ? withThinkingAsContent(opened) : opened
	}

	if (service.via === 'video') {
		// A video task's submit, in its upstream's wire (providers/*/videos): an upload goes as it came, model mapped.
		const { videos } = service
		const context = adaptorContext(dependencies, relay, call.signal)
		const upload = canonicalRequest.upload && !videos.inlineReference ? await uploadUpstreamBody(canonicalRequest.upload, body.model) : undefined
		const reference = videos.inlineReference ? await videoReference(canonicalRequest, context) : undefined
		const request = await videos.submitRequest(upstreamChannel, { body, upload, reference, remixOf: canonicalRequest.remixOf?.upstreamId }, context)
		return { ...canonical, response: await send(request), readAnswer: passedAnswer, readEvents: (body) => readSseAnswerEvents(body) }
	}

	const { converter } = service
	const request = await converter.buildRequest(upstreamChannel, body, adaptorContext(dependencies, relay, call.signal), canonicalRequest.extras)
	const response = await send(request)
	const converted = {
		...canonical,
		readAnswer: (text: string): ReadAnswer => ({ answer: converter.toOpenAI(text, call.model, body) }),
		readEvents: (reader: BodyReader) => converter.streamToOpenAI!(reader, call.model, body),
	}
	const thinking = (opened: OpenedUpstream) => thinkingAsText ? withThinkingAsContent(opened) : opened
	if (call.stream || !response.ok || !converter.errorOf) return thinking({ ...converted, response })
	// Read now: an error reported inside a 2xx answer must be seen before the call counts as answered.
	const text = await response.text()
	const reported = converter.errorOf(text)
	if (reported) return { ...converted, response: answeredWith(response, reported.status, JSON.stringify({ error: { message: reported.message } })) }
	return thinking({ ...converted, response: answeredWith(response, response.status, text) })
}

/** An OpenAI-form chat answer read with its reasoning as `<think>` text (channel-setting.ts thinking_to_content). */
function withThinkingAsContent(opened: OpenedUpstream): OpenedUpstream {
	return {
		...opened,
		readAnswer(text) {
			const read = opened.readAnswer(text)
			const { answer, changed } = thinkingAsContent(read.answer)
			return changed ? { answer } : read
		},
		readEvents: (body) => thinkingAsContentEvents(opened.readEvents(body)),
	}
}

/** The client's own body for the upstream model name: its bytes unless the name it gives the model changes. */
function nativeBody(native: NativeRequest, model: string): string {
	return native.modelInBody && model !== native.value.model ? JSON.stringify({ ...native.value, model }) : native.text
}

/** A pass-through request with the headers its adaptor signs, if any, added. */
async function passThroughRequest(passThrough: OpenAIPassThrough, channel: UpstreamChannel, endpoint: RelayEndpoint, body: Record<string, unknown>, text: string | undefined) {
	const request = passThrough.buildRequest(channel, endpoint, body, text)
	if (!passThrough.signedHeaders) return request
	return { ...request, headers: { ...request.headers, ...(await passThrough.signedHeaders(channel, Date.now())) } }
}

/** An answer whose body was already read, with the given status and text. */
function answeredWith(response: OpenedResponse, status: number, text: string): OpenedResponse {
	return { ...response, status, ok: status >= 200 && status < 300, body: textReader(text), text: async () => text }
}

export function adaptorContext(dependencies: Dependencies, relay: { outbound: UpstreamFetch }, signal: AbortSignal): AdaptorContext {
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
