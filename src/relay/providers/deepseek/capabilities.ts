import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const deepseekType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.deepseek,
	name: 'DeepSeek',
	defaultBaseUrl: 'https://api.deepseek.com',
	defaultModels: ['deepseek-chat', 'deepseek-reasoner'],
	serves: {
		endpoints: { chat: { stream: true } },
		nativeFormats: [],
		listsModels: true,
		readsBalance: true,
		sockets: [],
	},
}
