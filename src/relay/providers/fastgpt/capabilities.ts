import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const fastgptType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.fastgpt,
	name: 'FastGPT',
	defaultBaseUrl: '',
	keyFormat: 'APIKey-AppId',
	// FastGPT ignores the name: the app's workflow chooses the model.
	defaultModels: ['fastgpt'],
	serves: serving({
		endpoints: { chat: { stream: true } },
		listsModels: true,
	}),
}
