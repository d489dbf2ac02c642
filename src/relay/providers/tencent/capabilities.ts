import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const tencentType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.tencent,
	name: 'Tencent Hunyuan',
	defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
	keyFormat: 'AppId|SecretId|SecretKey',
	defaultModels: ['hunyuan-turbos-latest', 'hunyuan-lite', 'hunyuan-standard', 'hunyuan-pro'],
	serves: serving({
		endpoints: { chat: { stream: true } },
	}),
}
