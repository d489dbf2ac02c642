import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const baiduType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.baidu,
	name: 'Baidu Wenxin',
	defaultBaseUrl: 'https://aip.baidubce.com',
	keyFormat: 'APIKey|SecretKey',
	defaultModels: ['ERNIE-4.0-8K', 'ERNIE-4.0-Turbo-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-128K', 'ERNIE-Lite-8K', 'Embedding-V1'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
	}),
}
