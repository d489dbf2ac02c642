import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { readStream, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'dify-app'

describe('the Dify provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'dify',
		answer: 'chat-blocking.json',
		modelRatio: { 'dify-app': 1 },
		channels: [{ type: CHANNEL_TYPE.dify, key: 'app-dify-key', models: 'dify-app' }],
	})

	test('sends one message as the query of a blocking chat-messages call and bills the reported usage', async () => {
		suite.upstream.answerWith('chat-blocking.json')
		const answer = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'iPhone 13 Pro Max specs?' }], user: 'alice' })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v1/chat-messages')
		expect(sent.headers.authorization).toBe('Bearer app-dify-key')
		expect(sent.body).toEqual({ inputs: {}, query: 'iPhone 13 Pro Max specs?', response_mode: 'blocking', user: 'alice' })
		expect(answer.model).toBe(MODEL)
		expect(answer.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'iPhone 13 Pro Max specs are listed here:...' })
		expect(answer.choices[0]!.finish_reason).toBe('stop')
		expect(answer.usage).toEqual({ prompt_tokens: 1033, completion_tokens: 135, total_tokens: 1168 })
		expect(await suite.lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 1033, completion_tokens: 135, quota: 1168 })
	})

	test('writes a longer conversation into the query as a transcript, with a default user', async () => {
		suite.upstream.answerWith('chat-blocking.json')
		await suite.client.chat.completions.create({ model: MODEL, messages: [
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: [{ type: 'text', text: 'Hi' }] },
			{ role: 'assistant', content: 'Hello.' },
			{ role: 'user', content: 'Specs?' },
		] })
		expect(suite.upstream.requests.at(-1)!.body).toEqual({ inputs: {}, query: 'system: Be brief.\nuser: Hi\nassistant: Hello.\nuser: Specs?', response_mode: 'blocking', user: 'ferry' })
	})

	test('streams message events as OpenAI chunks, skipping the others, and bills the message_end usage', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage, finishReasons } = await readStream(stream)
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ response_mode: 'streaming' })
		expect(text).toBe('Hi there!')
		expect(finishReasons.filter(Boolean)).toEqual(['stop'])
		expect(usage).toEqual({ prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 })
		expect(await suite.lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, prompt_tokens: 40, completion_tokens: 3, quota: 43 })
	})

	test('ends the client\'s stream with an error event when Dify streams an error', async () => {
		suite.upstream.answerWith('chat-stream-error.sse')
		const response = await fetch(`${suite.harness.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${(await suite.harness.createToken()).key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
		})
		const text = await response.text()
		expect(text).toContain('"content":"Hi"')
		expect(text).toContain('"error"')
		expect(text).not.toContain('[DONE]')
	})

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-param.json', 400, 'Query is required'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-unauthorized.json'))
})
