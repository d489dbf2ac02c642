import { describe, expect, test } from 'bun:test'
import { azure, azureDeployment } from '@/relay/providers/azure'

const channel = { type: 3, baseUrl: 'https://example-resource.openai.azure.com', key: 'azure-key', other: '', organization: '' }

describe('the Azure OpenAI provider', () => {
	test('sends chat to the deployment URL with the default API version and the api-key header', () => {
		const request = azure.openai!.buildRequest(channel, 'chat', { model: 'gpt-4o-mini' })
		expect(request.url).toBe('https://example-resource.openai.azure.com/openai/deployments/gpt-4o-mini/chat/completions?api-version=2023-06-01-preview')
		expect(request.headers).toEqual({ 'content-type': 'application/json', 'api-key': 'azure-key' })
	})

	test('uses the channel\'s API version and maps embeddings and completions to their deployment paths', () => {
		const dated = { ...channel, other: '2024-10-21' }
		expect(azure.openai!.buildRequest(dated, 'embeddings', { model: 'text-embedding-3-small' }).url)
			.toBe('https://example-resource.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21')
		expect(azure.openai!.buildRequest(dated, 'completions', { model: 'gpt-35-turbo-instruct' }).url)
			.toBe('https://example-resource.openai.azure.com/openai/deployments/gpt-35-turbo-instruct/completions?api-version=2024-10-21')
	})

	test('names deployments without dots, as Azure requires', () => {
		expect(azureDeployment('gpt-3.5-turbo')).toBe('gpt-35-turbo')
		expect(azure.openai!.buildRequest(channel, 'chat', { model: 'gpt-3.5-turbo' }).url).toContain('/deployments/gpt-35-turbo/')
	})
})
