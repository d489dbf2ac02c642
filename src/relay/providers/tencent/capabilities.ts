import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ChannelTypeDescription } from '../types'

export const tencentType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.tencent,
	name: 'Tencent Hunyuan',
	defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
	keyFormat: 'AppId|SecretId|SecretKey',
	defaultModels: ['hunyuan-turbos-latest', 'hunyuan-lite', 'hunyuan-standard', 'hunyuan-pro'],
	serves: {
		endpoints: { chat: { stream: true } },
		nativeFormats: [],
		listsModels: false,
		readsBalance: false,
		sockets: [],
	},
}
