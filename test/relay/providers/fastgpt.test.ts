import { describe, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'fastgpt-app'

describe('the FastGPT provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'fastgpt',
		modelRatio: { 'fastgpt-app': 1 },
		channels: [{ type: CHANNEL_TYPE.fastgpt, key: 'fastgpt-z51pkjqm9nrk03a1rx2funoy-6641b7a1c0d6b9e1f2a3b4c5', models: 'fastgpt-app' }],
	})

	// The whole APIKey-AppId key: FastGPT reads the app from its suffix.
	test('sends chat to /api/v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/api/v1/chat/completions',
		authorization: 'Bearer fastgpt-z51pkjqm9nrk03a1rx2funoy-6641b7a1c0d6b9e1f2a3b4c5',
		content: '电影《满江红》的导演是张艺谋。',
		usage: { prompt_tokens: 1, completion_tokens: 5 },
		log: { model_name: MODEL, prompt_tokens: 1, completion_tokens: 5, quota: 6 },
	}))

	test('streams chat and, as FastGPT streams no usage, bills a local count', () => suite.expectStreamedChat(MODEL, '导演是张艺谋。', { model_name: MODEL, is_stream: true, other: { local_count_tokens: true } }))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-app-not-found.json', 500, 'App not found'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-key-invalid.json'))
})
