import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { failureOf, setUpProviderTest } from '../../helpers/fixture-upstream'

const EMBEDDING_MODEL = 'm3e-base'

describe('the MokaAI M3E provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'mokaai',
		answer: 'embeddings.json',
		modelRatio: { 'm3e-base': 1 },
		channels: [{ type: CHANNEL_TYPE.mokaai, key: 'sk-m3e-key', models: 'm3e-base' }],
	})

	test('sends embeddings to the deployment\'s /v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/v1/embeddings',
		authorization: 'Bearer sk-m3e-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 4, completion_tokens: 0, quota: 4 },
	}))

	test('refuses chat, which M3E does not serve', async () => {
		const error = await failureOf(suite.client.chat.completions.create({ model: EMBEDDING_MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error?.status).toBe(400)
		expect(error?.message).toContain(`no channel serving the model ${EMBEDDING_MODEL} supports chat`)
	})

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }), 'error-invalid-request.json', 422, 'input must not be empty'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }), 'error-invalid-key.json'))
})
