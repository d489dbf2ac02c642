import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const openaiType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.openai,
	name: 'OpenAI',
	defaultBaseUrl: 'https://api.openai.com',
	defaultModels: [
		'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini',
		'text-embedding-3-small', 'text-embedding-3-large',
	],
	serves: serving({
		endpoints: { chat: { stream: true }, completions: { stream: true }, embeddings: { stream: false }, rerank: { stream: false }, 'image-generations': { stream: false }, 'image-edits': { stream: false }, 'image-variations': { stream: false }, speech: { stream: false }, transcriptions: { stream: false }, translations: { stream: false }, moderations: { stream: false }, videos: { stream: false } },
		nativeFormats: ['responses'],
		listsModels: true,
		readsBalance: true,
		sockets: ['realtime', 'responses'],
	}),
}
