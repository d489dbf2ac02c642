import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { tc3Signature } from '@/relay/providers/tencent/signer'
import { failureOf, fixturePath, readStream, setUpProviderTest } from '../../helpers/fixture-upstream'

const fixture = (name: string) => Bun.file(fixturePath('tencent', name)).text()
const SECRET_ID = 'AKIDferrytest0000000000000000000000'
const SECRET_KEY = 'ferry-test-secret-key-000000000000'
const MODEL = 'hunyuan-lite'
const SECONDS_TOLERANCE = 60

describe('the Tencent Hunyuan provider (type 23)', () => {
	const suite = setUpProviderTest({
		fixtures: 'tencent',
		modelRatio: { [MODEL]: 1 },
		channels: [{ type: 23, key: `1300000000|${SECRET_ID}|${SECRET_KEY}`, models: MODEL }],
	})

	test('the signer reproduces the signature of Tencent\'s published worked example', async () => {
		const example = JSON.parse(await fixture('signature-example.json'))
		const signed = tc3Signature(example)
		expect(signed.signature).toBe(example.signature)
		expect(signed.authorization).toBe(example.authorization)
	})

	test('a chat call is sent as a signed ChatCompletions action and answered in OpenAI\'s shape', async () => {
		suite.upstream.answerWith('chat-answer.json')
		const reply = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Say hello' }], temperature: 0.5 })
		expect(reply.choices[0]!.message.content).toBe('Hello from Hunyuan')
		expect(reply.choices[0]!.finish_reason).toBe('stop')
		expect(reply.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 })

		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/')
		expect(sent.headers['x-tc-action']).toBe('ChatCompletions')
		expect(sent.headers['x-tc-version']).toBe('2023-09-01')
		expect(sent.body).toEqual({ Model: MODEL, Messages: [{ Role: 'system', Content: 'Be brief' }, { Role: 'user', Content: 'Say hello' }], Stream: false, Temperature: 0.5 })
		const timestamp = Number(sent.headers['x-tc-timestamp'])
		expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(SECONDS_TOLERANCE)
		const expected = tc3Signature({
			secretId: SECRET_ID, secretKey: SECRET_KEY, service: 'hunyuan', host: sent.headers.host!, contentType: sent.headers['content-type']!, timestamp, payload: sent.rawBody,
		})
		expect(sent.headers.authorization).toBe(expected.authorization)
		expect(sent.headers.authorization).toStartWith(`TC3-HMAC-SHA256 Credential=${SECRET_ID}/${new Date(timestamp * 1000).toISOString().slice(0, 10)}/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=`)
	})

	test('the call is billed with the tokens Hunyuan reported', async () => {
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
		expect(await suite.lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 12, completion_tokens: 5, is_stream: false })
	})

	test('a stream becomes OpenAI chunks with the usage in a final chunk, and is billed', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage, finishReasons } = await readStream(stream)
		expect(text).toBe('Hello from Hunyuan')
		expect(finishReasons.at(-1)).toBe('stop')
		expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5 })
		expect(suite.upstream.requests.at(-1)!.body.Stream).toBe(true)
		expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, is_stream: true })
	})

	test('tools are sent as Hunyuan tools and tool calls come back as OpenAI tool_calls', async () => {
		suite.upstream.answerWith('tool-call-answer.json')
		const parameters = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] }
		const reply = await suite.client.chat.completions.create({
			model: MODEL,
			messages: [{ role: 'user', content: 'Weather in Shenzhen?' }],
			tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters } }],
		})
		expect(reply.choices[0]!.finish_reason).toBe('tool_calls')
		expect(reply.choices[0]!.message.tool_calls).toEqual([{ id: 'call_hunyuan_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Shenzhen"}' } }])
		expect(suite.upstream.requests.at(-1)!.body.Tools).toEqual([{ Type: 'function', Function: { Name: 'get_weather', Description: 'Current weather', Parameters: JSON.stringify(parameters) } }])
	})

	test('a tool result goes back as a tool message with its call id', async () => {
		suite.upstream.answerWith('chat-answer.json')
		await suite.client.chat.completions.create({
			model: MODEL,
			messages: [
				{ role: 'user', content: 'Weather in Shenzhen?' },
				{ role: 'assistant', content: '', tool_calls: [{ id: 'call_hunyuan_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Shenzhen"}' } }] },
				{ role: 'tool', tool_call_id: 'call_hunyuan_1', content: 'Sunny, 28°C' },
			],
		})
		expect(suite.upstream.requests.at(-1)!.body.Messages.slice(1)).toEqual([
			{ Role: 'assistant', Content: '', ToolCalls: [{ Id: 'call_hunyuan_1', Type: 'function', Function: { Name: 'get_weather', Arguments: '{"location":"Shenzhen"}' } }] },
			{ Role: 'tool', Content: 'Sunny, 28°C', ToolCallId: 'call_hunyuan_1' },
		])
	})

	test('an error Tencent Cloud answers with HTTP 200 reaches the client as an error and is not billed', async () => {
		const failure = await suite.failsUnbilled(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }), 'error-answer.json')
		expect(failure).toBeInstanceOf(OpenAI.APIError)
		expect(failure!.status).toBe(502)
	})

	test('the same error answered to a stream request ends the stream with an error, unbilled', async () => {
		const failure = await suite.failsUnbilled(async () => readStream(await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true })), 'error-answer.json')
		expect(failure).toBeInstanceOf(Error)
	})

	test('an upstream 401 becomes a 502 saying the channel credentials were rejected', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }), 'error-answer.json'))

	test('an AuthFailure answered with HTTP 200 counts as rejected credentials and disables the channel when auto-disable is on', async () => {
		await suite.harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
		suite.upstream.answerWith('error-answer.json')
		const failure = await failureOf(suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
		expect(failure!.status).toBe(502)
		expect(failure!.message).toContain('the upstream rejected the channel credentials')
		const channels = await suite.harness.ferry.call('GET', '/api/channel/', { as: suite.harness.root })
		expect(channels.body.data.items[0].status).toBe(3)
	})
})
