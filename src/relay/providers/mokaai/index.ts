import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

/** A self-hosted M3E embedding server: the base URL is the deployment's address. */
export const mokaai = openAICompatible({
	type: CHANNEL_TYPE.mokaai,
	name: 'MokaAI M3E',
	defaultBaseUrl: '',
	defaultModels: ['m3e-base', 'm3e-small', 'm3e-large'],
	endpoints: ['embeddings'],
})
