import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { readStream, setUpProviderTest } from '../../helpers/fixture-upstream'
import { verifiedZhipuToken } from '../../fixtures/providers/zhipu/verified-token'

const KEY_ID = 'ferryzhipuid'
const KEY_SECRET = 'ferryzhipusecret'
const MODEL = 'chatglm_turbo'
const MILLISECONDS_TOLERANCE = 60_000

describe('the Zhipu v3 provider (type 16)', () => {
	const suite = setUpProviderTest({
		fixtures: 'zhipu',
		modelRatio: { [MODEL]: 1 },
		channels: [{ type: 16, key: `${KEY_ID}.${KEY_SECRET}`, models: MODEL }],
	})

	test('a chat call goes to the model\'s invoke URL with a JWT signed by the key secret', async () => {
		suite.upstream.answerWith('invoke-answer.json')
		const reply = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }], temperature: 0.7 })
		expect(reply.choices[0]!.message.content).toBe(' Hello from ChatGLM')
		expect(reply.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 })

		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe(`/api/paas/v3/model-api/${MODEL}/invoke`)
		expect(sent.body).toEqual({
			prompt: [{ role: 'user', content: 'Be brief' }, { role: 'assistant', content: 'Okay' }, { role: 'user', content: 'Say hello' }],
			temperature: 0.7,
		})
		const { header, payload } = verifiedZhipuToken(sent.headers.authorization!, KEY_SECRET)
		expect(header).toEqual({ alg: 'HS256', sign_type: 'SIGN' })
		expect(payload.api_key).toBe(KEY_ID)
		expect(Math.abs(payload.timestamp - Date.now())).toBeLessThan(MILLISECONDS_TOLERANCE)
		expect(payload.exp).toBeGreaterThan(payload.timestamp)
	})

	test('the call is billed with the tokens Zhipu reported', async () => {
		suite.upstream.answerWith('invoke-answer.json')
		await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await suite.lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 9, completion_tokens: 6, is_stream: false })
	})

	test('an sse-invoke stream becomes OpenAI chunks with the usage from the finish event, and is billed', async () => {
		suite.upstream.answerWith('sse-invoke.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage, finishReasons } = await readStream(stream)
		expect(text).toBe(' Hello from ChatGLM')
		expect(finishReasons.at(-1)).toBe('stop')
		expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 6 })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.path).toBe(`/api/paas/v3/model-api/${MODEL}/sse-invoke`)
		expect(sent.body.incremental).toBe(true)
		expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 9, completion_tokens: 6, is_stream: true })
	})

	test('success: false in a 200 answer is an error for the client, not a billed answer', async () => {
		const failure = await suite.failsUnbilled(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }), 'error-answer.json')
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
	})

	test('an error answered to a stream request ends the stream with an error, unbilled', async () => {
		const failure = await suite.failsUnbilled(async () => readStream(await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true })), 'error-answer.json')
		expect(failure).toBeInstanceOf(Error)
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }), 'error-answer.json'))
})
