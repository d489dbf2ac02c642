import type { BodyReader, OpenedResponse } from '@/lib/outbound'
import type { WebSocketOpen } from '@/lib/outbound/websocket'
import type { RequestExtras } from '../formats/canonical'
import type { EventReader, WireFormat } from '../formats/events'
import type { ClaudeThinking } from './shared/reasoning-effort'

/**
 * What every upstream adaptor declares. Adaptors are pure: they turn a request into the
 * upstream's URL, headers and body, and never touch the database. Capabilities are optional
 * members; a missing one means "this upstream cannot do that" and the relay says so.
 */

/**
 * The endpoints an OpenAI-format client calls. Rerank has no OpenAI form: its canonical shape is
 * Jina's (`{model, query, documents, top_n?, return_documents?}` → `{results, usage}`), which
 * Cohere's and SiliconCloud's APIs follow closely.
 */
/**
 * OpenAI's image, audio and moderation endpoints (formats/media): answered whole (speech as bytes
 * streamed through), in the upstream's own bytes; multipart uploads pass upstream intact.
 */
export const MEDIA_ENDPOINTS = ['image-generations', 'image-edits', 'image-variations', 'speech', 'transcriptions', 'translations', 'moderations'] as const
export type MediaEndpoint = (typeof MEDIA_ENDPOINTS)[number]

/**
 * `videos`: OpenAI's `POST /v1/videos` — a task: the upstream takes it and answers later. Each
 * provider serves it through its `videos` adaptor (VideoAdaptor), whatever its upstream's wire.
 */
const RELAY_ENDPOINTS = ['chat', 'completions', 'embeddings', 'rerank', ...MEDIA_ENDPOINTS, 'videos'] as const
export type RelayEndpoint = (typeof RELAY_ENDPOINTS)[number]

/** What an adaptor is told about the channel it serves: plain data, key already decrypted. */
export interface UpstreamChannel {
	type: number
	baseUrl: string
	key: string
	/** Type-dependent extra value: API version, region, model version, … */
	other: string
	organization: string
}

export interface UpstreamRequest {
	/** POST unless said otherwise. */
	method?: 'GET' | 'POST' | 'DELETE'
	url: string
	headers: Record<string, string>
	body: string
}

/** Same-format traffic: the upstream speaks OpenAI's wire format for these endpoints. */
export interface OpenAIPassThrough {
	endpoints: readonly RelayEndpoint[]
	/**
	 * `body` is the client's JSON with the upstream model name already in place. `text`, when given, is
	 * `body` exactly as the client wrote it: an adaptor that sends the body unchanged sends these bytes.
	 */
	buildRequest(channel: UpstreamChannel, endpoint: RelayEndpoint, body: Record<string, unknown>, text?: string): UpstreamRequest
	/** Headers that take a signature (Zhipu's JWT), added over buildRequest's. `now` is Unix milliseconds. */
	signedHeaders?(channel: UpstreamChannel, now: number): Promise<Record<string, string>>
}

/** The client formats other than OpenAI's, whose own requests a channel may speak (OpenAI's is the canonical form). */
export type NativeFormat = Exclude<WireFormat, 'openai'>

/**
 * A client format's own chat request, for upstreams that speak that format (same-format traffic
 * passes through with only model mapping applied). Plain data, as the rest of the canonical request.
 */
export interface NativeRequest {
	format: NativeFormat
	/** The client's body exactly as it sent it. */
	text: string
	/** The client's body, parsed: for upstreams whose wire differs from the client's at the top (Bedrock's). */
	value: Record<string, unknown>
	/**
	 * Whether the body names the model (`value.model`: Claude's, a Responses request), so that a
	 * channel mapping it to another name gets the body with that name; Gemini's names it in the path,
	 * and its bytes always go as they are.
	 */
	modelInBody: boolean
	/** The client's headers that belong to the wire format (Claude's `anthropic-beta`, `anthropic-version`). */
	headers: Record<string, string>
	/** The client's query string that belongs to the wire format (Claude SDKs' `?beta=true`), or ''. */
	search: string
	/** The path under the format's create URL the request goes to (`/compact`: a Responses compaction); none for the create call. */
	path?: string
	/**
	 * Set when only a channel that speaks the format can serve the request (a Responses request that
	 * continues a stored response), saying why: routing takes no other channel, and a call no such
	 * channel can take is refused with this reason before any hold.
	 */
	required?: string
}

