/**
 * Channel type → adaptor: one line per provider, and the list of channel types Ferry knows. The
 * list's order is the console's type select (the common providers first), so a new provider's line
 * goes where it should be listed.
 *
 * What a type is and can do is declared in its folder's `capabilities.ts`, apart from the adaptor
 * (test/relay/providers/registry.test.ts checks the two agree), and answered in one place,
 * `capabilities(type)`: routing (`servesEndpoint`, upstream/open.ts `channelCanTake`), the pre-hold
 * check, the channel tools (which endpoint a test calls, whether a balance can be read) and the
 * console's type list (`GET /api/channel/types`) all ask it, so none of them can disagree about a type.
 *
 * The adaptors themselves (converters, signers, stream readers: most of the providers' code) load
 * when first needed (`loadAdaptor`): the routing table loads the types of the channels it routes to
 * before it answers, so a call never waits for one; a channel tool or a task of another type loads
 * its own. Each `import()` names its module literally, so the compiled binary bundles it.
 */
import { isStreamable } from '../formats/openai/requests'
import type { ChannelTypeDescription, Converter, DeclaredCapabilities, NativeFormat, OpenAIPassThrough, ProviderAdaptor, RelayEndpoint, SameFormatPassThrough, SelfOpenedEndpoint, SocketKind, TaskPlatform, VideoAdaptor } from './types'
import { openaiType } from './openai/capabilities'
import { midjourneyType, midjourneyPlusType } from './midjourney/capabilities'
import { sunoType } from './suno/capabilities'
import { ollamaType } from './ollama/capabilities'
import { anthropicType } from './anthropic/capabilities'
import { awsType } from './aws/capabilities'
import { vertexType } from './vertex/capabilities'
import { azureType } from './azure/capabilities'
import { cohereType } from './cohere/capabilities'
import { cloudflareType } from './cloudflare/capabilities'
import { deepseekType } from './deepseek/capabilities'
import { baiduType } from './baidu/capabilities'
import { baiduV2Type } from './baidu-v2/capabilities'
import { aliType } from './ali/capabilities'
import { xunfeiType } from './xunfei/capabilities'
import { zhipuType } from './zhipu/capabilities'
import { zhipuV4Type } from './zhipu-v4/capabilities'
import { geminiType } from './gemini/capabilities'
import { palmType } from './palm/capabilities'
import { volcengineType } from './volcengine/capabilities'
import { moonshotType } from './moonshot/capabilities'
import { ai360Type } from './ai360/capabilities'
import { tencentType } from './tencent/capabilities'
import { lingyiwanwuType } from './lingyiwanwu/capabilities'
import { minimaxType } from './minimax/capabilities'
import { difyType } from './dify/capabilities'
import { jinaType } from './jina/capabilities'
import { siliconflowType } from './siliconflow/capabilities'
import { mistralType } from './mistral/capabilities'
import { customType } from './custom/capabilities'
import { fastgptType } from './fastgpt/capabilities'
import { aiProxyLibraryType } from './ai-proxy-library/capabilities'
import { mokaaiType } from './mokaai/capabilities'
import { klingType } from './kling/capabilities'
// (provider imports: keep one import line per provider folder, in the order of the list below)

interface ProviderEntry {
	description: ChannelTypeDescription
	load: () => Promise<ProviderAdaptor>
}

const provider = (description: ChannelTypeDescription, load: () => Promise<ProviderAdaptor>): ProviderEntry => ({ description, load })

