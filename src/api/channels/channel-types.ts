/**
 * The channel types Ferry knows are its provider adaptors' (`src/relay/providers/registry.ts`):
 * `GET /api/channel/types` hands the console their names, key formats and capabilities (the same
 * `capabilities(type)` routing and the channel tools ask), and channels are saved only with one of them.
 * Names are the adaptors' (English); a zh reader gets the Chinese name of every type whose maker
 * has one, and the brand as it is written elsewhere (OpenAI, Suno, Dify).
 */
import { CHANNEL_MESSAGES, type ChannelCapabilities, type ChannelTypeInfo } from '@shared/channel'
import { CHANNEL_TYPE, type ChannelType } from '@shared/channel-type'
import type { Language } from '@shared/messages/define'
import { capabilities, channelTypeDescriptions, isKnownChannelType } from '@/relay/providers/registry'
import { badRequest } from '../errors'
/** Types whose zh name differs from the adaptor's; every other type keeps its brand name. */
const CHINESE_NAMES: Partial<Record<ChannelType, string>> = {
	[CHANNEL_TYPE.azure]: '微软 Azure OpenAI',
	[CHANNEL_TYPE.ollama]: 'Ollama（本地模型）',
	[CHANNEL_TYPE.custom]: '自定义渠道（OpenAI 兼容）',
	[CHANNEL_TYPE.palm]: '谷歌 PaLM2',
	[CHANNEL_TYPE.baidu]: '百度文心千帆',
	[CHANNEL_TYPE.baiduV2]: '百度文心千帆 V2',
	[CHANNEL_TYPE.zhipu]: '智谱 ChatGLM',
	[CHANNEL_TYPE.zhipuV4]: '智谱 GLM-4V',
	[CHANNEL_TYPE.ali]: '阿里通义千问',
	[CHANNEL_TYPE.xunfei]: '讯飞星火认知',
	[CHANNEL_TYPE.ai360]: '360 智脑',
	[CHANNEL_TYPE.aiProxyLibrary]: 'AI Proxy 知识库',
	[CHANNEL_TYPE.tencent]: '腾讯混元',
	[CHANNEL_TYPE.gemini]: '谷歌 Gemini',
	[CHANNEL_TYPE.moonshot]: '月之暗面 Moonshot',
	[CHANNEL_TYPE.lingyiwanwu]: '零一万物',
	[CHANNEL_TYPE.aws]: '亚马逊 AWS Claude',
	[CHANNEL_TYPE.minimax]: 'MiniMax 稀宇科技',
	[CHANNEL_TYPE.siliconflow]: '硅基流动 SiliconCloud',
	[CHANNEL_TYPE.vertex]: '谷歌 Vertex AI',
	[CHANNEL_TYPE.deepseek]: '深度求索 DeepSeek',
	[CHANNEL_TYPE.mokaai]: 'MokaAI M3E 向量模型',
	[CHANNEL_TYPE.volcengine]: '字节跳动火山引擎',
	[CHANNEL_TYPE.kling]: '可灵 Kling',
}

function capabilitiesOf(type: number): ChannelCapabilities {
	const can = capabilities(type)!
	return {
		endpoints: { ...can.endpoints },
		native_formats: [...can.nativeFormats],
		task_platform: can.taskPlatform ?? null,
		model_list: can.listsModels,
		balance: can.readsBalance,
		test_endpoint: can.testEndpoint ?? null,
	}
}

export function channelTypes(language: Language = 'en'): ChannelTypeInfo[] {
	return channelTypeDescriptions().map((description) => ({
		type: description.type,
		name: (language === 'zh' ? CHINESE_NAMES[description.type as ChannelType] : undefined) ?? description.name,
		key_format: description.keyFormat ?? '',
		capabilities: capabilitiesOf(description.type),
	}))
}

/** Refuses a type no adaptor declares, as the schema refuses the other bad fields (400); absent passes. */
export function requireKnownType(type: number | null | undefined) {
	if (type !== undefined && type !== null && !isKnownChannelType(type)) throw badRequest(CHANNEL_MESSAGES.typeUnknown)
}
