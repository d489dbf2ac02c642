import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const baiduV2Type: ChannelTypeDescription = {
	type: CHANNEL_TYPE.baiduV2,
	name: 'Baidu Wenxin V2',
	defaultBaseUrl: 'https://qianfan.baidubce.com',
	defaultModels: ['ernie-4.5-turbo-128k', 'ernie-4.0-turbo-8k', 'ernie-3.5-8k', 'ernie-speed-128k', 'embedding-v1'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
