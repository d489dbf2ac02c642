import { describe, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = '360gpt-pro'
const EMBEDDING_MODEL = 'embedding_s1_v1'

describe('the 360 Brain provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'ai360',
		modelRatio: { '360gpt-pro': 1, 'embedding_s1_v1': 1 },
		channels: [{ type: CHANNEL_TYPE.ai360, key: 'fk-360-key', models: '360gpt-pro,embedding_s1_v1' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/v1/chat/completions',
		authorization: 'Bearer fk-360-key',
		content: '你好！有什么可以帮你的吗？',
		usage: { prompt_tokens: 9, completion_tokens: 8 },
		log: { model_name: MODEL, prompt_tokens: 9, completion_tokens: 8, quota: 17 },
	}))

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, '你好！', { model_name: MODEL, is_stream: true, prompt_tokens: 9, completion_tokens: 2, quota: 11 }))

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/v1/embeddings',
		authorization: 'Bearer fk-360-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 5, completion_tokens: 0, quota: 5 },
	}))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-request.json', 400, 'model not found: 360gpt-ultra'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-key.json'))
})
