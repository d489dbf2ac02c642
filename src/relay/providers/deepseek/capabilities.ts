import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const deepseekType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.deepseek,
	name: 'DeepSeek',
	defaultBaseUrl: 'https://api.deepseek.com',
	defaultModels: ['deepseek-chat', 'deepseek-reasoner'],
	serves: serving({
		endpoints: { chat: { stream: true } },
		listsModels: true,
		readsBalance: true,
	}),
}
