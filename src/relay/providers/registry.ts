/**
 * Channel type → adaptor: one line per provider, and the list of channel types Ferry knows. The
 * list's order is the console's type select (the common providers first), so a new provider's line
 * goes where it should be listed.
 *
 * What a type can do is answered in one place, `capabilities(type)`, derived once from its adaptor:
 * routing (`servesEndpoint`, `serviceFor`, upstream/open.ts `channelCanTake`), the pre-hold check,
 * the channel tools (which endpoint a test calls, whether a balance can be read) and the console's
 * type list (`GET /api/channel/types`) all ask it, so none of them can disagree about a type.
 */
import { isStreamable } from '../formats/openai/requests'
import type { Converter, NativeFormat, OpenAIPassThrough, ProviderAdaptor, RelayEndpoint, SameFormatPassThrough, SelfOpenedEndpoint, SocketKind, TaskPlatform, VideoAdaptor } from './types'
import { openai } from './openai'
import { midjourney, midjourneyPlus } from './midjourney'
import { suno } from './suno'
import { kling } from './kling'
import { ollama } from './ollama'
import { anthropic } from './anthropic'
import { aws } from './aws'
import { vertex } from './vertex'
import { azure } from './azure'
import { cohere } from './cohere'
import { cloudflare } from './cloudflare'
import { deepseek } from './deepseek'
import { baidu } from './baidu'
import { baiduV2 } from './baidu-v2'
import { ali } from './ali'
import { xunfei } from './xunfei'
import { zhipu } from './zhipu'
import { zhipuV4 } from './zhipu-v4'
import { gemini } from './gemini'
import { palm } from './palm'
import { volcengine } from './volcengine'
import { moonshot } from './moonshot'
import { ai360 } from './ai360'
import { tencent } from './tencent'
import { lingyiwanwu } from './lingyiwanwu'
import { minimax } from './minimax'
import { dify } from './dify'
import { jina } from './jina'
import { siliconflow } from './siliconflow'
import { mistral } from './mistral'
import { custom } from './custom'
import { fastgpt } from './fastgpt'
import { aiProxyLibrary } from './ai-proxy-library'
import { mokaai } from './mokaai'
// (provider imports: keep one import line per provider, in the order of the list below)

const ADAPTORS: readonly ProviderAdaptor[] = [
	openai,
	midjourney,
	midjourneyPlus,
	suno,
	ollama,
	anthropic,
	aws,
	vertex,
	azure,
	cohere,
	cloudflare,
	deepseek,
	baidu,
	baiduV2,
	ali,
	xunfei,
	zhipu,
	zhipuV4,
	gemini,
	palm,
	volcengine,
	moonshot,
	ai360,
	tencent,
	lingyiwanwu,
	minimax,
	dify,
	jina,
	siliconflow,
	mistral,
	custom,
	fastgpt,
	aiProxyLibrary,
	mokaai,
	kling,
]

/**
 * How a channel type serves one call (routing by capability): in the client's own format
 * (`native`: a same-format pass-through, for a call that brings its own request in that format), in
 * OpenAI's format as it is (`openai`), through a converter (streaming only when the converter can
 * stream), or by the adaptor's own opening (`self-opened`); in that order of preference. Routing and
 * opening both ask here, so a channel is picked only for a call it is then sent.
 */
export type Service =
	| { via: 'native'; format: NativeFormat; passThrough: SameFormatPassThrough }
	| { via: 'openai'; passThrough: OpenAIPassThrough }
	| { via: 'self-opened'; opener: SelfOpenedEndpoint }
	| { via: 'converter'; converter: Converter }
	| { via: 'video'; videos: VideoAdaptor }

/** What a channel type can do. */
export interface ChannelCapabilities {
	/**
	 * The relay endpoints it serves — in OpenAI's format, through a converter, or by its own opening
	 * (iFlytek's WebSocket chat) — and whether it can stream each.
	 */
	endpoints: Readonly<Partial<Record<RelayEndpoint, { stream: boolean }>>>
	/** The client formats whose own chat requests it takes as they came (same-format pass-through). */
	nativeFormats: readonly NativeFormat[]
	/** The async task platform it serves (Midjourney Proxy, Suno), if any. */
	taskPlatform: TaskPlatform | undefined
	/** Whether its upstream lists the models it serves (the editor's "fetch model list"). */
	listsModels: boolean
	/** Whether its upstream publishes the account's balance. */
	readsBalance: boolean
	/** The endpoint a channel test calls: chat when the type serves it, else embeddings; undefined when it serves neither. */
	testEndpoint: 'chat' | 'embeddings' | undefined
	/** The long sessions it takes on a WebSocket (Realtime, Responses). */
	sockets: readonly SocketKind[]
}

/** A type's capabilities, and the adaptor's member serving each endpoint and each native format. */
interface TypeEntry {
	capabilities: ChannelCapabilities
	services: Partial<Record<RelayEndpoint, Service>>
	natives: Partial<Record<NativeFormat, Service>>
}

