/**
 * Type 18, iFlytek Spark: chat over a WebSocket per call (`wss://spark-api.xf-yun.com/{version}/chat`),
 * the URL signed with the APISecret. The relay reaches it through the self-opened capability,
 * since its answer is a series of WebSocket frames, not an HTTP response.
 */
import { identityOf, type ProviderAdaptor } from '../types'
import { xunfeiType } from './capabilities'
import { openSpark } from './open'

export const xunfei: ProviderAdaptor = {
	...identityOf(xunfeiType),
	selfOpened: {
		chat: { open: openSpark },
	},
}
