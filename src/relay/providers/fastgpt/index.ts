import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { fastgptType } from './capabilities'

/** A private FastGPT deployment: the base URL is its address, the app answers at `/api/v1/chat/completions`. */
export const fastgpt = openAICompatible({
	...identityOf(fastgptType),
	endpoints: ['chat'],
	url: (channel) => `${channel.baseUrl}/api/v1/chat/completions`,
})
