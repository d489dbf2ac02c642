import { documentTexts } from '../../formats/rerank'
import { bearer, OPENAI_PATHS, openAICompatible } from '../openai-compatible'
import { rerankFromCohere } from '../shared/cohere-rerank'
import { identityOf, type ProviderAdaptor } from '../types'
import { siliconflowType } from './capabilities'
import { readSiliconFlowBalance } from './balance'

const base = openAICompatible({
	...identityOf(siliconflowType),
	endpoints: ['chat', 'embeddings'],
	readBalance: readSiliconFlowBalance,
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