/** What a same-format adaptor builds its request from: the client's request with the upstream model name. */
export interface NativeCall extends Omit<NativeRequest, 'format' | 'text' | 'modelInBody' | 'required'> {
	/** The upstream model name (already in `body` when the format names it there). */
	model: string
	stream: boolean
	body: string
}

/** An upstream serving a client format's own requests: its answers reach the client in that format. */
export interface SameFormatPassThrough {
	buildRequest(channel: UpstreamChannel, call: NativeCall, context: AdaptorContext): UpstreamRequest | Promise<UpstreamRequest>
	/** Its stream body → the format's events; an SSE stream of JSON events (readSseAnswerEvents) when absent. */
	streamEvents?(body: BodyReader): EventReader
	/**
	 * For formats whose upstream keeps what it answered (OpenAI's Responses API): a request about one
	 * kept object. `path` follows the create path (`/resp_1/input_items`), `search` is '' or `?…`.
	 */
	storedRequest?(channel: UpstreamChannel, request: { method: KeptMethod; path: string; search: string }): { method: KeptMethod; url: string; headers: Record<string, string> }
	/**
	 * For formats with a token count of their own that the upstream serves (Claude's
	 * `/v1/messages/count_tokens`): where to POST the client's count request (its body, model mapped)
	 * and with which headers; the answer is the format's (`{input_tokens}`). `call` carries the
	 * client's wire headers and query as for a create call.
	 */
	countRequest?(channel: UpstreamChannel, call: Pick<NativeCall, 'headers' | 'search'>): { url: string; headers: Record<string, string> }
}

type KeptMethod = 'GET' | 'POST' | 'DELETE'

