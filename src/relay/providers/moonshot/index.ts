import { openAICompatible } from '../openai-compatible'
import { readMoonshotBalance } from './balance'
import { identityOf } from '../types'
import { moonshotType } from './capabilities'

export const moonshot = openAICompatible({
	...identityOf(moonshotType),
	endpoints: ['chat'],
	readBalance: readMoonshotBalance,
})
