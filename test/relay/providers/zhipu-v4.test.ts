import { describe, expect, test } from 'bun:test'
import { readStream, setUpProviderTest } from '../../helpers/fixture-upstream'
import { verifiedZhipuToken } from '../../fixtures/providers/zhipu/verified-token'

const KEY_ID = 'ferryglmid'
const KEY_SECRET = 'ferryglmsecret'
const MILLISECONDS_TOLERANCE = 60_000

describe('the Zhipu GLM v4 provider (type 26)', () => {
	const suite = setUpProviderTest({
		fixtures: 'zhipu-v4',
		modelRatio: { 'glm-4': 1, 'embedding-2': 1 },
		channels: [{ type: 26, key: `${KEY_ID}.${KEY_SECRET}`, models: 'glm-4,embedding-2' }],
	})

	test('a chat call is passed to /api/paas/v4 with a Bearer JWT signed by the key secret', async () => {
		suite.upstream.answerWith('chat-answer.json')
		const reply = await suite.client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(reply.choices[0]!.message.content).toBe('Hello from GLM-4')
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/api/paas/v4/chat/completions')
		expect(sent.body).toMatchObject({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(sent.headers.authorization).toStartWith('Bearer ')
		const { header, payload } = verifiedZhipuToken(sent.headers.authorization!.slice('Bearer '.length), KEY_SECRET)
		expect(header).toEqual({ alg: 'HS256', sign_type: 'SIGN' })
		expect(payload.api_key).toBe(KEY_ID)
		expect(Math.abs(payload.timestamp - Date.now())).toBeLessThan(MILLISECONDS_TOLERANCE)
		expect(payload.exp).toBeGreaterThan(payload.timestamp)
	})

	test('the call is billed with the reported tokens, cached prompt tokens included', async () => {
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] })
		const entry = await suite.lastConsumeLog()
		expect(entry).toMatchObject({ model_name: 'glm-4', prompt_tokens: 11, completion_tokens: 5 })
		expect(entry!.other.cache_tokens).toBe(4)
	})

	test('a stream passes through with its usage and is billed', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage } = await readStream(stream)
		expect(text).toBe('Hello from GLM-4')
		expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5 })
		expect(suite.upstream.requests.at(-1)!.body.stream).toBe(true)
		expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 11, completion_tokens: 5, is_stream: true })
	})

	test('embeddings go to /api/paas/v4/embeddings', async () => {
		suite.upstream.answerWith('embedding-answer.json')
		const reply = await suite.client.embeddings.create({ model: 'embedding-2', input: 'hello' })
		expect(reply.data[0]!.embedding).toHaveLength(3)
		expect(suite.upstream.requests.at(-1)!.path).toBe('/api/paas/v4/embeddings')
		expect(await suite.lastConsumeLog()).toMatchObject({ model_name: 'embedding-2', prompt_tokens: 4 })
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: 'glm-4', messages: [{ role: 'user', content: 'Say hello' }] }), 'error-401.json'))
})
