import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const moonshotType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.moonshot,
	name: 'Moonshot',
	defaultBaseUrl: 'https://api.moonshot.cn',
	defaultModels: ['kimi-latest', 'moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
	serves: serving({
		endpoints: { chat: { stream: true } },
		listsModels: true,
		readsBalance: true,
	}),
}
