import { describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'MiniMax-Text-01'

describe('the MiniMax provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'minimax',
		modelRatio: { 'MiniMax-Text-01': 1 },
		channels: [{ type: CHANNEL_TYPE.minimax, key: 'minimax-api-key', models: 'MiniMax-Text-01' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', async () => {
		suite.upstream.answerWith('chat.json')
		const answer = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v1/chat/completions')
		expect(sent.headers.authorization).toBe('Bearer minimax-api-key')
		expect(sent.body).toEqual({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(answer.choices[0]!.message.content).toBe('Hello! How can I assist you today?')
		expect(answer.usage).toMatchObject({ prompt_tokens: 33, completion_tokens: 10 })
		expect(await suite.lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 33, completion_tokens: 10, quota: 43 })
	})

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hello! How can I help?', { model_name: MODEL, is_stream: true, prompt_tokens: 33, completion_tokens: 7, quota: 40 }))

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_function_5432112345', { prompt_tokens: 132, completion_tokens: 20 }))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-params.json', 400, 'invalid params, tool call id is invalid'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-login-fail.json'))
})
