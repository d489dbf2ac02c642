import { beforeEach, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import OpenAI from 'openai'
import { failureOf, setUpProviderTest } from '../../helpers/fixture-upstream'

const KEY_ID = 'ferryzhipuid'
const KEY_SECRET = 'ferryzhipusecret'
const MODEL = 'chatglm_turbo'
const MILLISECONDS_TOLERANCE = 60_000

/** Checks a Zhipu JWT independently of the adaptor: HS256 over `header.payload` with the secret. */
function verifiedZhipuToken(token: string, secret: string) {
	const [header, payload, signature] = token.split('.')
	const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
	if (signature !== expected) throw new Error('the JWT signature does not match the key secret')
	return { header: JSON.parse(Buffer.from(header!, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) }
}

describe('the Zhipu v3 provider (type 16)', () => {
	const suite = setUpProviderTest({
		fixtures: 'zhipu',
		modelRatio: { [MODEL]: 1 },
		channels: [{ type: 16, key: `${KEY_ID}.${KEY_SECRET}`, models: MODEL }],
	})
	beforeEach(() => {
		suite.upstream.requests.length = 0
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
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		const finishReasons: (string | null)[] = []
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.choices[0]) finishReasons.push(chunk.choices[0].finish_reason)
			if (chunk.usage) usage = chunk.usage
		}
		expect(text).toBe(' Hello from ChatGLM')
		expect(finishReasons.at(-1)).toBe('stop')
		expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 6 })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.path).toBe(`/api/paas/v3/model-api/${MODEL}/sse-invoke`)
		expect(sent.body.incremental).toBe(true)
		expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 9, completion_tokens: 6, is_stream: true })
	})

	test('success: false in a 200 answer is an error for the client, not a billed answer', async () => {
		const before = await suite.lastConsumeLog()
		suite.upstream.answerWith('error-answer.json')
		const failure = await failureOf(suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
		expect((await suite.lastConsumeLog())?.id).toBe(before?.id)
	})

	test('an error answered to a stream request ends the stream with an error, unbilled', async () => {
		const before = await suite.lastConsumeLog()
		suite.upstream.answerWith('error-answer.json')
		const failure = await failureOf((async () => {
			const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true })
			for await (const chunk of stream) void chunk
		})())
		expect(failure).toBeInstanceOf(Error)
		expect((await suite.lastConsumeLog())?.id).toBe(before?.id)
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }), 'error-answer.json'))
})
