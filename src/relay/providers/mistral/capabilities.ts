import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const mistralType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.mistral,
	name: 'Mistral',
	defaultBaseUrl: 'https://api.mistral.ai',
	defaultModels: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest', 'mistral-embed'],
	serves: {
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		nativeFormats: [],
		listsModels: true,
		readsBalance: false,
		sockets: [],
	},
}
