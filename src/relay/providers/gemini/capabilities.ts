import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com'

export const geminiType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.gemini,
	name: 'Google Gemini',
	defaultBaseUrl: GEMINI_BASE_URL,
	defaultModels: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash', 'gemini-embedding-001'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false }, videos: { stream: false } },
		nativeFormats: ['gemini'],
		listsModels: true,
	}),
}
