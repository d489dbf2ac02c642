/** The editor's per-type knowledge (seed 001 §2–§4, §9): order, hints, preset models and JSON templates. */
import { CHANNEL_TYPE, type ChannelType } from '@shared/channel-type'

/** The type select lists the types in the seed's order (001 §3), the common providers first. */
export const CHANNEL_TYPE_ORDER: readonly ChannelType[] = [
	CHANNEL_TYPE.openai, CHANNEL_TYPE.midjourney, CHANNEL_TYPE.midjourneyPlus, CHANNEL_TYPE.suno, CHANNEL_TYPE.ollama,
	CHANNEL_TYPE.anthropic, CHANNEL_TYPE.aws, CHANNEL_TYPE.vertex, CHANNEL_TYPE.azure, CHANNEL_TYPE.cohere,
	CHANNEL_TYPE.cloudflare, CHANNEL_TYPE.deepseek, CHANNEL_TYPE.baidu, CHANNEL_TYPE.baiduV2, CHANNEL_TYPE.ali,
	CHANNEL_TYPE.xunfei, CHANNEL_TYPE.zhipu, CHANNEL_TYPE.zhipuV4, CHANNEL_TYPE.gemini, CHANNEL_TYPE.palm,
	CHANNEL_TYPE.volcengine, CHANNEL_TYPE.moonshot, CHANNEL_TYPE.ai360, CHANNEL_TYPE.tencent, CHANNEL_TYPE.lingyiwanwu,
	CHANNEL_TYPE.minimax, CHANNEL_TYPE.dify, CHANNEL_TYPE.jina, CHANNEL_TYPE.siliconflow, CHANNEL_TYPE.mistral,
	CHANNEL_TYPE.custom, CHANNEL_TYPE.fastgpt, CHANNEL_TYPE.aiProxyLibrary, CHANNEL_TYPE.mokaai,
]

export const DEFAULT_NEW_CHANNEL_TYPE: ChannelType = CHANNEL_TYPE.openai

/** How the key of these types is composed; the others take one API key. */
export const KEY_FORMAT_HINTS: Partial<Record<ChannelType, string>> = {
	[CHANNEL_TYPE.baidu]: 'APIKey|SecretKey',
	[CHANNEL_TYPE.xunfei]: 'APPID|APISecret|APIKey',
	[CHANNEL_TYPE.fastgpt]: 'APIKey-AppId',
	[CHANNEL_TYPE.tencent]: 'AppId|SecretId|SecretKey',
	[CHANNEL_TYPE.aws]: 'Ak|Sk|Region',
}

/** Midjourney Proxy (Plus) channels serve drawing actions, named as models. */
export const MIDJOURNEY_ACTION_MODELS = [
	'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_uploads',
	'mj_zoom', 'mj_custom_zoom', 'mj_shorten', 'mj_modal', 'mj_inpaint', 'mj_pan',
	'mj_high_variation', 'mj_low_variation', 'swap_face',
]

export const SUNO_MODELS = ['suno_music', 'suno_lyrics']

/** Types whose models are fixed action names rather than the per-type list of `GET /api/models`. */
export const FIXED_TYPE_MODELS: Partial<Record<ChannelType, readonly string[]>> = {
	[CHANNEL_TYPE.midjourney]: MIDJOURNEY_ACTION_MODELS,
	[CHANNEL_TYPE.midjourneyPlus]: MIDJOURNEY_ACTION_MODELS,
	[CHANNEL_TYPE.suno]: SUNO_MODELS,
}

/** Types whose base URL field means something else, with the label and placeholder it gets. */
export const BASE_URL_FIELDS: Partial<Record<ChannelType, { label: string; placeholder: string }>> = {
	[CHANNEL_TYPE.azure]: { label: 'AZURE_OPENAI_ENDPOINT', placeholder: '请输入 AZURE_OPENAI_ENDPOINT，例如：https://docs-test-001.openai.azure.com' },
	[CHANNEL_TYPE.custom]: { label: '完整的 Base URL', placeholder: '请输入完整的 URL，支持变量 {model}，例如：https://api.example.com/v1/{model}/chat/completions' },
	[CHANNEL_TYPE.fastgpt]: { label: '私有部署地址', placeholder: '请输入私有部署地址，例如：https://fastgpt.example.com/api/openapi' },
	[CHANNEL_TYPE.suno]: { label: 'Base Path', placeholder: '请输入 Suno 接口的基础路径，例如：https://suno.example.com' },
}

/** Templates the JSON fields can be filled with (seed 001 §9). */
export const MODEL_MAPPING_TEMPLATE = JSON.stringify({ 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' }, null, 2)
export const SETTING_TEMPLATE = JSON.stringify({ force_format: true }, null, 2)
export const STATUS_CODE_MAPPING_TEMPLATE = JSON.stringify({ 400: '500' }, null, 2)
/** A Vertex region map: `default` for models not listed. */
export const VERTEX_REGION_MAP_TEMPLATE = JSON.stringify({ default: 'us-central1', 'claude-3-5-sonnet-20240620': 'europe-west1' }, null, 2)

export const SILICONCLOUD_SIGN_UP_URL = 'https://cloud.siliconflow.cn/'
