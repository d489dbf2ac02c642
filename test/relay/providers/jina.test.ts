import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const EMBEDDING_MODEL = 'jina-embeddings-v3'

describe('the Jina provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'jina',
		answer: 'embeddings.json',
		modelRatio: { 'jina-embeddings-v3': 1 },
		channels: [{ type: CHANNEL_TYPE.jina, key: 'jina_api_key', models: 'jina-embeddings-v3' }],
	})

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/v1/embeddings',
		authorization: 'Bearer jina_api_key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 9, completion_tokens: 0, quota: 9 },
	}))

	test('passes Jina\'s own embedding fields through', async () => {
		suite.upstream.answerWith('embeddings.json')
		await suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: ['first text'], dimensions: 256, task: 'retrieval.query' } as never)
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ dimensions: 256, task: 'retrieval.query' })
	})

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }), 'error-validation.json', 422, 'Validation error: input must be a string or a list of strings'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }), 'error-authentication.json'))
})
