import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const anthropicType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.anthropic,
	name: 'Anthropic Claude',
	defaultBaseUrl: 'https://api.anthropic.com',
	defaultModels: [
		'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001', 'claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929',
		'claude-sonnet-4-20250514',
	],
	serves: serving({
		endpoints: { chat: { stream: true } },
		nativeFormats: ['claude'],
		listsModels: true,
	}),
}
