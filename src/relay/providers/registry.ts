/** Channel type → adaptor: one line per provider. */
import type { ProviderAdaptor, RelayEndpoint } from './types'
import { anthropic } from './anthropic'
import { aws } from './aws'
import { azure } from './azure'
import { custom } from './custom'
import { openai } from './openai'
import { ollama } from './ollama'
import { ali } from './ali'
import { ai360 } from './ai360'
import { moonshot } from './moonshot'
import { lingyiwanwu } from './lingyiwanwu'
import { minimax } from './minimax'
import { siliconflow } from './siliconflow'
import { mistral } from './mistral'
import { deepseek } from './deepseek'
import { mokaai } from './mokaai'
import { volcengine } from './volcengine'
import { fastgpt } from './fastgpt'
import { cloudflare } from './cloudflare'
import { jina } from './jina'
import { baidu } from './baidu'
import { baiduV2 } from './baidu-v2'
import { zhipu } from './zhipu'
import { zhipuV4 } from './zhipu-v4'
import { tencent } from './tencent'
import { xunfei } from './xunfei'
import { gemini } from './gemini'
import { palm } from './palm'
import { vertex } from './vertex'
import { dify } from './dify'
import { cohere } from './cohere'
import { aiProxyLibrary } from './ai-proxy-library'
// (provider imports: keep one import line per provider, grouped like the list below)

const ADAPTORS: readonly ProviderAdaptor[] = [
	openai,
	azure,
	custom,
	// OpenAI-compatible upstreams
	ollama,
	ali,
	ai360,
	moonshot,
	lingyiwanwu,
	minimax,
	siliconflow,
	mistral,
	deepseek,
	mokaai,
	volcengine,
	fastgpt,
	cloudflare,
	jina,
	dify,
	cohere,
	aiProxyLibrary,
	// Anthropic Claude
	anthropic,
	aws,
	// Google Gemini, PaLM, Vertex
	gemini,
	palm,
	vertex,
	// signed Chinese upstreams (Baidu, Zhipu, Tencent, iFlytek)
	baidu,
	baiduV2,
	zhipu,
	zhipuV4,
	tencent,
	xunfei,
]

const byType = new Map(ADAPTORS.map((adaptor) => [adaptor.type, adaptor]))

export function adaptorFor(type: number): ProviderAdaptor | undefined {
	return byType.get(type)
}

/**
 * Whether a channel type can take a call: the endpoint passes through, converts (streaming only
 * when the converter can stream), or is opened by the adaptor itself. Routing picks only such channels.
 */
export function servesEndpoint(type: number, endpoint: RelayEndpoint, stream = false): boolean {
	const adaptor = byType.get(type)
	if (!adaptor) return false
	if (adaptor.openai?.endpoints.includes(endpoint) || adaptor.selfOpened?.[endpoint]) return true
	const converter = adaptor.converted?.[endpoint]
	return Boolean(converter && (!stream || converter.streamToOpenAI))
}
