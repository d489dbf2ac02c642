import { CHANNEL_TYPE } from '@shared/channel-type'
import { MEDIA_ENDPOINTS } from '../types'
import { readOpenAIBilling } from '../openai/balance'
import { openAICompatible } from '../openai-compatible'

/** Type 8: the base URL is the full request URL; `{model}` in it becomes the upstream model name. */
export const custom = openAICompatible({
	type: CHANNEL_TYPE.custom,
	name: 'Custom',
	defaultBaseUrl: '',
	defaultModels: ['gpt-4o', 'gpt-4o-mini'],
	endpoints: ['chat', 'completions', 'embeddings', 'rerank', ...MEDIA_ENDPOINTS],
	url: (channel, _endpoint, model) => channel.baseUrl.replaceAll('{model}', encodeURIComponent(model)),
	// A URL with `{model}` in its path is one endpoint's: only its origin serves the billing calls.
	readBalance: (channel, context) =>
		readOpenAIBilling(channel.baseUrl.includes('{model}') ? { ...channel, baseUrl: new URL(channel.baseUrl.replace('{model}', '')).origin } : channel, context),
})
