/**
 * Channel type → adaptor: one line per provider, and the list of channel types Ferry knows. The
 * list's order is the console's type select (seed 001 §3: the common providers first), so a new
 * provider's line goes where it should be listed.
 */
import type { Converter, NativeFormat, OpenAIPassThrough, ProviderAdaptor, RelayEndpoint, SameFormatPassThrough, SelfOpenedEndpoint, TaskPlatform } from './types'
import { openai } from './openai'
import { midjourney, midjourneyPlus } from './midjourney'
import { suno } from './suno'
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
]

const byType = new Map(ADAPTORS.map((adaptor) => [adaptor.type, adaptor]))

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

/**
 * How a channel type serves one call (design §5, routing by capability): in the client's own format
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

export interface ServiceCall {
	endpoint: RelayEndpoint
	stream: boolean
	/** The format of the client's own request, when it brought one (Claude's, Gemini's). */
	native?: NativeFormat
	/** Only the client's own format will do (NativeRequest.required). */
	nativeRequired?: boolean
}

export function serviceFor(type: number, call: ServiceCall): Service | undefined {
	const adaptor = byType.get(type)
	if (!adaptor) return undefined
	// Same-format pass-through is for chat: the one endpoint the other client formats share with OpenAI's.
	const native = call.native && call.endpoint === 'chat' ? adaptor.sameFormat?.[call.native] : undefined
	if (native) return { via: 'native', format: call.native!, passThrough: native }
	if (call.nativeRequired) return undefined
	if (adaptor.openai?.endpoints.includes(call.endpoint)) return { via: 'openai', passThrough: adaptor.openai }
	const opener = adaptor.selfOpened?.[call.endpoint]
	if (opener) return { via: 'self-opened', opener }
	const converter = adaptor.converted?.[call.endpoint]
	if (converter && (!call.stream || converter.streamToOpenAI)) return { via: 'converter', converter }
	return undefined
}

/** Whether a channel type can take a call at all. Routing picks only such channels. */
export const servesEndpoint = (type: number, endpoint: RelayEndpoint, stream = false, native?: NativeFormat, nativeRequired?: boolean) =>
	serviceFor(type, { endpoint, stream, native, nativeRequired }) !== undefined

/** Whether a channel type takes async tasks of the platform (Midjourney Proxy, Suno). */
export function servesTasks(type: number, platform: TaskPlatform): boolean {
	return byType.get(type)?.tasks?.platform === platform
}
