import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { RERANK_DOCUMENTS, RERANK_QUERY, rerankWith, setUpProviderTest } from '../../helpers/fixture-upstream'

const EMBEDDING_MODEL = 'jina-embeddings-v3'
const RERANK_MODEL = 'jina-reranker-v2-base-multilingual'

describe('the Jina provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'jina',
		answer: 'embeddings.json',
		modelRatio: { 'jina-embeddings-v3': 1, 'jina-reranker-v2-base-multilingual': 2 },
		channels: [{ type: CHANNEL_TYPE.jina, key: 'jina_api_key', models: 'jina-embeddings-v3,jina-reranker-v2-base-multilingual' }],
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

	test('passes a rerank through to /v1/rerank and bills the total tokens Jina reports', () => suite.expectRerank(RERANK_MODEL, {
		path: '/v1/rerank',
		authorization: 'Bearer jina_api_key',
		body: { model: RERANK_MODEL, query: RERANK_QUERY, documents: RERANK_DOCUMENTS, top_n: 2, return_documents: true },
		results: [
			{ index: 0, document: { text: 'Ferry is a self-hosted gateway for LLM APIs.' }, relevance_score: 0.8783142566680908 },
			{ index: 2, document: { text: 'A ferry carries passengers across a river.' }, relevance_score: 0.2179468274116516 },
		],
		usage: { prompt_tokens: 38, total_tokens: 38 },
		// Ratio 2: 38 prompt tokens cost 76.
		log: { model_name: RERANK_MODEL, prompt_tokens: 38, completion_tokens: 0, quota: 76, is_stream: false },
	}))

	test('passes Jina\'s own rerank fields through', async () => {
		suite.upstream.answerWith('rerank.json')
		await rerankWith(suite.client, { model: RERANK_MODEL, query: RERANK_QUERY, documents: ['one', 'two'], return_embeddings: false })
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ return_embeddings: false })
	})

	test('hands a rerank error to the client with its status and message', () => suite.expectUpstreamError(() => rerankWith(suite.client, { model: RERANK_MODEL, query: RERANK_QUERY, documents: ['one'] }), 'error-validation.json', 422, 'Validation error'))
})
