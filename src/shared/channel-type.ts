/**
 * Channel types by number (docs/specification/channels.md#types), for code that names a type, and the defaults the editor
 * and server apply. Which types exist, their display names, key formats and default models are the
 * provider adaptors' (`src/relay/providers`); the console reads them from `GET /api/channel/types`
 * and `GET /api/models`.
 */
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
	kling: 50,
} as const

export type ChannelType = (typeof CHANNEL_TYPE)[keyof typeof CHANNEL_TYPE]

/** Saved in `other` when left empty (docs/specification/channels.md#types). */
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
