import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { anthropic } from '@/relay/providers/anthropic'
import { claudeRequestBody, DEFAULT_MAX_TOKENS } from '@/relay/providers/anthropic/request'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { fixtureJson, startFakeAnthropic, type FakeAnthropic } from '../../fixtures/providers/anthropic/fake-upstream'

const MODEL = 'claude-sonnet-4-20250514'
const CHANNEL_KEY = 'sk-ant-api03-channel-key'
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

const weatherTool = {
	type: 'function' as const,
	function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
}

describe('the Anthropic Claude provider (type 14)', () => {
	test('builds the Messages request: URL, version and key headers, system, images, tool turns and a default max_tokens', async () => {
		const channel = { type: 14, baseUrl: 'https://api.anthropic.com', key: CHANNEL_KEY, other: '', organization: '' }
		const context = { now: () => 0, fetchJson: async () => ({}) }
		const request = await anthropic.converted!.chat!.buildRequest(channel, {
			model: MODEL,
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: [{ type: 'text', text: 'What is this and what is the weather?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } }, { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } }] },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: 'toolu_1', content: '18 °C' },
				{ role: 'user', content: 'Thanks' },
			],
			tools: [weatherTool],
			tool_choice: 'required',
			stop: 'END',
			temperature: 0.2,
			stream_options: { include_usage: true },
		}, context)
		expect(request.url).toBe('https://api.anthropic.com/v1/messages')
		expect(request.headers).toEqual({ 'content-type': 'application/json', 'x-api-key': CHANNEL_KEY, 'anthropic-version': '2023-06-01' })
		expect(JSON.parse(request.body)).toEqual({
			model: MODEL,
			max_tokens: DEFAULT_MAX_TOKENS,
			system: [{ type: 'text', text: 'Be brief.' }],
			messages: [
				{ role: 'user', content: [
					{ type: 'text', text: 'What is this and what is the weather?' },
					{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
					{ type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
				] },
				{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } }] },
				{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18 °C' }, { type: 'text', text: 'Thanks' }] },
			],
			tools: [{ name: 'get_weather', description: 'Current weather', input_schema: weatherTool.function.parameters }],
			tool_choice: { type: 'any' },
			stop_sequences: ['END'],
			temperature: 0.2,
		})
	})

	test('uses the client\'s max_tokens, a dated API version from the channel, and maps named tool choice without parallel calls', async () => {
		const channel = { type: 14, baseUrl: 'https://claude.example', key: 'k', other: '2024-10-22', organization: '' }
		const request = await anthropic.converted!.chat!.buildRequest(channel, {
			model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 64, tools: [weatherTool],
			tool_choice: { type: 'function', function: { name: 'get_weather' } }, parallel_tool_calls: false,
		}, { now: () => 0, fetchJson: async () => ({}) })
		expect(request.headers['anthropic-version']).toBe('2024-10-22')
		const body = JSON.parse(request.body)
		expect(body.max_tokens).toBe(64)
		expect(body.tool_choice).toEqual({ type: 'tool', name: 'get_weather', disable_parallel_tool_use: true })
	})

	test('maps cache reads into cached prompt tokens and cache writes into the prompt without counting any token twice', () => {
		const answer = anthropic.converted!.chat!.toOpenAI(JSON.stringify(fixtureJson('message.json')), MODEL) as Record<string, any>
		expect(answer.usage).toEqual({
			prompt_tokens: 12 + 2000 + 300, completion_tokens: 10, total_tokens: 2322,
			prompt_tokens_details: { cached_tokens: 2000, cache_creation_tokens: 300 },
		})
		expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finish_reason: 'stop' })
	})

	test('a request without max_tokens gets the documented default', () => {
		expect(claudeRequestBody({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }).max_tokens).toBe(DEFAULT_MAX_TOKENS)
	})
})

