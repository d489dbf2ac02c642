import { openAICompatible } from '../openai-compatible'
import { readMoonshotBalance } from './balance'
import { identityOf } from '../types'
import { moonshotType } from './capabilities'

export const moonshot = openAICompatible({
	...identityOf(moonshotType),
	endpoints: ['chat'],
	readBalance: readMoonshotBalance,
	// Kimi's thinking models (kimi-k2-thinking, K2.5 and later) refuse a tool-call turn sent back without its reasoning.
	reasoningContent: true,
})
