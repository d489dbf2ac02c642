import { describe, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'yi-lightning'

describe('the 01.AI provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'lingyiwanwu',
		modelRatio: { 'yi-lightning': 1 },
		channels: [{ type: CHANNEL_TYPE.lingyiwanwu, key: 'yi-api-key', models: 'yi-lightning' }],
	})

	test('sends chat to /v1/chat/completions and bills the usage the upstream reported', () => suite.expectChat(MODEL, {
		path: '/v1/chat/completions',
		authorization: 'Bearer yi-api-key',
		content: 'Hi there! How can I assist you?',
		usage: { prompt_tokens: 11, completion_tokens: 9 },
		log: { model_name: MODEL, prompt_tokens: 11, completion_tokens: 9, quota: 20 },
	}))

	test('streams chat and bills the usage of its last chunk', () => suite.expectStreamedChat(MODEL, 'Hi there!', { model_name: MODEL, is_stream: true, prompt_tokens: 11, completion_tokens: 3, quota: 14 }))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-request.json', 404, 'The model `yi-ultra` does not exist'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-key.json'))
})
