/**
 * Type 16, Zhipu ChatGLM through the legacy v3 `model-api`: `/{model}/invoke` answers whole,
 * `/{model}/sse-invoke` streams; auth is a JWT made from the key `id.secret`.
 */
import { identityOf, type ProviderAdaptor } from '../types'
import { zhipuType } from './capabilities'
import { toOpenAIAnswer, zhipuErrorOf } from './answer'
import { zhipuToken } from './jwt'
import { zhipuV3Request } from './request'
import { zhipuStreamToOpenAI } from './stream'

const MODEL_API_PATH = '/api/paas/v3/model-api'

export const zhipu: ProviderAdaptor = {
	...identityOf(zhipuType),
	converted: {
		chat: {
			async buildRequest(channel, body, context) {
				const method = body.stream === true ? 'sse-invoke' : 'invoke'
				return {
					url: `${channel.baseUrl}${MODEL_API_PATH}/${encodeURIComponent(String(body.model))}/${method}`,
					// v3 takes the bare token, without a `Bearer` prefix.
					headers: { 'content-type': 'application/json', authorization: await zhipuToken(channel.key, context.now()) },
					body: JSON.stringify(zhipuV3Request(body)),
				}
			},
			toOpenAI: toOpenAIAnswer,
			errorOf: zhipuErrorOf,
			streamToOpenAI: zhipuStreamToOpenAI,
		},
	},
}
