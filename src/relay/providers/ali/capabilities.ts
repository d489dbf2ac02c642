import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const aliType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.ali,
	name: 'Alibaba Qwen',
	defaultBaseUrl: 'https://dashscope.aliyuncs.com',
	defaultModels: ['qwen-max', 'qwen-plus', 'qwen-turbo', 'qwen-long', 'text-embedding-v3'],
	serves: serving({
		endpoints: { chat: { stream: true }, completions: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
