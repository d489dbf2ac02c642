import { CHANNEL_TYPE } from '@shared/channel-type'
import { documentTexts } from '../../formats/rerank'
import { bearer, OPENAI_PATHS, openAICompatible } from '../openai-compatible'
import { rerankFromCohere } from '../shared/cohere-rerank'
import type { ProviderAdaptor } from '../types'

const base = openAICompatible({
	type: CHANNEL_TYPE.siliconflow,
	name: 'SiliconCloud',
	defaultBaseUrl: 'https://api.siliconflow.cn',
	endpoints: ['chat', 'embeddings'],
})

/**
 * Rerank takes the canonical request (documents as plain texts, SiliconCloud's own fields such as
 * `instruction` passing through) and answers in Cohere's shape, turned into the canonical one.
 */
export const siliconflow: ProviderAdaptor = {
	...base,
	converted: {
		rerank: {
			buildRequest(channel, body) {
				return {
					url: `${channel.baseUrl}${OPENAI_PATHS.rerank}`,
					headers: { 'content-type': 'application/json', ...bearer(channel) },
					body: JSON.stringify({ ...body, documents: documentTexts(body.documents) }),
				}
			},
			toOpenAI: rerankFromCohere,
		},
	},
}
