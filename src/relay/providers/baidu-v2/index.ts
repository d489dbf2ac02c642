/**
 * Type 46, Baidu Qianfan V2: OpenAI-compatible under `/v2`, `Authorization: Bearer <API key>`. A
 * key written `APIKey|AppId` also sends the Qianfan application id in the `appid` header.
 */
import { openAICompatible } from '../openai-compatible'
import { identityOf, type UpstreamChannel } from '../types'
import { baiduV2Type } from './capabilities'

function qianfanHeaders(channel: UpstreamChannel): Record<string, string> {
	const [apiKey = '', appId] = channel.key.split('|').map((part) => part.trim())
	return { authorization: `Bearer ${apiKey}`, ...(appId ? { appid: appId } : {}) }
}

export const baiduV2 = openAICompatible({
	...identityOf(baiduV2Type),
	paths: {
		chat: '/v2/chat/completions',
		embeddings: '/v2/embeddings',
	},
	headers: qianfanHeaders,
})
