import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const mokaaiType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.mokaai,
	name: 'MokaAI M3E',
	defaultBaseUrl: '',
	defaultModels: ['m3e-base', 'm3e-small', 'm3e-large'],
	serves: serving({
		endpoints: { embeddings: { stream: false } },
		listsModels: true,
	}),
}
