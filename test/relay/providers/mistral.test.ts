import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { failureOf, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'mistral-small-latest'
const EMBEDDING_MODEL = 'mistral-embed'

describe('the Mistral provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'mistral',
		modelRatio: { 'mistral-small-latest': 1, 'mistral-embed': 1 },
		channels: [{ type: CHANNEL_TYPE.mistral, key: 'mistral-api-key', models: 'mistral-small-latest,mistral-embed' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/v1/chat/completions',
		authorization: 'Bearer mistral-api-key',
		content: 'Bonjour ! Comment puis-je vous aider ?',
		usage: { prompt_tokens: 16, completion_tokens: 12 },
		log: { model_name: MODEL, prompt_tokens: 16, completion_tokens: 12, quota: 28 },
	}))

	test('sends only the fields Mistral accepts, under Mistral\'s names', async () => {
		suite.upstream.answerWith('chat.json')
		await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], seed: 7, max_completion_tokens: 64, user: 'someone', logprobs: false, temperature: 0.2 })
		expect(suite.upstream.requests.at(-1)!.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], random_seed: 7, max_tokens: 64, temperature: 0.2 })
	})

	test('streams chat without stream_options, which Mistral rejects, and bills the usage Mistral sends anyway', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		expect(text).toBe('Bonjour !')
		const sent = suite.upstream.requests.at(-1)!.body
		expect(sent.stream).toBe(true)
		expect(sent.stream_options).toBeUndefined()
		expect(await suite.lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, prompt_tokens: 16, completion_tokens: 3, quota: 19 })
	})

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'D681PevKs', { prompt_tokens: 96, completion_tokens: 21 }))

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/v1/embeddings',
		authorization: 'Bearer mistral-api-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'] },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 6, completion_tokens: 0, quota: 6 },
	}))

	test('hands a validation error to the client with its status', async () => {
		suite.upstream.answerWith('error-extra-forbidden.json', 422)
		const error = await failureOf(suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError)
		expect(error?.status).toBe(422)
	})

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-unauthorized.json'))
})
