import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { custom } from '@/relay/providers/custom'
import { databaseTargets } from '../../helpers/database'
import type { FakeOpenAI } from '../../helpers/fake-openai'
import { type RelayHarness, startRelayHarness } from '../../helpers/relay'

describe('the custom provider', () => {
	test('sends every call to the full base URL, with {model} replaced by the upstream model', () => {
		const channel = { type: 8, baseUrl: 'https://llm.example.com/serve/{model}/chat', key: 'custom-key', other: '', organization: '' }
		const request = custom.openai!.buildRequest(channel, 'chat', { model: 'llama 3/70b' })
		expect(request.url).toBe('https://llm.example.com/serve/llama%203%2F70b/chat')
		expect(request.headers.authorization).toBe('Bearer custom-key')
	})

	test('uses a base URL without {model} as it is', () => {
		const channel = { type: 8, baseUrl: 'https://llm.example.com/v1/chat/completions', key: 'k', other: '', organization: '' }
		expect(custom.openai!.buildRequest(channel, 'chat', { model: 'any' }).url).toBe('https://llm.example.com/v1/chat/completions')
	})
})

describe('a custom channel through Ferry', () => {
	let harness: RelayHarness
	let upstream: FakeOpenAI
	let client: OpenAI

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		upstream = harness.startUpstream({ promptTokens: 7, completionTokens: 2 })
		await harness.createChannel({ type: 8, key: 'custom-key', base_url: `${upstream.url}/v1/chat/completions`, models: 'gpt-4o-mini' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(() => harness.close())

	test('a chat call goes to the channel\'s full URL with its key, streamed and not, and is billed', async () => {
		const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] })
		expect(reply.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 2 })
		const sent = upstream.requests.at(-1)!
		expect(sent.path).toBe('/v1/chat/completions')
		expect(sent.headers.authorization).toBe('Bearer custom-key')
		const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
		expect(text.length).toBeGreaterThan(0)
		const logs = await harness.ferry.call('GET', '/api/log/?page_size=2', { as: harness.root })
		expect(logs.body.data.items.map((entry: { is_stream: boolean }) => entry.is_stream)).toEqual([true, false])
	})
})
