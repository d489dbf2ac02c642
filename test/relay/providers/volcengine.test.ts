import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'doubao-1-5-pro-32k-250115'
const EMBEDDING_MODEL = 'doubao-embedding-text-240715'

describe('the Volcengine Ark provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'volcengine',
		modelRatio: { 'doubao-1-5-pro-32k-250115': 1, 'doubao-embedding-text-240715': 1 },
		cacheRatio: { [MODEL]: 0.5 },
		channels: [{ type: CHANNEL_TYPE.volcengine, key: 'ark-api-key', models: 'doubao-1-5-pro-32k-250115,doubao-embedding-text-240715' }],
	})

	test('sends chat to /api/v3/chat/completions and bills the usage the upstream reported', async () => {
		await suite.expectChat(MODEL, {
			path: '/api/v3/chat/completions',
			authorization: 'Bearer ark-api-key',
			content: 'Hello! What can I do for you today?',
			usage: { prompt_tokens: 1200, completion_tokens: 11 },
			log: { model_name: MODEL, prompt_tokens: 1200, completion_tokens: 11, quota: 699 },
		})
		// (1200 − 1024) + 1024 × 0.5 + 11: the cached part of the prompt bills at the cache ratio.
		expect((await suite.lastLog()).other).toMatchObject({ cache_tokens: 1024 })
	})

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hello! What can I do?', { model_name: MODEL, is_stream: true, prompt_tokens: 14, completion_tokens: 6, quota: 20 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_5r4d0n8qz6ufq1x2mr1nwt9h', { prompt_tokens: 150, completion_tokens: 22 }))

	test('sends embeddings to /api/v3/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/api/v3/embeddings',
		authorization: 'Bearer ark-api-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 7, completion_tokens: 0, quota: 7 },
	}))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-not-found.json', 404, 'The model or endpoint doubao-pro-4k does not exist'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-authentication.json'))
})
