import { CHANNEL_TYPE } from '@shared/channel-type'
import { documentTexts } from '../../formats/rerank'
import { bearer, OPENAI_PATHS, openAICompatible } from '../openai-compatible'
import { rerankFromCohere } from '../shared/cohere-rerank'
import type { ProviderAdaptor } from '../types'
import { readSiliconFlowBalance } from './balance'

const base = openAICompatible({
	type: CHANNEL_TYPE.siliconflow,
	name: 'SiliconCloud',
	defaultBaseUrl: 'https://api.siliconflow.cn',
	defaultModels: ['deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'Qwen/Qwen3-8B', 'BAAI/bge-m3', 'BAAI/bge-reranker-v2-m3'],
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
