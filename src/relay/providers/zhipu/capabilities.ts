import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const zhipuType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.zhipu,
	name: 'Zhipu ChatGLM',
	defaultBaseUrl: 'https://open.bigmodel.cn',
	defaultModels: ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite'],
	serves: serving({
		endpoints: { chat: { stream: true } },
	}),
}
