import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const aiProxyLibraryType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.aiProxyLibrary,
	name: 'AI Proxy Library',
	defaultBaseUrl: 'https://api.aiproxy.io',
	defaultModels: ['gpt-4o-mini'],
	serves: serving({
		endpoints: { chat: { stream: true } },
	}),
}
