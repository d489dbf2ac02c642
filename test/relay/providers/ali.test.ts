import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'qwen-plus'
const EMBEDDING_MODEL = 'text-embedding-v3'

describe('the Alibaba DashScope provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'ali',
		modelRatio: { 'qwen-plus': 1, 'text-embedding-v3': 1 },
		cacheRatio: { [MODEL]: 0.25 },
		channels: [{ type: CHANNEL_TYPE.ali, key: 'sk-dashscope-key', models: 'qwen-plus,text-embedding-v3' }],
	})

	test('sends chat to /compatible-mode/v1/chat/completions and bills the usage the upstream reported', async () => {
		await suite.expectChat(MODEL, {
			path: '/compatible-mode/v1/chat/completions',
			authorization: 'Bearer sk-dashscope-key',
			content: '我是阿里云开发的大规模语言模型，我叫通义千问。',
			usage: { prompt_tokens: 3019, completion_tokens: 104 },
			log: { model_name: MODEL, prompt_tokens: 3019, completion_tokens: 104, quota: 1587 },
		})
		// (3019 − 2048) + 2048 × 0.25 + 104: the cached part of the prompt bills at the cache ratio.
		expect((await suite.lastLog()).other).toMatchObject({ cache_tokens: 2048 })
	})

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, '我是来自阿里云的超大规模语言模型', { model_name: MODEL, is_stream: true, prompt_tokens: 22, completion_tokens: 17, quota: 39 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_6596dafa2a6a46f7a217da', { prompt_tokens: 216, completion_tokens: 19 }))

	test('sends embeddings to /compatible-mode/v1/embeddings and bills their prompt tokens', () => suite.expectEmbeddings(EMBEDDING_MODEL, {
		path: '/compatible-mode/v1/embeddings',
		authorization: 'Bearer sk-dashscope-key',
		body: { model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' },
		embeddings: [[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]],
		log: { model_name: EMBEDDING_MODEL, prompt_tokens: 4, completion_tokens: 0, quota: 4 },
	}))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-parameter.json', 400, 'Range of input length should be [1, 30720]'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-api-key.json'))
})
