/**
 * Type 46, Baidu Qianfan V2: OpenAI-compatible under `/v2`, `Authorization: Bearer <API key>`. A
 * key written `APIKey|AppId` also sends the Qianfan application id in the `appid` header.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'
import type { UpstreamChannel } from '../types'

function qianfanHeaders(channel: UpstreamChannel): Record<string, string> {
	const [apiKey = '', appId] = channel.key.split('|').map((part) => part.trim())
	return { authorization: `Bearer ${apiKey}`, ...(appId ? { appid: appId } : {}) }
}

export const baiduV2 = openAICompatible({
	type: CHANNEL_TYPE.baiduV2,
	name: 'Baidu Wenxin V2',
	defaultBaseUrl: 'https://qianfan.baidubce.com',
	defaultModels: ['ernie-4.5-turbo-128k', 'ernie-4.0-turbo-8k', 'ernie-3.5-8k', 'ernie-speed-128k', 'embedding-v1'],
	paths: {
		chat: '/v2/chat/completions',
		embeddings: '/v2/embeddings',
	},
	headers: qianfanHeaders,
})
