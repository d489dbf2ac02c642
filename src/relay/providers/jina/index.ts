import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

/** Embeddings in OpenAI's format and rerank in Jina's own, which is the gateway's canonical rerank form. */
export const jina = openAICompatible({
	type: CHANNEL_TYPE.jina,
	name: 'Jina',
	defaultBaseUrl: 'https://api.jina.ai',
	defaultModels: ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'],
	endpoints: ['embeddings', 'rerank'],
})
