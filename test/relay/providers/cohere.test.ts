import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { readStream, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'command-a-03-2025'

describe('the Cohere provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'cohere',
		modelRatio: { 'command-a-03-2025': 1 },
		channels: [{ type: CHANNEL_TYPE.cohere, key: 'cohere-api-key', models: 'command-a-03-2025' }],
	})

	test('converts a chat to a /v2/chat request and the answer back, billing the billed units', async () => {
		suite.upstream.answerWith('chat.json')
		const answer = await suite.client.chat.completions.create({
			model: MODEL,
			messages: [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'What is an LLM?' }] }],
			top_p: 0.9,
			stop: 'END',
			max_completion_tokens: 100,
			temperature: 0.3,
		})
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v2/chat')
		expect(sent.headers.authorization).toBe('Bearer cohere-api-key')
		expect(sent.body).toEqual({
			model: MODEL,
			messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'What is an LLM?' }] }],
			stream: false,
			max_tokens: 100,
			temperature: 0.3,
			p: 0.9,
			stop_sequences: ['END'],
		})
		expect(answer.model).toBe(MODEL)
		expect(answer.choices[0]!.message.content).toBe('LLMs are neural networks trained on large text corpora.')
		expect(answer.choices[0]!.finish_reason).toBe('stop')
		expect(answer.usage).toEqual({ prompt_tokens: 17, completion_tokens: 12, total_tokens: 29 })
		expect(await suite.lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 17, completion_tokens: 12, quota: 29 })
	})

	test('streams content deltas and bills the usage of message-end', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
		const { text, usage, finishReasons } = await readStream(stream)
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ stream: true })
		expect(suite.upstream.requests.at(-1)!.body.stream_options).toBeUndefined()
		expect(text).toBe('Hello there')
		expect(finishReasons.filter(Boolean)).toEqual(['stop'])
		expect(usage).toEqual({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 })
		expect(await suite.lastLog()).toMatchObject({ is_stream: true, prompt_tokens: 5, completion_tokens: 3, quota: 8 })
	})

	const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]

	test('sends tools, tool calls and tool results in Cohere\'s shape and returns the tool call', async () => {
		suite.upstream.answerWith('chat-tools.json')
		const answer = await suite.client.chat.completions.create({
			model: MODEL,
			tools,
			tool_choice: 'required',
			messages: [
				{ role: 'user', content: 'Weather in Paris?' },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: '{"temperature":18}' },
			],
		})
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({
			tools,
			tool_choice: 'REQUIRED',
			messages: [
				{ role: 'user', content: 'Weather in Paris?' },
				{ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: '{"temperature":18}' },
			],
		})
		expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
		expect(answer.choices[0]!.message.tool_calls).toEqual([{ id: 'get_weather_1byjy32y4hvq', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }])
		expect(await suite.lastLog()).toMatchObject({ prompt_tokens: 37, completion_tokens: 19 })
	})

	test('streams a tool call as OpenAI tool-call deltas', async () => {
		suite.upstream.answerWith('chat-tools-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }], stream: true })
		const calls: { id?: string; name?: string; arguments: string }[] = []
		const finishes: unknown[] = []
		for await (const chunk of stream) {
			for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
				calls[call.index] ??= { arguments: '' }
				if (call.id) calls[call.index]!.id = call.id
				if (call.function?.name) calls[call.index]!.name = call.function.name
				calls[call.index]!.arguments += call.function?.arguments ?? ''
			}
			if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason)
		}
		expect(calls).toEqual([{ id: 'get_weather_nsz5zm3w56q3', name: 'get_weather', arguments: '{"city":"Paris"}' }])
		expect(finishes).toEqual(['tool_calls'])
		expect(await suite.lastLog()).toMatchObject({ is_stream: true, prompt_tokens: 37, completion_tokens: 19 })
	})

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-request.json', 400, 'message must be at least 1 token long'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-invalid-token.json'))
})
