import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { RERANK_QUERY, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'deepseek-ai/DeepSeek-R1'
const EMBEDDING_MODEL = 'BAAI/bge-m3'
const RERANK_MODEL = 'BAAI/bge-reranker-v2-m3'

describe('the SiliconCloud provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'siliconflow',
		modelRatio: { 'deepseek-ai/DeepSeek-R1': 1, 'BAAI/bge-m3': 1, 'BAAI/bge-reranker-v2-m3': 1 },
		channels: [{ type: CHANNEL_TYPE.siliconflow, key: 'sk-siliconflow-key', models: 'deepseek-ai/DeepSeek-R1,BAAI/bge-m3,BAAI/bge-reranker-v2-m3' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', async () => {
		const answer = await suite.expectChat(MODEL, {
			path: '/v1/chat/completions',
			authorization: 'Bearer sk-siliconflow-key',
			content: 'Hello! How can I help you?',
			usage: { prompt_tokens: 6, completion_tokens: 42 },
			log: { model_name: MODEL, prompt_tokens: 6, completion_tokens: 42, quota: 48 },
		})
		expect((answer.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe('The user greets me; I greet back.')
	})

	test('streams chat with its reasoning deltas and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hello!', { model_name: MODEL, is_stream: true, prompt_tokens: 6, completion_tokens: 12, quota: 18 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, '0195e1c4d6f1a2b3c4d5e6f7', { prompt_tokens: 180, completion_tokens: 25 }))

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/v1/embeddings',
		authorization: 'Bearer sk-siliconflow-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 8, completion_tokens: 0, quota: 8 },
	}))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-model-not-found.json', 400, 'Model does not exist. Please check it carefully.'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-token.json'))

	const rerankBody = { model: RERANK_MODEL, query: RERANK_QUERY, documents: ['Ferry is a self-hosted gateway for LLM APIs.', 'Bananas are yellow.', 'A ferry carries passengers across a river.'], top_n: 2, return_documents: true }

	test('sends a rerank to /v1/rerank with plain-text documents and bills the input tokens it reports', () => suite.expectRerank(RERANK_MODEL, {
		path: '/v1/rerank',
		authorization: 'Bearer sk-siliconflow-key',
		body: rerankBody,
		results: [
			{ index: 0, relevance_score: 0.9953722, document: { text: 'Ferry is a self-hosted gateway for LLM APIs.' } },
			{ index: 2, relevance_score: 0.0412993, document: { text: 'A ferry carries passengers across a river.' } },
		],
		usage: { prompt_tokens: 41, total_tokens: 41 },
		log: { model_name: RERANK_MODEL, prompt_tokens: 41, completion_tokens: 0, quota: 41 },
	}))

	test('reads rerank tokens from the meta object of the newer answer shape', () => suite.expectRerank(RERANK_MODEL, {
		fixture: 'rerank-meta.json',
		path: '/v1/rerank',
		authorization: 'Bearer sk-siliconflow-key',
		body: rerankBody,
		results: [{ index: 0, relevance_score: 0.9953722 }, { index: 2, relevance_score: 0.0412993 }],
		usage: { prompt_tokens: 44, total_tokens: 44 },
		log: { model_name: RERANK_MODEL, prompt_tokens: 44, quota: 44 },
	}))

	test('hands a rerank error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.post('/rerank', { body: rerankBody }), 'error-model-not-found.json', 400, 'Model does not exist. Please check it carefully.'))
})
