import { describe, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'MiniMax-Text-01'

describe('the MiniMax provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'minimax',
		modelRatio: { 'MiniMax-Text-01': 1 },
		channels: [{ type: CHANNEL_TYPE.minimax, key: 'minimax-api-key', models: 'MiniMax-Text-01' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/v1/chat/completions',
		authorization: 'Bearer minimax-api-key',
		content: 'Hello! How can I assist you today?',
		usage: { prompt_tokens: 33, completion_tokens: 10 },
		log: { model_name: MODEL, prompt_tokens: 33, completion_tokens: 10, quota: 43 },
	}))

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hello! How can I help?', { model_name: MODEL, is_stream: true, prompt_tokens: 33, completion_tokens: 7, quota: 40 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_function_5432112345', { prompt_tokens: 132, completion_tokens: 20 }))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-params.json', 400, 'invalid params, tool call id is invalid'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-login-fail.json'))
})
