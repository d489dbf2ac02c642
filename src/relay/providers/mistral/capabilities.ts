import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const mistralType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.mistral,
	name: 'Mistral',
	defaultBaseUrl: 'https://api.mistral.ai',
	defaultModels: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest', 'mistral-embed'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
