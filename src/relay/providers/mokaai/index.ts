import { openAICompatible } from '../openai-compatible'
import { identityOf } from '../types'
import { mokaaiType } from './capabilities'

/** A self-hosted M3E embedding server: the base URL is the deployment's address. */
export const mokaai = openAICompatible({
	...identityOf(mokaaiType),
	endpoints: ['embeddings'],
})
