import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const vertexType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.vertex,
	name: 'Vertex AI',
	// The host follows the region; a base URL set on the channel (a proxy) replaces it.
	defaultBaseUrl: '',
	defaultModels: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'],
	serves: serving({
		endpoints: { chat: { stream: true }, videos: { stream: false } },
		nativeFormats: ['gemini'],
	}),
}
