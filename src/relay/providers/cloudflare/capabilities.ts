import { CHANNEL_TYPE } from '@shared/channel-type'
import { type ChannelTypeDescription, serving } from '../types'

export const cloudflareType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.cloudflare,
	name: 'Cloudflare',
	defaultBaseUrl: 'https://api.cloudflare.com',
	defaultModels: ['@cf/meta/llama-3.3-70b-instruct-fp8-fast', '@cf/meta/llama-3.1-8b-instruct', '@cf/baai/bge-base-en-v1.5'],
	serves: serving({
		endpoints: { chat: { stream: true }, embeddings: { stream: false } },
		listsModels: true,
	}),
}
