import { CHANNEL_TYPE } from '@shared/channel-type'
import { openAICompatible } from '../openai-compatible'

/** Type 8: the base URL is the full request URL; `{model}` in it becomes the upstream model name. */
export const custom = openAICompatible({
	type: CHANNEL_TYPE.custom,
	name: 'Custom',
	defaultBaseUrl: '',
	endpoints: ['chat', 'completions', 'embeddings', 'rerank'],
	url: (channel, _endpoint, model) => channel.baseUrl.replaceAll('{model}', encodeURIComponent(model)),
})
