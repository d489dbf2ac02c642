import { CHANNEL_TYPE, DEFAULT_AZURE_API_VERSION } from '@shared/channel-type'
import { identityOf, type RelayEndpoint } from '../types'
import { azureType } from './capabilities'
import { openAICompatible } from '../openai-compatible'
import { openAIModelNames } from '../openai-compatible/model-list'
import { openAIVideos } from '../openai-compatible/videos'

const AZURE_PATHS: Partial<Record<RelayEndpoint, string>> = {
	chat: 'chat/completions',
	completions: 'completions',
	embeddings: 'embeddings',
	// Azure OpenAI serves no image variations and no moderations.
	'image-generations': 'images/generations',
	'image-edits': 'images/edits',
	speech: 'audio/speech',
	transcriptions: 'audio/transcriptions',
	translations: 'audio/translations',
}

/** Azure deployment names cannot contain dots, so `gpt-3.5-turbo` is deployed as `gpt-35-turbo`. */
export function azureDeployment(model: string) {
	return model.replaceAll('.', '')
}

export const azure = openAICompatible({
	...identityOf(azureType),
	endpoints: ['chat', 'completions', 'embeddings', 'image-generations', 'image-edits', 'speech', 'transcriptions', 'translations'],
	url: (channel, endpoint, model) => {
		const version = encodeURIComponent(channel.other || DEFAULT_AZURE_API_VERSION)
		return `${channel.baseUrl}/openai/deployments/${encodeURIComponent(azureDeployment(model))}/${AZURE_PATHS[endpoint]}?api-version=${version}`
	},
	headers: (channel) => ({ 'api-key': channel.key }),
	// Azure's v1 route: no api-version, the deployment named in the body.
	responses: { url: (channel) => `${channel.baseUrl}/openai/v1/responses`, model: azureDeployment },
	// The GA Realtime route: v1, the deployment as `model`.
	realtime: (channel, model) => `${channel.baseUrl}/openai/v1/realtime?model=${encodeURIComponent(azureDeployment(model))}`,
	// Sora 2 on the v1 route, OpenAI's own Videos API: the deployment named in the body.
	videos: openAIVideos({ base: (channel) => `${channel.baseUrl}/openai/v1/videos`, headers: (channel) => ({ 'api-key': channel.key }) }),
	// The data plane's list of the resource's models (not its deployments).
	modelList: {
		request: (channel) => ({
			url: `${channel.baseUrl.replace(/\/openai$/, '')}/openai/models?api-version=${encodeURIComponent(channel.other || DEFAULT_AZURE_API_VERSION)}`,
			headers: { 'api-key': channel.key },
		}),
		names: openAIModelNames,
	},
})
