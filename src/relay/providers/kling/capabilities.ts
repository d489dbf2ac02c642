import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const klingType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.kling,
	name: 'Kling',
	defaultBaseUrl: 'https://api-singapore.klingai.com',
	keyFormat: 'AccessKey|SecretKey',
	defaultModels: ['kling-v2-1', 'kling-v2-1-master', 'kling-v1-6'],
	serves: serving({
		endpoints: { videos: { stream: false } },
	}),
}
