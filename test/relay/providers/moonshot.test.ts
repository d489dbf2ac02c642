import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'moonshot-v1-8k'

describe('the Moonshot provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'moonshot',
		modelRatio: { [MODEL]: 1 },
		channels: [{ type: CHANNEL_TYPE.moonshot, key: 'sk-moonshot-key', models: MODEL }],
	})

	test('sends chat to /v1/chat/completions with the key as a bearer token and bills the reported usage', () => suite.expectChat(MODEL, {
		path: '/v1/chat/completions',
		authorization: 'Bearer sk-moonshot-key',
		content: 'Hello! How can I help you today?',
		usage: { prompt_tokens: 19, completion_tokens: 9 },
		log: { model_name: MODEL, prompt_tokens: 19, completion_tokens: 9, quota: 28 },
	}))

	test('streams chat and bills the streamed call', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		expect(text).toBe('Hello!')
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
		// Moonshot puts the stream's usage inside the last choice, where OpenAI's convention does not look: counted locally.
		expect(await suite.lastLog()).toMatchObject({ model_name: MODEL, is_stream: true, other: { local_count_tokens: true } })
		expect((await suite.lastLog()).quota).toBeGreaterThan(0)
	})

	test('passes tools upstream and returns the tool call', async () => {
		suite.upstream.answerWith('chat-tools.json')
		const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
		const answer = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Beijing?' }], tools })
		expect(suite.upstream.requests.at(-1)!.body.tools).toEqual(tools)
		expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
		expect(answer.choices[0]!.message.tool_calls).toEqual([
			{ index: 0, id: 'get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Beijing"}' } } as never,
		])
		expect(await suite.lastLog()).toMatchObject({ prompt_tokens: 64, completion_tokens: 14 })
	})

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-request.json', 400, 'Your request exceeded model token limit: 8192'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-authentication.json'))
})
