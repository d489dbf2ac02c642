import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const lingyiwanwuType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.lingyiwanwu,
	name: '01.AI',
	defaultBaseUrl: 'https://api.lingyiwanwu.com',
	defaultModels: ['yi-lightning', 'yi-large', 'yi-medium'],
	serves: {
		endpoints: { chat: { stream: true } },
		nativeFormats: [],
		listsModels: true,
		readsBalance: false,
		sockets: [],
	},
}
