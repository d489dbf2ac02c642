import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const palmType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.palm,
	name: 'Google PaLM2',
	defaultBaseUrl: 'https://generativelanguage.googleapis.com',
	defaultModels: ['chat-bison-001'],
	serves: serving({
		endpoints: { chat: { stream: false } },
	}),
}
