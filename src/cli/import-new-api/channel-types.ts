/**
 * Channel type numbers of the source and what Ferry makes of them. Ferry numbers its types as
 * new-api does (constant/channel.go), so a new-api type Ferry serves is kept as it is. one-api, the
 * ancestor, numbered its types differently after the first few (relay/channeltype/define.go), so
 * its types are renumbered. A type Ferry has no adaptor for but that speaks OpenAI's API at a known
 * address becomes an OpenAI channel with that base URL; any other is imported disabled.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import { isKnownChannelType } from '@/relay/providers/registry'

export type SourceFlavor = 'new-api' | 'one-api'

export type TypeDecision =
	| { kind: 'kept'; type: number }
	/** Served as an OpenAI channel at `baseUrl` unless the channel names its own. */
	| { kind: 'openai'; name: string; baseUrl: string }
	| { kind: 'unsupported'; name: string }

/** new-api's OpenAI-compatible relays that Ferry has no type of its own for: the address each calls. */
const NEW_API_OPENAI_COMPATIBLE: Record<number, { name: string; baseUrl: string }> = {
	6: { name: 'OpenAIMax', baseUrl: 'https://api.openaimax.com' },
	7: { name: 'OhMyGPT', baseUrl: 'https://api.ohmygpt.com' },
	9: { name: 'AILS', baseUrl: 'https://api.caipacity.com' },
	10: { name: 'AIProxy', baseUrl: 'https://api.aiproxy.io' },
	12: { name: 'API2GPT', baseUrl: 'https://api.api2gpt.com' },
	13: { name: 'AIGC2D', baseUrl: 'https://api.aigc2d.com' },
	20: { name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api' },
	47: { name: 'Xinference', baseUrl: '' },
	48: { name: 'xAI', baseUrl: 'https://api.x.ai' },
}

/** Names of the new-api types Ferry does not serve, for the report. */
const NEW_API_OTHER_NAMES: Record<number, string> = {
	27: 'Perplexity', 49: 'Coze', 51: 'Jimeng', 52: 'Vidu', 53: 'Submodel', 54: 'DoubaoVideo',
	55: 'Sora', 56: 'Replicate', 57: 'Codex', 58: 'KuaiziLizhen',
}

/** one-api type → the Ferry type of the same provider. */
const ONE_API_RENUMBERED: Record<number, number> = {
	3: CHANNEL_TYPE.azure, 11: CHANNEL_TYPE.palm, 14: CHANNEL_TYPE.anthropic, 15: CHANNEL_TYPE.baidu,
	16: CHANNEL_TYPE.zhipu, 17: CHANNEL_TYPE.ali, 18: CHANNEL_TYPE.xunfei, 19: CHANNEL_TYPE.ai360,
	21: CHANNEL_TYPE.aiProxyLibrary, 22: CHANNEL_TYPE.fastgpt, 23: CHANNEL_TYPE.tencent, 24: CHANNEL_TYPE.gemini,
	25: CHANNEL_TYPE.moonshot, 27: CHANNEL_TYPE.minimax, 28: CHANNEL_TYPE.mistral, 30: CHANNEL_TYPE.ollama,
	31: CHANNEL_TYPE.lingyiwanwu, 33: CHANNEL_TYPE.aws, 35: CHANNEL_TYPE.cohere, 36: CHANNEL_TYPE.deepseek,
	37: CHANNEL_TYPE.cloudflare, 40: CHANNEL_TYPE.volcengine, 42: CHANNEL_TYPE.vertex, 44: CHANNEL_TYPE.siliconflow,
	47: CHANNEL_TYPE.baiduV2,
}

/** one-api's OpenAI-compatible types; its type 8 "Custom" appends OpenAI's paths to the base URL too. */
const ONE_API_OPENAI_COMPATIBLE: Record<number, { name: string; baseUrl: string }> = {
	1: { name: 'OpenAI', baseUrl: 'https://api.openai.com' },
	2: { name: 'API2D', baseUrl: 'https://oa.api2d.net' },
	4: { name: 'CloseAI', baseUrl: 'https://api.closeai-proxy.xyz' },
	5: { name: 'OpenAI-SB', baseUrl: 'https://api.openai-sb.com' },
	6: { name: 'OpenAIMax', baseUrl: 'https://api.openaimax.com' },
	7: { name: 'OhMyGPT', baseUrl: 'https://api.ohmygpt.com' },
	8: { name: 'Custom', baseUrl: '' },
	9: { name: 'AILS', baseUrl: 'https://api.caipacity.com' },
	10: { name: 'AIProxy', baseUrl: 'https://api.aiproxy.io' },
	12: { name: 'API2GPT', baseUrl: 'https://api.api2gpt.com' },
	13: { name: 'AIGC2D', baseUrl: 'https://api.aigc2d.com' },
	20: { name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api' },
	26: { name: 'Baichuan', baseUrl: 'https://api.baichuan-ai.com' },
	29: { name: 'Groq', baseUrl: 'https://api.groq.com/openai' },
	32: { name: 'StepFun', baseUrl: 'https://api.stepfun.com' },
	39: { name: 'TogetherAI', baseUrl: 'https://api.together.xyz' },
	45: { name: 'xAI', baseUrl: 'https://api.x.ai' },
	50: { name: 'OpenAICompatible', baseUrl: '' },
}

const ONE_API_OTHER_NAMES: Record<number, string> = {
	34: 'Coze', 38: 'DeepL', 41: 'Novita', 43: 'Proxy', 46: 'Replicate', 48: 'XunfeiV2', 49: 'AliBailian', 51: 'GeminiOpenAICompatible',
}

export function decideType(flavor: SourceFlavor, type: number): TypeDecision {
	if (flavor === 'one-api') {
		// Type 1 is OpenAI in both; an OpenAI channel stays type 1 with its base URL as it was.
		if (type === CHANNEL_TYPE.openai) return { kind: 'kept', type }
		const renumbered = ONE_API_RENUMBERED[type]
		if (renumbered !== undefined) return { kind: 'kept', type: renumbered }
		const compatible = ONE_API_OPENAI_COMPATIBLE[type]
		if (compatible) return { kind: 'openai', ...compatible }
		return { kind: 'unsupported', name: ONE_API_OTHER_NAMES[type] ?? `one-api type ${type}` }
	}
	if (isKnownChannelType(type)) return { kind: 'kept', type }
	const compatible = NEW_API_OPENAI_COMPATIBLE[type]
	if (compatible) return { kind: 'openai', ...compatible }
	return { kind: 'unsupported', name: NEW_API_OTHER_NAMES[type] ?? `new-api type ${type}` }
}
