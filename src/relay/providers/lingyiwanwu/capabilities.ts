import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const lingyiwanwuType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.lingyiwanwu,
	name: '01.AI',
	defaultBaseUrl: 'https://api.lingyiwanwu.com',
	defaultModels: ['yi-lightning', 'yi-large', 'yi-medium'],
	serves: serving({
		endpoints: { chat: { stream: true } },
		listsModels: true,
	}),
}