for (const target of databaseTargets()) {
	describe(`an OpenAI client calling a Claude channel through Ferry on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeAnthropic
		let client: OpenAI
		let channelId: number

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = startFakeAnthropic()
			channelId = await harness.createChannel({ type: 14, key: CHANNEL_KEY, base_url: upstream.url, models: MODEL, auto_ban: 1 })
			client = harness.client((await harness.createToken()).key)
		})
		afterAll(async () => {
			await harness.close()
			await upstream.stop()
		})

		const lastLog = async () => {
			const answer = await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })
			return answer.body.data.items[0] as Record<string, any>
		}

		test('answers a chat completion from Claude\'s message, with the cache-aware usage billed', async () => {
			const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be kind.' }, { role: 'user', content: 'Hello' }] })
			expect(answer.choices[0]!.message.content).toBe('Hello! How can I help you today?')
			expect(answer.choices[0]!.finish_reason).toBe('stop')
			expect(answer.usage).toMatchObject({ prompt_tokens: 2312, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 2000 } })
			const sent = upstream.requests.at(-1)!
			expect(sent.method).toBe('POST')
			expect(sent.path).toBe('/v1/messages')
			expect(sent.headers['x-api-key']).toBe(CHANNEL_KEY)
			expect(sent.headers['anthropic-version']).toBe('2023-06-01')
			expect(sent.headers.authorization).toBeUndefined()
			expect(sent.body).toEqual({ model: MODEL, max_tokens: DEFAULT_MAX_TOKENS, system: [{ type: 'text', text: 'Be kind.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] })
			expect(await lastLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 2312, completion_tokens: 10, is_stream: false, other: { cache_tokens: 2000 } })
		})

		test('streams Claude\'s events as OpenAI chunks with the usage in a final chunk', async () => {
			const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
			let text = ''
			let finish: string | null | undefined
			let usage: OpenAI.CompletionUsage | null | undefined
			for await (const chunk of stream) {
				text += chunk.choices[0]?.delta?.content ?? ''
				finish = chunk.choices[0]?.finish_reason ?? finish
				if (chunk.usage) usage = chunk.usage
			}
			expect(text).toBe('Hello from Claude')
			expect(finish).toBe('stop')
			expect(usage).toMatchObject({ prompt_tokens: 1025, completion_tokens: 15, prompt_tokens_details: { cached_tokens: 1000 } })
			expect(upstream.requests.at(-1)!.body.stream).toBe(true)
			expect(await lastLog()).toMatchObject({ prompt_tokens: 1025, completion_tokens: 15, is_stream: true })
		})

		test('turns tool_use into tool calls with JSON-string arguments and thinking into reasoning_content', async () => {
			const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool] })
			const message = answer.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string }
			expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
			expect(message.content).toBe('I\'ll check the weather in Paris.')
			expect(message.reasoning_content).toBe('The user wants the weather in Paris; I should call get_weather.')
			expect(message.tool_calls).toEqual([{ id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France","unit":"celsius"}' } }])
			expect(upstream.requests.at(-1)!.body.tools).toEqual([{ name: 'get_weather', description: 'Current weather', input_schema: weatherTool.function.parameters }])
		})

		test('streams a tool call: the id and name first, then the argument pieces, finishing with tool_calls', async () => {
			const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather?' }], tools: [weatherTool], stream: true })
			let reasoning = ''
			let argumentsText = ''
			const ids: string[] = []
			let finish: string | null | undefined
			for await (const chunk of stream) {
				const delta = chunk.choices[0]?.delta as (OpenAI.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string }) | undefined
				reasoning += delta?.reasoning_content ?? ''
				for (const call of delta?.tool_calls ?? []) {
					if (call.id) ids.push(`${call.id}:${call.function?.name}:${call.index}`)
					argumentsText += call.function?.arguments ?? ''
				}
				finish = chunk.choices[0]?.finish_reason ?? finish
			}
			expect(reasoning).toBe('The user wants the weather; I should call get_weather.')
			expect(ids).toEqual(['toolu_01T1x1fJ34qAmk2tNTrN7Up6:get_weather:0'])
			expect(JSON.parse(argumentsText)).toEqual({ location: 'Paris, France' })
			expect(finish).toBe('tool_calls')
			expect(await lastLog()).toMatchObject({ prompt_tokens: 472, completion_tokens: 89 })
		})

		test('passes an upstream error\'s status and message to the client in OpenAI\'s shape', async () => {
			upstream.answerNext('error-invalid-request.json', 400)
			const failure = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
			expect(failure).toBeInstanceOf(OpenAI.APIError)
			expect(failure.status).toBe(400)
			expect(failure.error).toMatchObject({ message: fixtureJson('error-invalid-request.json').error.message, type: 'upstream_error' })
		})

		test('ends the client\'s stream with an error when Claude sends an error event mid-stream', async () => {
			upstream.answerNext('error-stream.sse')
			const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true })
			let text = ''
			const failure = await (async () => {
				for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
			})().catch((error) => error)
			expect(text).toBe('Hello')
			expect(failure).toBeInstanceOf(Error)
		})

		test('reports a rejected channel key as 502 and disables the channel', async () => {
			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
			upstream.answerNext('error-authentication.json', 401)
			const failure = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
			expect(failure.status).toBe(502)
			expect(failure.error.message).toBe('the upstream rejected the channel credentials')
			const channel = await harness.ferry.call('GET', `/api/channel/${channelId}`, { as: harness.root })
			expect(channel.body.data.status).toBe(3)
		})
	})
}
