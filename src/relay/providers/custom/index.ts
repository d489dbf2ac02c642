import { identityOf, MEDIA_ENDPOINTS } from '../types'
import { customType } from './capabilities'
import { readOpenAIBilling } from '../openai/balance'
import { openAICompatible } from '../openai-compatible'

/** Type 8: the base URL is the full request URL; `{model}` in it becomes the upstream model name. */
export const custom = openAICompatible({
	...identityOf(customType),
	endpoints: ['chat', 'completions', 'embeddings', 'rerank', ...MEDIA_ENDPOINTS],
	// Any OpenAI-compatible server or gateway: those serving reasoning models read the reasoning sent back.
	reasoningContent: true,
	url: (channel, _endpoint, model) => channel.baseUrl.replaceAll('{model}', encodeURIComponent(model)),
	// A URL with `{model}` in its path is one endpoint's: only its origin serves the billing calls.
	readBalance: (channel, context) =>
		readOpenAIBilling(channel.baseUrl.includes('{model}') ? { ...channel, baseUrl: new URL(channel.baseUrl.replace('{model}', '')).origin } : channel, context),
})
