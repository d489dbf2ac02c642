/**
 * The editor's own per-type knowledge (docs/specification/channels.md#the-editor): the fields some types show and the JSON
 * templates. Type names, key formats and preset models are the server's (`GET /api/channel/types`,
 * `GET /api/models`), from the provider adaptors.
 */
import { CHANNEL_TYPE, type ChannelType } from '@shared/channel-type'

export const DEFAULT_NEW_CHANNEL_TYPE: ChannelType = CHANNEL_TYPE.openai

/** Types whose base URL field means something else, with the label and placeholder it gets. */
export const BASE_URL_FIELDS: Partial<Record<ChannelType, { label: string; placeholder: string }>> = {
	[CHANNEL_TYPE.azure]: { label: 'AZURE_OPENAI_ENDPOINT', placeholder: '请输入 AZURE_OPENAI_ENDPOINT，例如：https://docs-test-001.openai.azure.com' },
	[CHANNEL_TYPE.custom]: { label: '完整的 Base URL', placeholder: '请输入完整的 URL，支持变量 {model}，例如：https://api.example.com/v1/{model}/chat/completions' },
	[CHANNEL_TYPE.fastgpt]: { label: '私有部署地址', placeholder: '请输入私有部署地址，例如：https://fastgpt.example.com/api/openapi' },
	[CHANNEL_TYPE.suno]: { label: 'Base Path', placeholder: '请输入 Suno 接口的基础路径，例如：https://suno.example.com' },
}

/** Templates the JSON fields can be filled with (docs/specification/channels.md#types). */
export const MODEL_MAPPING_TEMPLATE = JSON.stringify({ 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' }, null, 2)
/**
 * Every key the relay applies (src/shared/channel-setting.ts), each as it is when off; but
 * `first_token_timeout_seconds`, whose absence means the server's value (0 would turn it off).
 */
export const SETTING_TEMPLATE = JSON.stringify({
	system_prompt: '', system_prompt_override: false, force_format: false, thinking_to_content: false, pass_through_body_enabled: false,
}, null, 2)
export const MODEL_COST_TEMPLATE = JSON.stringify({ 'gpt-4o': { input: 2.5, output: 10, cache_read: 1.25 }, 'dall-e-3': { per_call: 0.04 } }, null, 2)
export const STATUS_CODE_MAPPING_TEMPLATE = JSON.stringify({ 400: '500' }, null, 2)
/** A Vertex region map: `default` for models not listed. */
export const VERTEX_REGION_MAP_TEMPLATE = JSON.stringify({ default: 'us-central1', 'claude-3-5-sonnet-20240620': 'europe-west1' }, null, 2)

export const SILICONCLOUD_SIGN_UP_URL = 'https://cloud.siliconflow.cn/'
