import { describe, expect, test } from 'bun:test'
import { readStream, setUpProviderTest } from '../../helpers/fixture-upstream'

const API_KEY = 'bce-v3/ALTAK-ferrytest/0123456789abcdef'
const APP_ID = 'app-ferry42'
const MODEL = 'ernie-4.0-turbo-8k'

describe('the Baidu Qianfan V2 provider (type 46)', () => {
	const suite = setUpProviderTest({
		fixtures: 'baidu-v2',
		modelRatio: { [MODEL]: 1, 'ernie-speed-8k': 1 },
		channels: [{ type: 46, key: API_KEY, models: MODEL }, { type: 46, key: `${API_KEY}|${APP_ID}`, models: 'ernie-speed-8k' }],
	})

	test('a chat call is passed to /v2/chat/completions with the API key as a Bearer token', async () => {
		suite.upstream.answerWith('chat-answer.json')
		const reply = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(reply.choices[0]!.message.content).toBe('Hello from Qianfan')
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v2/chat/completions')
		expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`)
		expect(sent.headers.appid).toBeUndefined()
		expect(sent.body).toMatchObject({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await suite.lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 3, completion_tokens: 4 })
	})

	test('a key written APIKey|AppId also sends the application id in the appid header', async () => {
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({ model: 'ernie-speed-8k', messages: [{ role: 'user', content: 'Say hello' }] })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`)
		expect(sent.headers.appid).toBe(APP_ID)
	})

	test('a stream passes through with its usage and is billed', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage } = await readStream(stream)
		expect(text).toBe('Hello from Qianfan')
		expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 })
		expect(suite.upstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true })
		expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, is_stream: true })
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }), 'error-401.json'))
})
