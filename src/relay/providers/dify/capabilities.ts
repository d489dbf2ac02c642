import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const difyType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.dify,
	name: 'Dify',
	defaultBaseUrl: 'https://api.dify.ai',
	// Dify ignores the name: the app's configuration chooses the model.
	defaultModels: ['dify'],
	serves: serving({
		endpoints: { chat: { stream: true } },
	}),
}
