import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const ai360Type: ChannelTypeDescription = {
	type: CHANNEL_TYPE.ai360,
	name: '360 Brain',
	defaultBaseUrl: 'https://ai.360.cn',
	defaultModels: ['360gpt-pro', '360gpt-turbo', '360gpt2-pro', 'embedding_s1_v1', 'embedding-bert-512-v1'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
