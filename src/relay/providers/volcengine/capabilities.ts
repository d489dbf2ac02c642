import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const volcengineType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.volcengine,
	name: 'Volcengine',
	defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
	defaultModels: ['doubao-seed-1-6-250615', 'doubao-1-5-pro-32k-250115', 'doubao-1-5-lite-32k-250115', 'doubao-embedding-text-240715'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
