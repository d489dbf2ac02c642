import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const azureType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.azure,
	name: 'Azure OpenAI',
	defaultBaseUrl: '',
	defaultModels: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o4-mini', 'text-embedding-3-small', 'text-embedding-3-large'],
	serves: serving({
		endpoints: { chat: { stream: true }, completions: { stream: true }, embeddings: { stream: false }, 'image-generations': { stream: false }, 'image-edits': { stream: false }, speech: { stream: false }, transcriptions: { stream: false }, translations: { stream: false }, videos: { stream: false } },
		nativeFormats: ['responses'],
		listsModels: true,
		sockets: ['realtime', 'responses'],
	}),
}
