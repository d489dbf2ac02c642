import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { volcengineType } from './capabilities'

/** Ark's API lives under `/api/v3`, not `/v1`. */
export const volcengine = openAICompatible({
	...identityOf(volcengineType),
	paths: {
		chat: '/api/v3/chat/completions',
		embeddings: '/api/v3/embeddings',
	},
})
