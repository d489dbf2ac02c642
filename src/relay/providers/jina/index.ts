import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { jinaType } from './capabilities'

/** Embeddings in OpenAI's format and rerank in Jina's own, which is the gateway's canonical rerank form. */
export const jina = openAICompatible({
	...identityOf(jinaType),
	endpoints: ['embeddings', 'rerank'],
})
