/**
 * Type 18, iFlytek Spark: chat over a WebSocket per call (`wss://spark-api.xf-yun.com/{version}/chat`),
 * the URL signed with the APISecret. The relay reaches it through the self-opened capability,
 * since its answer is a series of WebSocket frames, not an HTTP response.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'
import { openSpark } from './open'

export const xunfei: ProviderAdaptor = {
	type: CHANNEL_TYPE.xunfei,
	name: 'iFlytek Spark',
	defaultBaseUrl: 'wss://spark-api.xf-yun.com',
	keyFormat: 'APPID|APISecret|APIKey',
	// `SparkDesk` follows the channel's version; `SparkDesk-vX.Y` names one (`versions.ts`).
	defaultModels: ['SparkDesk', 'SparkDesk-v1.1', 'SparkDesk-v3.1', 'SparkDesk-v3.5', 'SparkDesk-v4.0'],
	selfOpened: {
		chat: { open: openSpark },
	},
}