const TEST_ENDPOINTS = ['chat', 'embeddings'] as const

/** Each endpoint's service in order of preference: OpenAI's format as it is, the adaptor's own opening, a converter. */
function servicesOf(adaptor: ProviderAdaptor): Partial<Record<RelayEndpoint, Service>> {
	const services: Partial<Record<RelayEndpoint, Service>> = {}
	for (const [endpoint, converter] of Object.entries(adaptor.converted ?? {}) as [RelayEndpoint, Converter][]) services[endpoint] = { via: 'converter', converter }
	for (const [endpoint, opener] of Object.entries(adaptor.selfOpened ?? {}) as [RelayEndpoint, SelfOpenedEndpoint][]) services[endpoint] = { via: 'self-opened', opener }
	for (const endpoint of adaptor.openai?.endpoints ?? []) services[endpoint] = { via: 'openai', passThrough: adaptor.openai! }
	if (adaptor.videos) services.videos = { via: 'video', videos: adaptor.videos }
	return services
}

function entryOf(adaptor: ProviderAdaptor): TypeEntry {
	const services = servicesOf(adaptor)
	const endpoints: Partial<Record<RelayEndpoint, { stream: boolean }>> = {}
	for (const [endpoint, service] of Object.entries(services) as [RelayEndpoint, Service][]) {
		endpoints[endpoint] = { stream: isStreamable(endpoint) && (service.via !== 'converter' || service.converter.streamToOpenAI !== undefined) }
	}
	const natives: Partial<Record<NativeFormat, Service>> = {}
	for (const [format, passThrough] of Object.entries(adaptor.sameFormat ?? {}) as [NativeFormat, SameFormatPassThrough][]) natives[format] = { via: 'native', format, passThrough }
	return {
		services,
		natives,
		capabilities: {
			endpoints,
			nativeFormats: Object.keys(natives) as NativeFormat[],
			taskPlatform: adaptor.tasks?.platform,
			listsModels: adaptor.modelList !== undefined,
			readsBalance: adaptor.readBalance !== undefined,
			testEndpoint: TEST_ENDPOINTS.find((endpoint) => endpoints[endpoint] !== undefined),
			sockets: Object.keys(adaptor.sockets ?? {}) as SocketKind[],
		},
	}
}

const byType = new Map(ADAPTORS.map((adaptor) => [adaptor.type, adaptor]))
const entries = new Map(ADAPTORS.map((adaptor) => [adaptor.type, entryOf(adaptor)]))

export function adaptorFor(type: number): ProviderAdaptor | undefined {
	return byType.get(type)
}

/** Every channel type Ferry knows, in the console's order. */
export function channelTypeAdaptors(): readonly ProviderAdaptor[] {
	return ADAPTORS
}

export const isKnownChannelType = (type: number) => byType.has(type)

/** The type's display name, for messages; `type N` for a type Ferry does not know. */
export const channelTypeName = (type: number) => byType.get(type)?.name ?? `type ${type}`

/** What a channel type can do; undefined for a type Ferry does not know. */
export function capabilities(type: number): ChannelCapabilities | undefined {
	return entries.get(type)?.capabilities
}

export interface ServiceCall {
	endpoint: RelayEndpoint
	stream: boolean
	/** The format of the client's own request, when it brought one (Claude's, Gemini's). */
	native?: NativeFormat
	/** Only the client's own format will do (NativeRequest.required). */
	nativeRequired?: boolean
}

/**
 * Whether a channel type can take a call at all, by its capabilities. Same-format pass-through is
 * for chat: the one endpoint the other client formats share with OpenAI's. Routing picks only such channels.
 */
export function servesEndpoint(type: number, endpoint: RelayEndpoint, stream = false, native?: NativeFormat, nativeRequired?: boolean): boolean {
	const can = capabilities(type)
	if (!can) return false
	if (native && endpoint === 'chat' && can.nativeFormats.includes(native)) return true
	if (nativeRequired) return false
	const served = can.endpoints[endpoint]
	return served !== undefined && (!stream || served.stream)
}

/** The adaptor's member that serves the call, when its type can take it (servesEndpoint). */
export function serviceFor(type: number, call: ServiceCall): Service | undefined {
	const entry = entries.get(type)
	if (!entry || !servesEndpoint(type, call.endpoint, call.stream, call.native, call.nativeRequired)) return undefined
	const native = call.native && call.endpoint === 'chat' ? entry.natives[call.native] : undefined
	return native ?? entry.services[call.endpoint]
}

/** Whether a channel type takes a long session of this kind on a WebSocket. */
export function servesSocket(type: number, kind: SocketKind): boolean {
	return capabilities(type)?.sockets.includes(kind) ?? false
}

/** Whether a channel type takes async tasks of the platform (Midjourney Proxy, Suno). */
export function servesTasks(type: number, platform: TaskPlatform): boolean {
	return capabilities(type)?.taskPlatform === platform
}
