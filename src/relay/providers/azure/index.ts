import { CHANNEL_TYPE, DEFAULT_AZURE_API_VERSION } from '@shared/channel-type'
import type { RelayEndpoint } from '../types'
import { openAICompatible } from '../openai-compatible'

const AZURE_PATHS: Partial<Record<RelayEndpoint, string>> = {
	chat: 'chat/completions',
	completions: 'completions',
	embeddings: 'embeddings',
}

/** Azure deployment names cannot contain dots, so `gpt-3.5-turbo` is deployed as `gpt-35-turbo`. */
export function azureDeployment(model: string) {
	return model.replaceAll('.', '')
}

export const azure = openAICompatible({
	type: CHANNEL_TYPE.azure,
	name: 'Azure OpenAI',
	defaultBaseUrl: '',
	endpoints: ['chat', 'completions', 'embeddings'],
	url: (channel, endpoint, model) => {
		const version = encodeURIComponent(channel.other || DEFAULT_AZURE_API_VERSION)
		return `${channel.baseUrl}/openai/deployments/${encodeURIComponent(azureDeployment(model))}/${AZURE_PATHS[endpoint]}?api-version=${version}`
	},
	headers: (channel) => ({ 'api-key': channel.key }),
})
