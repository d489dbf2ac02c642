import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { lingyiwanwuType } from './capabilities'

export const lingyiwanwu = openAICompatible({
	...identityOf(lingyiwanwuType),
	endpoints: ['chat'],
})
