import { describe, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = '@cf/meta/llama-3.1-8b-instruct'
const EMBEDDING_MODEL = '@cf/baai/bge-base-en-v1.5'

describe('the Cloudflare Workers AI provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'cloudflare',
		modelRatio: { '@cf/meta/llama-3.1-8b-instruct': 1, '@cf/baai/bge-base-en-v1.5': 1 },
		channels: [{ type: CHANNEL_TYPE.cloudflare, key: 'cf-api-token', models: '@cf/meta/llama-3.1-8b-instruct,@cf/baai/bge-base-en-v1.5', other: '023e105f4ecef8ad9ca31a8372d0c353' }],
	})

	test('sends chat to /client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/chat/completions',
		authorization: 'Bearer cf-api-token',
		content: 'Hello! How can I assist you today?',
		usage: { prompt_tokens: 17, completion_tokens: 10 },
		log: { model_name: MODEL, prompt_tokens: 17, completion_tokens: 10, quota: 27 },
	}))

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hello!', { model_name: MODEL, is_stream: true, prompt_tokens: 17, completion_tokens: 2, quota: 19 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'chatcmpl-tool-8fcb0a44b6', { prompt_tokens: 240, completion_tokens: 19 }))

	test('sends embeddings to /client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/client/v4/accounts/023e105f4ecef8ad9ca31a8372d0c353/ai/v1/embeddings',
		authorization: 'Bearer cf-api-token',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 6, completion_tokens: 0, quota: 6 },
	}))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-bad-input.json', 400, "Bad input: must have required property 'messages'"))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-authentication.json'))
})
