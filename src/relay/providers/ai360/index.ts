import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { ai360Type } from './capabilities'

export const ai360 = openAICompatible({
	...identityOf(ai360Type),
	endpoints: ['chat', 'embeddings'],
})
