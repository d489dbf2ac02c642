import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { minimaxType } from './capabilities'

export const minimax = openAICompatible({
	...identityOf(minimaxType),
	endpoints: ['chat'],
})
