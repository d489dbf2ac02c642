import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { azure, azureDeployment } from '@/relay/providers/azure'
import { databaseTargets } from '../../helpers/database'
import type { FakeOpenAI } from '../../helpers/fake-openai'
import { type RelayHarness, startRelayHarness } from '../../helpers/relay'

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

describe('an Azure OpenAI channel through Ferry', () => {
	let harness: RelayHarness
	let client: OpenAI
	let upstream: FakeOpenAI
	let front: ReturnType<typeof Bun.serve>
	const seen: { path: string; search: string; apiKey: string | null; authorization: string | null }[] = []

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		upstream = harness.startUpstream({ promptTokens: 12, completionTokens: 3 })
		// Azure's paths in front of the fake OpenAI server: /openai/deployments/<deployment>/<path>?api-version=…
		front = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				const url = new URL(request.url)
				seen.push({ path: url.pathname, search: url.search, apiKey: request.headers.get('api-key'), authorization: request.headers.get('authorization') })
				const path = url.pathname.replace(/^\/openai\/deployments\/[^/]+/, '/v1')
				return fetch(`${upstream.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await request.text() })
			},
		})
		await harness.createChannel({ type: 3, key: 'azure-key', base_url: `http://127.0.0.1:${front.port}`, models: 'gpt-4o-mini', other: '2024-10-21' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await front.stop(true)
	})

	test('a chat call reaches the deployment URL with the channel API version and the api-key header, and is billed', async () => {
		const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] })
		expect(reply.choices[0]!.message.content).toBeTruthy()
		expect(seen.at(-1)).toEqual({ path: '/openai/deployments/gpt-4o-mini/chat/completions', search: '?api-version=2024-10-21', apiKey: 'azure-key', authorization: null })
		const logs = await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })
		expect(logs.body.data.items[0]).toMatchObject({ model_name: 'gpt-4o-mini', prompt_tokens: 12, completion_tokens: 3 })
	})

	test('a streamed call passes Azure\'s chunks through with the usage', async () => {
		const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | undefined | null
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta.content ?? ''
			usage = chunk.usage ?? usage
		}
		expect(text.length).toBeGreaterThan(0)
		expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3 })
		expect(seen.at(-1)!.path).toBe('/openai/deployments/gpt-4o-mini/chat/completions')
	})
})