const PROVIDERS: readonly ProviderEntry[] = [
	provider(openaiType, () => import('./openai').then((module) => module.openai)),
	provider(midjourneyType, () => import('./midjourney').then((module) => module.midjourney)),
	provider(midjourneyPlusType, () => import('./midjourney').then((module) => module.midjourneyPlus)),
	provider(sunoType, () => import('./suno').then((module) => module.suno)),
	provider(ollamaType, () => import('./ollama').then((module) => module.ollama)),
	provider(anthropicType, () => import('./anthropic').then((module) => module.anthropic)),
	provider(awsType, () => import('./aws').then((module) => module.aws)),
	provider(vertexType, () => import('./vertex').then((module) => module.vertex)),
	provider(azureType, () => import('./azure').then((module) => module.azure)),
	provider(cohereType, () => import('./cohere').then((module) => module.cohere)),
	provider(cloudflareType, () => import('./cloudflare').then((module) => module.cloudflare)),
	provider(deepseekType, () => import('./deepseek').then((module) => module.deepseek)),
	provider(baiduType, () => import('./baidu').then((module) => module.baidu)),
	provider(baiduV2Type, () => import('./baidu-v2').then((module) => module.baiduV2)),
	provider(aliType, () => import('./ali').then((module) => module.ali)),
	provider(xunfeiType, () => import('./xunfei').then((module) => module.xunfei)),
	provider(zhipuType, () => import('./zhipu').then((module) => module.zhipu)),
	provider(zhipuV4Type, () => import('./zhipu-v4').then((module) => module.zhipuV4)),
	provider(geminiType, () => import('./gemini').then((module) => module.gemini)),
	provider(palmType, () => import('./palm').then((module) => module.palm)),
	provider(volcengineType, () => import('./volcengine').then((module) => module.volcengine)),
	provider(moonshotType, () => import('./moonshot').then((module) => module.moonshot)),
	provider(ai360Type, () => import('./ai360').then((module) => module.ai360)),
	provider(tencentType, () => import('./tencent').then((module) => module.tencent)),
	provider(lingyiwanwuType, () => import('./lingyiwanwu').then((module) => module.lingyiwanwu)),
	provider(minimaxType, () => import('./minimax').then((module) => module.minimax)),
	provider(difyType, () => import('./dify').then((module) => module.dify)),
	provider(jinaType, () => import('./jina').then((module) => module.jina)),
	provider(siliconflowType, () => import('./siliconflow').then((module) => module.siliconflow)),
	provider(mistralType, () => import('./mistral').then((module) => module.mistral)),
	provider(customType, () => import('./custom').then((module) => module.custom)),
	provider(fastgptType, () => import('./fastgpt').then((module) => module.fastgpt)),
	provider(aiProxyLibraryType, () => import('./ai-proxy-library').then((module) => module.aiProxyLibrary)),
	provider(mokaaiType, () => import('./mokaai').then((module) => module.mokaai)),
	provider(klingType, () => import('./kling').then((module) => module.kling)),
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

/** What a channel type can do: its declaration (capabilities.ts), with the endpoint a channel test calls. */
export interface ChannelCapabilities extends DeclaredCapabilities {
	/** The endpoint a channel test calls: chat when the type serves it, else embeddings; undefined when it serves neither. */
	testEndpoint: 'chat' | 'embeddings' | undefined
}

/** A loaded adaptor, and its member serving each endpoint and each native format. */
interface LoadedEntry {
	adaptor: ProviderAdaptor
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

function loadedEntryOf(adaptor: ProviderAdaptor): LoadedEntry {
	const natives: Partial<Record<NativeFormat, Service>> = {}
	for (const [format, passThrough] of Object.entries(adaptor.sameFormat ?? {}) as [NativeFormat, SameFormatPassThrough][]) natives[format] = { via: 'native', format, passThrough }
	return { adaptor, services: servicesOf(adaptor), natives }
}

/**
 * What an adaptor implements, in the terms its type declares (capabilities.ts): the declaration must
 * equal this (the registry's test checks every type).
 */
export function implementedCapabilities(adaptor: ProviderAdaptor): DeclaredCapabilities {
	const endpoints: Partial<Record<RelayEndpoint, { stream: boolean }>> = {}
	for (const [endpoint, service] of Object.entries(servicesOf(adaptor)) as [RelayEndpoint, Service][]) {
		endpoints[endpoint] = { stream: isStreamable(endpoint) && (service.via !== 'converter' || service.converter.streamToOpenAI !== undefined) }
	}
	return {
		endpoints,
		nativeFormats: Object.keys(adaptor.sameFormat ?? {}) as NativeFormat[],
		...(adaptor.tasks ? { taskPlatform: adaptor.tasks.platform } : {}),
		listsModels: adaptor.modelList !== undefined,
		readsBalance: adaptor.readBalance !== undefined,
		sockets: Object.keys(adaptor.sockets ?? {}) as SocketKind[],
	}
}

const capabilitiesOf = ({ serves }: ChannelTypeDescription): ChannelCapabilities => ({
	...serves,
	testEndpoint: TEST_ENDPOINTS.find((endpoint) => serves.endpoints[endpoint] !== undefined),
})

const byType = new Map(PROVIDERS.map((entry) => [entry.description.type, entry]))
const declared = new Map(PROVIDERS.map((entry) => [entry.description.type, capabilitiesOf(entry.description)]))
const loaded = new Map<number, LoadedEntry>()
const loading = new Map<number, Promise<LoadedEntry>>()

/**
 * The type's adaptor, once loaded (loadAdaptor); undefined for a type Ferry does not know or whose
 * adaptor has not been loaded yet. The relay's call path finds the adaptors of routed channels loaded.
 */
export function adaptorFor(type: number): ProviderAdaptor | undefined {
	return loaded.get(type)?.adaptor
}

/** Loads the type's adaptor (once; later calls answer the same one); undefined for a type Ferry does not know. */
export async function loadAdaptor(type: number): Promise<ProviderAdaptor | undefined> {
	const done = loaded.get(type)
	if (done) return done.adaptor
	const entry = byType.get(type)
	if (!entry) return undefined
	let pending = loading.get(type)
	if (!pending) {
		pending = entry.load().then((adaptor) => {
			const loadedEntry = loadedEntryOf(adaptor)
			loaded.set(type, loadedEntry)
			return loadedEntry
		})
		pending.finally(() => loading.delete(type)).catch(() => {})
		loading.set(type, pending)
	}
	return (await pending).adaptor
}

/** Loads the adaptors of these types (the routing table's channels) before they are needed. */
export async function loadAdaptors(types: Iterable<number>): Promise<void> {
	await Promise.all([...new Set(types)].filter((type) => !loaded.has(type)).map(loadAdaptor))
}

/** Every channel type Ferry knows, in the console's order. */
export function channelTypeDescriptions(): readonly ChannelTypeDescription[] {
	return PROVIDERS.map((entry) => entry.description)
}

export const isKnownChannelType = (type: number) => byType.has(type)

/** The type's display name, for messages; `type N` for a type Ferry does not know. */
export const channelTypeName = (type: number) => byType.get(type)?.description.name ?? `type ${type}`

/** The base URL a channel of the type uses when it names none ('' for an unknown type). */
export const defaultBaseUrlOf = (type: number) => byType.get(type)?.description.defaultBaseUrl ?? ''

/** What a channel type can do; undefined for a type Ferry does not know. */
export function capabilities(type: number): ChannelCapabilities | undefined {
	return declared.get(type)
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

/** The adaptor's member that serves the call, when its type can take it (servesEndpoint) and its adaptor is loaded (loadAdaptor). */
export function serviceFor(type: number, call: ServiceCall): Service | undefined {
	const entry = loaded.get(type)
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
