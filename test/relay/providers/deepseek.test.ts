import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'deepseek-chat'

describe('the DeepSeek provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'deepseek',
		modelRatio: { 'deepseek-chat': 1, 'deepseek-reasoner': 1 },
		cacheRatio: { 'deepseek-chat': 0.1, 'deepseek-reasoner': 0.1 },
		channels: [{ type: CHANNEL_TYPE.deepseek, key: 'sk-deepseek-key', models: 'deepseek-chat,deepseek-reasoner' }],
	})

	test('sends chat to /chat/completions and bills the usage the upstream reported', async () => {
		const answer = await suite.expectChat(MODEL, {
			path: '/chat/completions',
			authorization: 'Bearer sk-deepseek-key',
			content: 'Hello! How can I help you today?',
			usage: { prompt_tokens: 1000, completion_tokens: 20 },
			log: { model_name: MODEL, prompt_tokens: 1000, completion_tokens: 20, quota: 389 },
		})
		// (1000 − 768) + 768 × 0.1 + 20 × 4 (default completion ratio) ≈ 389: the cache hits bill at the cache ratio and are not counted twice.
		expect((await suite.lastLog()).other).toMatchObject({ cache_tokens: 768 })
		expect(answer.usage?.prompt_tokens_details?.cached_tokens).toBe(768)
	})

	test('counts the cache hits once when DeepSeek also reports them in OpenAI\'s convention', async () => {
		suite.upstream.answerWith('chat-both-cache-fields.json')
		await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(await suite.lastLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 20, quota: 389, other: { cache_tokens: 768 } })
	})

	test('streams reasoning and content deltas through and bills the last chunk\'s usage with its cache hits', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		let reasoning = ''
		for await (const chunk of stream) {
			const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string | null } | undefined
			text += delta?.content ?? ''
			reasoning += delta?.reasoning_content ?? ''
		}
		expect(text).toBe('Hello!')
		expect(reasoning).toBe('A greeting.')
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
		// (400 − 256) + 256 × 0.1 + 30 × 4 ≈ 290
		expect(await suite.lastLog()).toMatchObject({ model_name: 'deepseek-reasoner', is_stream: true, prompt_tokens: 400, completion_tokens: 30, quota: 290, other: { cache_tokens: 256 } })
	})

	test('ends the client\'s stream with an error event when DeepSeek sends a malformed one', async () => {
		suite.upstream.answerWith('chat-stream-malformed.sse')
		const response = await fetch(`${suite.harness.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${(await suite.harness.createToken()).key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
		})
		expect(await response.text()).toContain('the upstream sent a malformed stream event')
	})

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_0_8a1d5d8f-6c8b-4a2e-9f41-2e5b7c3d1a90', { prompt_tokens: 120, completion_tokens: 24 }))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-insufficient-balance.json', 402, 'Insufficient Balance'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-authentication.json'))
})
