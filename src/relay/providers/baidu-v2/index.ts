/**
 * Type 46, Baidu Qianfan V2: OpenAI-compatible under `/v2`, `Authorization: Bearer <API key>`. A
 * key written `APIKey|AppId` also sends the Qianfan application id in the `appid` header.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'
import type { UpstreamChannel } from '../types'

export function qianfanHeaders(channel: UpstreamChannel): Record<string, string> {
	const [apiKey = '', appId] = channel.key.split('|').map((part) => part.trim())
	return { authorization: `Bearer ${apiKey}`, ...(appId ? { appid: appId } : {}) }
}

export const baiduV2 = openAICompatible({
	type: CHANNEL_TYPE.baiduV2,
	name: 'Baidu Qianfan V2',
	defaultBaseUrl: 'https://qianfan.baidubce.com',
	paths: {
		chat: '/v2/chat/completions',
		embeddings: '/v2/embeddings',
	},
	headers: qianfanHeaders,
})
