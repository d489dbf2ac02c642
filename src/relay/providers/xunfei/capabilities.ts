import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const xunfeiType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.xunfei,
	name: 'iFlytek Spark',
	defaultBaseUrl: 'wss://spark-api.xf-yun.com',
	keyFormat: 'APPID|APISecret|APIKey',
	// `SparkDesk` follows the channel's version; `SparkDesk-vX.Y` names one (`versions.ts`).
	defaultModels: ['SparkDesk', 'SparkDesk-v1.1', 'SparkDesk-v3.1', 'SparkDesk-v3.5', 'SparkDesk-v4.0'],
	serves: serving({
		endpoints: { chat: { stream: true } },
	}),
}
