import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const zhipuV4Type: ChannelTypeDescription = {
	type: CHANNEL_TYPE.zhipuV4,
	name: 'Zhipu GLM-4V',
	defaultBaseUrl: 'https://open.bigmodel.cn',
	defaultModels: ['glm-4.5', 'glm-4.5-air', 'glm-4-plus', 'glm-4-air', 'glm-4-flash', 'embedding-3'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
