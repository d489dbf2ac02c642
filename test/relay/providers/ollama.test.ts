import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ollama } from '@/relay/providers/ollama'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'llama3.2'
const EMBEDDING_MODEL = 'nomic-embed-text'

describe('the Ollama provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'ollama',
		modelRatio: { 'llama3.2': 1, 'nomic-embed-text': 1 },
		channels: [{ type: CHANNEL_TYPE.ollama, key: 'ollama-key', models: 'llama3.2,nomic-embed-text' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/v1/chat/completions',
		authorization: 'Bearer ollama-key',
		content: 'Hello! How are you today?',
		usage: { prompt_tokens: 26, completion_tokens: 10 },
		log: { model_name: MODEL, prompt_tokens: 26, completion_tokens: 10, quota: 36 },
	}))

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hello! Hi', { model_name: MODEL, is_stream: true, prompt_tokens: 26, completion_tokens: 4, quota: 30 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_lg4hv2x1', { prompt_tokens: 160, completion_tokens: 18 }))

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/v1/embeddings',
		authorization: 'Bearer ollama-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 6, completion_tokens: 0, quota: 6 },
	}))

	test('sends no authorization header when the channel has no key', () => {
		const request = ollama.openai!.buildRequest({ type: CHANNEL_TYPE.ollama, baseUrl: 'http://localhost:11434', key: '', other: '', organization: '' }, 'chat', { model: MODEL })
		expect(request.url).toBe('http://localhost:11434/v1/chat/completions')
		expect(request.headers).toEqual({ 'content-type': 'application/json' })
	})

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-model-not-found.json', 404, 'model "llama9" not found, try pulling it first'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-unauthorized.json'))
})
