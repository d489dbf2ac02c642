import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const fastgptType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.fastgpt,
	name: 'FastGPT',
	defaultBaseUrl: '',
	keyFormat: 'APIKey-AppId',
	// FastGPT ignores the name: the app's workflow chooses the model.
	defaultModels: ['fastgpt'],
	serves: {
		endpoints: { chat: { stream: true } },
		nativeFormats: [],
		listsModels: true,
		readsBalance: false,
		sockets: [],
	},
}
