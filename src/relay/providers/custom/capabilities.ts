import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const customType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.custom,
	name: 'Custom',
	defaultBaseUrl: '',
	defaultModels: ['gpt-4o', 'gpt-4o-mini'],
	serves: serving({
		endpoints: { chat: { stream: true }, completions: { stream: true }, embeddings: { stream: false }, rerank: { stream: false }, 'image-generations': { stream: false }, 'image-edits': { stream: false }, 'image-variations': { stream: false }, speech: { stream: false }, transcriptions: { stream: false }, translations: { stream: false }, moderations: { stream: false } },
		listsModels: true,
		readsBalance: true,
	}),
}
