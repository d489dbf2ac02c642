/** Channel types by number (seed 001 §3) and the defaults the editor and server apply. */
export const CHANNEL_TYPE = {
	openai: 1,
	midjourney: 2,
	azure: 3,
	ollama: 4,
	midjourneyPlus: 5,
	custom: 8,
	palm: 11,
	anthropic: 14,
	baidu: 15,
	zhipu: 16,
	ali: 17,
	xunfei: 18,
	ai360: 19,
	aiProxyLibrary: 21,
	fastgpt: 22,
	tencent: 23,
	gemini: 24,
	moonshot: 25,
	zhipuV4: 26,
	lingyiwanwu: 31,
	aws: 33,
	cohere: 34,
	minimax: 35,
	suno: 36,
	dify: 37,
	jina: 38,
	cloudflare: 39,
	siliconflow: 40,
	vertex: 41,
	mistral: 42,
	deepseek: 43,
	mokaai: 44,
	volcengine: 45,
	baiduV2: 46,
} as const

export type ChannelType = (typeof CHANNEL_TYPE)[keyof typeof CHANNEL_TYPE]

export const CHANNEL_TYPE_NAMES: Record<ChannelType, string> = {
	1: 'OpenAI', 2: 'Midjourney Proxy', 3: 'Azure OpenAI', 4: 'Ollama', 5: 'Midjourney Proxy Plus', 8: 'Custom',
	11: 'Google PaLM2', 14: 'Anthropic Claude', 15: 'Baidu Wenxin', 16: 'Zhipu ChatGLM', 17: 'Alibaba Qwen',
	18: 'iFlytek Spark', 19: '360 Brain', 21: 'AI Proxy Library', 22: 'FastGPT', 23: 'Tencent Hunyuan', 24: 'Google Gemini',
	25: 'Moonshot', 26: 'Zhipu GLM-4V', 31: '01.AI', 33: 'AWS Claude', 34: 'Cohere', 35: 'MiniMax', 36: 'Suno', 37: 'Dify',
	38: 'Jina', 39: 'Cloudflare', 40: 'SiliconCloud', 41: 'Vertex AI', 42: 'Mistral', 43: 'DeepSeek', 44: 'MokaAI M3E',
	45: 'Volcengine', 46: 'Baidu Wenxin V2',
}

export function isChannelType(value: number): value is ChannelType {
	return Object.hasOwn(CHANNEL_TYPE_NAMES, value)
}

/** Saved in `other` when left empty (seed 001 §4). */
export const DEFAULT_AZURE_API_VERSION = '2023-06-01-preview'
export const DEFAULT_XUNFEI_VERSION = 'v2.1'
export const DEFAULT_VERTEX_REGION = 'us-central1'

export const CHANNEL_STATUS = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const

/** What an empty `other` becomes when a channel of the type is saved. */
export const DEFAULT_CHANNEL_OTHER: Partial<Record<ChannelType, string>> = {
	[CHANNEL_TYPE.azure]: DEFAULT_AZURE_API_VERSION,
	[CHANNEL_TYPE.xunfei]: DEFAULT_XUNFEI_VERSION,
	[CHANNEL_TYPE.vertex]: DEFAULT_VERTEX_REGION,
}
