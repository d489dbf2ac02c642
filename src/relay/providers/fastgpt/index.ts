import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

/** A private FastGPT deployment: the base URL is its address, the app answers at `/api/v1/chat/completions`. */
export const fastgpt = openAICompatible({
	type: CHANNEL_TYPE.fastgpt,
	name: 'FastGPT',
	defaultBaseUrl: '',
	keyFormat: 'APIKey-AppId',
	// FastGPT ignores the name: the app's workflow chooses the model.
	defaultModels: ['fastgpt'],
	endpoints: ['chat'],
	url: (channel) => `${channel.baseUrl}/api/v1/chat/completions`,
})
