/**
 * Type 26, Zhipu GLM v4: OpenAI-compatible under `/api/paas/v4`, authorised with the same JWT as
 * v3 as a Bearer token, signed for each request with the wall clock.
 */
import { identityOf, type ProviderAdaptor } from '../types'
import { zhipuV4Type } from './capabilities'
import { bearer, openAICompatible } from '../openai-compatible'
import { openAIModelNames } from '../openai-compatible/model-list'
import { zhipuToken } from '../zhipu/jwt'

const compatible = openAICompatible({
	...identityOf(zhipuV4Type),
	paths: {
		chat: '/api/paas/v4/chat/completions',
		embeddings: '/api/paas/v4/embeddings',
	},
	// GLM's interleaved thinking takes a tool-call turn's reasoning back with the tool results.
	reasoningContent: true,
	// The key is no bearer token: the JWT made from it is added by signedHeaders below.
	headers: () => ({}),
	// The list takes the raw key as its bearer token.
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl.replace(/\/api\/paas\/v4$/, '')}/api/paas/v4/models`, headers: bearer(channel) }),
		names: openAIModelNames,
	},
})

export const zhipuV4: ProviderAdaptor = {
	...compatible,
	openai: {
		...compatible.openai!,
		signedHeaders: async (channel, now) => ({ authorization: `Bearer ${await zhipuToken(channel.key, now)}` }),
	},
}
