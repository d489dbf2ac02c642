import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const awsType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.aws,
	name: 'AWS Claude',
	// The host follows the region in the key.
	defaultBaseUrl: '',
	keyFormat: 'Ak|Sk|Region',
	// Anthropic's names, which `model-id.ts` maps to Bedrock's ids.
	defaultModels: ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-20250514'],
	serves: serving({
		endpoints: { chat: { stream: true } },
		nativeFormats: ['claude'],
	}),
}
