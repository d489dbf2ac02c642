import { CHANNEL_TYPE } from '@shared/channel-type'
import { bearer, openAICompatible } from '../openai-compatible'

export const openai = openAICompatible({
	type: CHANNEL_TYPE.openai,
	name: 'OpenAI',
	defaultBaseUrl: 'https://api.openai.com',
	headers: (channel) => ({
		...bearer(channel),
		...(channel.organization ? { 'openai-organization': channel.organization } : {}),
	}),
})