/** What an adaptor may use besides its arguments: the gateway's outbound client, for token exchanges. */
export interface AdaptorContext {
	/** POSTs or GETs through the guarded outbound client and answers the parsed JSON (throws AdaptorFetchError on non-2xx). */
	fetchJson(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<unknown>
	/** Unix milliseconds; signing uses it, tests may fix it. */
	now(): number
	/**
	 * Downloads media the client referenced by URL (an image), for upstreams that take only inline
	 * bytes: through the proxy worker when one is configured, else under the `user-content` policy.
	 * Throws a RelayError (400) when it cannot. Absent where nothing may be downloaded (unit tests).
	 */
	fetchMedia?(url: string): Promise<FetchedMedia>
}

/** Downloaded media: its type as the server declared it, and its bytes in base64. */
export interface FetchedMedia {
	mediaType: string
	data: string
}

/**
 * An endpoint served by an upstream with its own wire format. The canonical form is OpenAI's: the
 * adaptor builds its request from the OpenAI-format body and turns the answer back into OpenAI's
 * shape, so the relay (usage, billing, logs, client formats) never sees the difference.
 */
export interface Converter {
	/**
	 * `body` is the canonical request's OpenAI-format JSON with the upstream model name in place;
	 * `extras` what the client said that OpenAI's form has no field for (formats/canonical.ts), for
	 * a converter whose upstream can take it (never to be written into a request as fields of their own).
	 */
	buildRequest(channel: UpstreamChannel, body: Record<string, unknown>, context: AdaptorContext, extras?: RequestExtras): UpstreamRequest | Promise<UpstreamRequest>
	/**
	 * The whole upstream answer → the OpenAI-format answer object (with `usage`). `model` is what the
	 * client asked for; `request` the body the upstream request was built from (upstream model name in place).
	 */
	toOpenAI(text: string, model: string, request?: Record<string, unknown>): Record<string, unknown>
	/**
	 * The upstream's stream → OpenAI chunks as events (chunk-stream.ts: the chunks, usage in a final
	 * chunk, then `done`). Must be lazy (pull one upstream read per call). Its `read()` rejects when
	 * the upstream fails: with a SyntaxError for a malformed event, with a RelayError for an error the
	 * upstream reported (its message reaches the client in the stream's error event).
	 */
	streamToOpenAI?(reader: BodyReader, model: string, request?: Record<string, unknown>): EventReader
	/**
	 * For upstreams that report failures inside a 2xx answer (Baidu, Zhipu v3, Tencent…): the status
	 * and message such an answer stands for, or undefined for a real answer. The relay then treats it
	 * as that upstream error: retries, auto-disable and the client's error all apply.
	 */
	errorOf?(text: string): { status: number; message: string } | undefined
}

/**
 * Thrown by `AdaptorContext.fetchJson` when the upstream's token or signing service refused the
 * call: 400/401/403 mean the channel's credentials are wrong, which the relay handles like an
 * upstream 401 (a gateway error for the client, auto-disable for the channel).
 */
export class AdaptorFetchError extends Error {
	constructor(readonly status: number, message: string) {
		super(message)
	}
}

/**
 * An endpoint whose upstream is not one HTTP request (iFlytek Spark speaks WebSocket): the adaptor
 * opens the upstream itself through the guarded WebSocket client and answers in OpenAI's format,
 * as a converted answer would be (JSON whole; a stream's chunks as `events`). A refused call answers
 * an HTTP-like status with an `{error:{message}}` body, so retries and channel health work as usual.
 */
export interface SelfOpenedEndpoint {
	open(channel: UpstreamChannel, body: Record<string, unknown>, call: SelfOpenedCall): Promise<SelfOpenedResponse>
}

/** A self-opened answer: HTTP-like (a refusal, or a whole answer's JSON), plus a stream's OpenAI chunks. */
export type SelfOpenedResponse = OpenedResponse & { events?: EventReader }

export interface SelfOpenedCall {
	/** The model the client asked for, for the answer's `model` field. */
	model: string
	stream: boolean
	signal: AbortSignal
	/** Unix milliseconds; signing uses it. */
	now(): number
	/** Opens a WebSocket under the `upstream` policy with the configured timeouts. */
	openWebSocket: WebSocketOpen
}

/**
 * How to list the models an upstream serves (the editor's "fetch model list"): one GET whose answer
 * names them. Pure like the rest of the adaptor: the channel tools send the request.
 */
export interface ModelList {
	/** `channel.baseUrl` is the channel's base URL or the adaptor's default, without trailing slashes or `/v1`. */
	request(channel: UpstreamChannel): { url: string; headers: Record<string, string> }
	/** The model names in the parsed JSON answer; entries that are not non-empty text are dropped by the caller. */
	names(answer: unknown): unknown[]
}

/** What a balance reader may use: GETs through the gateway's outbound client, with the tools' waits. */
export interface BalanceContext {
	/**
	 * GETs `url` and answers the parsed JSON object. Throws, with a message fit for the admin (the
	 * upstream's status and own message, keys scrubbed), when the upstream refuses or answers no JSON object.
	 */
	getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>>
	/** Unix milliseconds. */
	now(): number
}

/** The long sessions a client holds on a WebSocket (src/relay/sessions): the Realtime API, and the Responses API's WebSocket mode. */
export const SOCKET_KINDS = ['realtime', 'responses'] as const
export type SocketKind = (typeof SOCKET_KINDS)[number]

/** Where an upstream takes a long session's socket, and how it is authenticated. Pure, like the rest. */
export interface SocketRoute {
	/** The ws(s) URL for the model (the upstream's name for it). */
	url(channel: UpstreamChannel, model: string): string
	headers(channel: UpstreamChannel): Record<string, string>
	/** The model name the upstream expects in a message's body, when it is not the mapped name (Azure's deployment). */
	bodyModel?(model: string): string
}

/** A task platform: the `platform` of its rows, named by its adaptor (@shared/task-constants TASK_PLATFORM names the built-in ones). */
export type TaskPlatform = string

/** A task as an upstream reported it, in Ferry's terms: statuses of TASK_STATUS, times in unix seconds. */
export interface UpstreamTaskState {
	id: string
	/** '' when the upstream gave none. */
	status: string
	/** e.g. `40%`; '' when the upstream gave none. */
	progress: string
	failReason: string
	submitTime: number
	startTime: number
	finishTime: number
	/** Midjourney's result fields; absent for other platforms. */
	drawing?: {
		imageUrl: string
		prompt: string
		promptEn: string
		description: string
		state: string
		/** midjourney-proxy's `buttons` and `properties`, kept as JSON text ('' when absent). */
		buttons: string
		properties: string
	}
	/** Suno's result (the clips), kept as JSON text; '' when absent. */
	data?: string
}

/**
 * A submit's outcome. `accepted`: the upstream took the task under `upstreamId`. Otherwise it refused
 * it: `status` is the HTTP status to answer with, `description` the upstream's own words (not yet
 * scrubbed). `code` is the upstream's code (midjourney-proxy's number; Suno's text).
 */
export type TaskSubmitOutcome =
	| {
		accepted: true
		/** '' only for an upload, whose answer is the uploaded files' addresses (`uploads`) rather than a task. */
		upstreamId: string
		uploads?: string[]
		code: number
		description: string
		properties: Record<string, unknown>
	}
	| { accepted: false; status: number; code: number | string; description: string; properties: Record<string, unknown> }

/**
 * The `tasks` capability: an upstream that takes work now and reports on it later. Pure like the
 * rest of the adaptor: the task relay sends the requests and the poller reads the answers.
 */
export interface TaskAdaptor {
	platform: TaskPlatform
	/** The submit of one task: `path` is the upstream path of the action (`/mj/submit/imagine`, `/suno/submit/music`). */
	submitRequest(channel: UpstreamChannel, path: string, body: Record<string, unknown>): UpstreamRequest
	readSubmit(status: number, text: string): TaskSubmitOutcome
	/** One request asking for the state of several tasks (one per channel and polling round). */
	fetchRequest(channel: UpstreamChannel, ids: readonly string[]): UpstreamRequest
	/** The tasks a fetch answer reports; throws a SyntaxError for an answer that is not one. */
	readFetch(text: string): UpstreamTaskState[]
	/** A read passed through with the channel's credentials (Midjourney's image seed); `path` starts with `/`. */
	readRequest?(channel: UpstreamChannel, path: string): UpstreamRequest
}

/** The assets of a finished video (OpenAI's `GET /v1/videos/{id}/content?variant=`). */
export const VIDEO_VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const
export type VideoVariant = (typeof VIDEO_VARIANTS)[number]

/** A video task as its upstream reports it, in OpenAI's terms. */
export interface VideoState {
	status: 'queued' | 'in_progress' | 'completed' | 'failed'
	/** 0–100. */
	progress: number
	/** Why it failed, in the upstream's words (not yet scrubbed); '' otherwise. */
	failReason: string
	/** Whether a finished task came with a video: a `completed` one without is a failure. */
	hasVideo: boolean
	/** Where the upstream keeps the video (Veo's file URI, Kling's URL), for the content request; '' when it is fetched by id. */
	videoUrl: string
	/** A video the poll answer carries itself (Vertex AI without a storage bucket). */
	inline?: { data: string; mimeType: string }
}

/** The reference image of a video request, read from its upload or its JSON (`input_reference.image_url`). */
export interface VideoReference {
	/** base64 */
	data: string
	mimeType: string
}

/** What a video submit is built from: the OpenAI-form request (upstream model in place), its upload, and the video it remixes. */
export interface VideoSubmit {
	body: Record<string, unknown>
	/** A multipart request's bytes (model already the upstream's), sent as they are by upstreams that take OpenAI's form. */
	upload?: { bytes: Uint8Array<ArrayBuffer>; contentType: string }
	/** The reference image as bytes, for upstreams that take it inline (Veo, Kling); undefined when the request has none. */
	reference?: VideoReference
	/** The upstream id of the video a remix starts from. */
	remixOf?: string
}

/** A submit's request: an upload's bytes go as they are. */
export type VideoSubmitRequest = Omit<UpstreamRequest, 'body'> & { body: string | Uint8Array<ArrayBuffer> }

type Maybe<T> = T | Promise<T>

/**
 * The `videos` capability (OpenAI's Videos API, whatever the upstream's wire): submit a task, poll
 * it, map its status, fetch its assets. Pure like the rest: the stages send the submit (upstream/open.ts),
 * the poller and the content route send the rest (relay/tasks/videos/). `context` signs and exchanges tokens.
 */
export interface VideoAdaptor {
	submitRequest(channel: UpstreamChannel, submit: VideoSubmit, context: AdaptorContext): Maybe<VideoSubmitRequest>
	/**
	 * A 2xx submit answer → the upstream's id and the task's first state (a refusal inside a 2xx
	 * answer is a `failed` state); throws a SyntaxError for an answer that is not one. `withImage`:
	 * the request had a reference image (Kling polls the two kinds under different paths).
	 */
	readSubmit(text: string, request: { withImage: boolean }): { id: string; state: VideoState }
	/** `model` is the upstream model name (Veo and Kling name it in the path). */
	pollRequest(channel: UpstreamChannel, id: string, model: string, context: AdaptorContext): Maybe<UpstreamRequest>
	/** A 2xx poll answer → the state; throws a SyntaxError for an answer that is not one. */
	readPoll(text: string): VideoState
	/** The request for an asset of a finished video; undefined when the upstream has no such variant. */
	contentRequest(channel: UpstreamChannel, id: string, variant: VideoVariant, state: VideoState, context: AdaptorContext): Maybe<UpstreamRequest | undefined>
	/** Whether contentRequest needs a fresh state (the upstream names the video's URL only in its poll answer). */
	contentNeedsState?: boolean
	/** Deleting the upstream's copy of a finished video, if it keeps one. */
	deleteRequest?(channel: UpstreamChannel, id: string, context: AdaptorContext): Maybe<UpstreamRequest>
	/** Whether the upstream can remix a video (OpenAI's `POST /v1/videos/{id}/remix`). */
	remixes?: boolean
	/** Whether the submit takes the reference image as bytes (`VideoSubmit.reference`) rather than the client's upload. */
	inlineReference?: boolean
}

/**
 * What a channel type can do (routing, the pre-hold check, the channel tools and the console's type
 * list ask registry.ts `capabilities`, which adds `testEndpoint`), declared apart from the adaptor
 * so that routing knows it without loading the adaptor's converters. A test checks each declaration
 * against what its adaptor implements.
 */
export interface DeclaredCapabilities {
	/**
	 * The relay endpoints it serves — in OpenAI's format, through a converter, or by its own opening
	 * (iFlytek's WebSocket chat) — and whether it can stream each.
	 */
	endpoints: Readonly<Partial<Record<RelayEndpoint, { stream: boolean }>>>
	/** The client formats whose own chat requests it takes as they came (same-format pass-through). */
	nativeFormats: readonly NativeFormat[]
	/** The async task platform it serves (Midjourney Proxy, Suno), if any. */
	taskPlatform?: TaskPlatform
	/** Whether its upstream lists the models it serves (the editor's "fetch model list"). */
	listsModels: boolean
	/** Whether its upstream publishes the account's balance. */
	readsBalance: boolean
	/** The long sessions it takes on a WebSocket (Realtime, Responses). */
	sockets: readonly SocketKind[]
}

/** A declaration that leaves out what most types lack: native formats, sockets, a model list, a balance. */
export function serving(declared: Pick<DeclaredCapabilities, 'endpoints'> & Partial<DeclaredCapabilities>): DeclaredCapabilities {
	return { nativeFormats: [], listsModels: false, readsBalance: false, sockets: [], ...declared }
}

/** What the console shows of a channel type, the adaptor's too. */
export interface ChannelTypeIdentity {
	/** The channel type number. */
	type: number
	/**
	 * The channel type's display name, the one source of it: the console's type select and channel
	 * list (through `GET /api/channel/types`) and the channel tools' messages.
	 */
	name: string
	defaultBaseUrl: string
	/** How the key is composed when it is more than one API key, e.g. `APIKey|SecretKey`; the editor shows it. */
	keyFormat?: string
	/**
	 * The models a new channel of this type is offered (`GET /api/models`, the editor's presets):
	 * a modest list of current names, the first ones the most common.
	 */
	defaultModels: readonly string[]
}

/**
 * A channel type as known without its adaptor: `capabilities.ts` in the provider's folder. The
 * registry loads the adaptor itself (its converters, signers, stream readers) only for the types in use.
 */
export interface ChannelTypeDescription extends ChannelTypeIdentity {
	serves: DeclaredCapabilities
}

/** The identity part of a description, for the adaptor built on it. */
export function identityOf({ serves: _serves, ...identity }: ChannelTypeDescription): ChannelTypeIdentity {
	return identity
}

export interface ProviderAdaptor extends ChannelTypeIdentity {
	/** How to list the upstream's models; absent when the upstream has no list call. */
	modelList?: ModelList
	/**
	 * Reads the account balance the upstream publishes, in the provider's own currency (the channel
	 * tools' `update_balance`); absent when it publishes none. `channel.baseUrl` is as for `ModelList`.
	 * An answer that is not a finite number means the upstream's answer could not be read.
	 */
	readBalance?(channel: UpstreamChannel, context: BalanceContext): Promise<number>
	/** Endpoints the upstream serves in OpenAI's own format. */
	openai?: OpenAIPassThrough
	/** Endpoints the upstream serves in its own format (an endpoint is in one of these, not several). */
	converted?: Partial<Record<RelayEndpoint, Converter>>
	/** Endpoints the adaptor opens itself (not one HTTP request). */
	selfOpened?: Partial<Record<RelayEndpoint, SelfOpenedEndpoint>>
	/** Chat calls of client formats the upstream speaks itself: they pass through instead of converting. */
	sameFormat?: Partial<Record<NativeFormat, SameFormatPassThrough>>
	/** Async tasks (drawing, music): submitted, then polled until they finish. */
	tasks?: TaskAdaptor
	/** Video generation (`/v1/videos`): submitted through the stages, then polled until it finishes. */
	videos?: VideoAdaptor
	/** Long sessions it takes on a WebSocket: Realtime, the Responses API's WebSocket mode. */
	sockets?: Partial<Record<SocketKind, SocketRoute>>
	/**
	 * Its OpenAI-format chat reads an assistant message's `reasoning_content` (the reasoning of a turn
	 * sent back; DeepSeek and Kimi refuse a tool-call turn in thinking mode without it): the thinking
	 * blocks a client sends back are written there (formats/canonical.ts withReasoningContent). Upstreams
	 * without it get none: OpenAI refuses a message field it does not know on some models.
	 */
	reasoningContent?: true
	/**
	 * A Claude client's `thinking` setting (an extra: Claude Code's budget, `adaptive` or `disabled`)
	 * as this OpenAI-format upstream's own fields for the (upstream) model, undefined when the model
	 * takes none; a field the body already has (the client's own) is kept. Absent: the setting
	 * reaches no upstream of this type (formats/canonical.ts withThinkingFields).
	 */
	thinkingFields?(thinking: ClaudeThinking, model: string): Record<string, unknown> | undefined
}
