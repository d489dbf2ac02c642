import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MESSAGES } from '@shared/api'
import Anthropic from '@anthropic-ai/sdk'
import { canonicalFromClaude } from '@/relay/formats/claude/request'
import { claudeRequestBody } from '@/relay/providers/anthropic/request'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { fakeClaudeCount, fixtureJson, startFakeAnthropic, type FakeAnthropic } from '../fixtures/providers/anthropic/fake-upstream'

const OPENAI_MODEL = 'gpt-4o-mini'
const CLAUDE_MODEL = 'claude-sonnet-4-20250514'
/** Served by the Anthropic channel under this name, mapped to CLAUDE_MODEL. */
const CLAUDE_ALIAS = 'claude-house-default'
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const weatherTool = { name: 'get_weather', description: 'Current weather', input_schema: { type: 'object' as const, properties: { location: { type: 'string' } }, required: ['location'] } }

/** A Claude conversation with every block kind the converters must keep: system, images, tool use and results, thinking. */
const conversation = {
	model: CLAUDE_MODEL,
	max_tokens: 1024,
	system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
	messages: [
		{ role: 'user', content: [{ type: 'text', text: 'Weather where this photo was taken?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } }] },
		{ role: 'assistant', content: [
			{ type: 'thinking', thinking: 'Paris, probably.', signature: 'sig-123' },
			{ type: 'text', text: 'Checking.' },
			{ type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { location: 'Paris' } },
			{ type: 'tool_use', id: 'toolu_B', name: 'get_weather', input: { location: 'Lyon' } },
		] },
		{ role: 'user', content: [
			{ type: 'tool_result', tool_use_id: 'toolu_A', content: '18 °C' },
			{ type: 'tool_result', tool_use_id: 'toolu_B', content: [{ type: 'text', text: 'rain' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }], is_error: true },
			{ type: 'text', text: 'And tomorrow?' },
		] },
	],
	tools: [weatherTool],
	tool_choice: { type: 'auto', disable_parallel_tool_use: true },
	thinking: { type: 'enabled', budget_tokens: 512 },
	stop_sequences: ['END'],
	temperature: 0.5,
}

describe('converting between Claude\'s and OpenAI\'s request formats', () => {
	test('a Claude conversation becomes OpenAI messages with tool ids, JSON arguments and images kept', () => {
		const body = canonicalFromClaude(conversation).body as Record<string, any>
		expect(body.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user'])
		expect(body.messages[1].content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } })
		expect(body.messages[1].content[2]).toEqual({ type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } })
		expect(body.messages[2].tool_calls).toEqual([
			{ id: 'toolu_A', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
			{ id: 'toolu_B', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Lyon"}' } },
		])
		expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'toolu_A', content: '18 °C' })
		expect(body.tool_choice).toBe('auto')
		expect(body.parallel_tool_calls).toBe(false)
		expect(body.stop).toEqual(['END'])
	})

	test('a Claude conversation survives the round trip through the OpenAI form unchanged', () => {
		const { body, extras } = canonicalFromClaude(conversation)
		const back = claudeRequestBody(body, extras) as Record<string, any>
		expect(back.system).toEqual(conversation.system)
		expect(back.messages).toEqual([
			conversation.messages[0],
			conversation.messages[1],
			{ role: 'user', content: [
				{ type: 'tool_result', tool_use_id: 'toolu_A', content: '18 °C' },
				{ type: 'tool_result', tool_use_id: 'toolu_B', content: [{ type: 'text', text: 'rain' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }], is_error: true },
				{ type: 'text', text: 'And tomorrow?' },
			] },
		])
		expect(back.tools).toEqual(conversation.tools)
		expect(back.tool_choice).toEqual(conversation.tool_choice)
		expect(back.thinking).toEqual(conversation.thinking)
		expect(back).toMatchObject({ max_tokens: 1024, stop_sequences: ['END'], temperature: 0.5 })
	})

	test('blocks, tools and settings only Claude\'s API knows convert or drop instead of failing the request', () => {
		const body = canonicalFromClaude({
			model: CLAUDE_MODEL,
			max_tokens: 1024,
			messages: [
				{ role: 'user', content: [
					{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Ferry ships tomorrow.' } },
					{ type: 'search_result', source: 'https://example.com', title: 'Ferry', content: [{ type: 'text', text: 'Ferry is a gateway.' }] },
					{ type: 'image', source: { type: 'file', file_id: 'file_011' } },
					{ type: 'container_upload', file_id: 'file_012' },
					{ type: 'text', text: 'Summarise.' },
				] },
				{ role: 'system', content: [{ type: 'text', text: 'Answer in French.' }, { type: 'tool_addition', tool: { name: 'Later' } }], clear_at: 'next_user_message' },
				{ role: 'assistant', content: [
					{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'ferry' } },
					{ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
					{ type: 'text', text: 'Résumé.' },
				] },
				{ role: 'user', content: 'Merci' },
			],
			tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
			tool_choice: { type: 'auto' },
			thinking: { type: 'adaptive', display: 'omitted' },
			context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
			output_config: { effort: 'low', format: { type: 'json_schema', schema: { type: 'object', properties: { summary: { type: 'string' } } } } },
		}).body as Record<string, any>
		expect(body.messages).toEqual([
			{ role: 'user', content: 'Ferry ships tomorrow.\nFerry is a gateway.\nSummarise.' },
			{ role: 'system', content: 'Answer in French.' },
			{ role: 'assistant', content: 'Résumé.' },
			{ role: 'user', content: 'Merci' },
		])
		expect(body.tools).toBeUndefined()
		expect(body.tool_choice).toBeUndefined()
		expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object', properties: { summary: { type: 'string' } } } } })
		expect(body).not.toHaveProperty('context_management')
		expect(body).not.toHaveProperty('output_config')
	})

	test('an OpenAI tool conversation survives the round trip through Claude\'s form', () => {
		const openAI = {
			model: OPENAI_MODEL,
			messages: [
				{ role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${PIXEL}` } }] },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
			],
		}
		const claude = claudeRequestBody(openAI)
		const back = canonicalFromClaude(claude).body as Record<string, any>
		expect(back.messages).toEqual(openAI.messages)
	})
})

for (const target of databaseTargets()) {
	describe(`Claude-format clients through the official Anthropic SDK on ${target.dialect}`, () => {
		let harness: RelayHarness
		let openAIUpstream: FakeOpenAI
		let claudeUpstream: FakeAnthropic
		let key: string
		let client: Anthropic

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			openAIUpstream = harness.startUpstream({ promptTokens: 1000, completionTokens: 200, toolCalls: true })
			claudeUpstream = startFakeAnthropic()
			await harness.createChannel({ base_url: openAIUpstream.url, models: OPENAI_MODEL })
			await harness.createChannel({ type: 14, key: 'sk-ant-channel', base_url: claudeUpstream.url, models: `${CLAUDE_MODEL},${CLAUDE_ALIAS}`, model_mapping: JSON.stringify({ [CLAUDE_ALIAS]: CLAUDE_MODEL }) })
			key = (await harness.createToken()).key
			client = new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
		})
		afterAll(async () => {
			await harness.close()
			await claudeUpstream.stop()
		})

		const lastLog = async () => {
			const answer = await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })
			return answer.body.data.items[0] as Record<string, any>
		}

		test('messages.create on an OpenAI upstream answers a Claude message with usage', async () => {
			const message = await client.messages.create({ model: OPENAI_MODEL, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello' }] })
			expect(message).toMatchObject({ type: 'message', role: 'assistant', model: OPENAI_MODEL, stop_reason: 'end_turn', content: [{ type: 'text', text: 'Hello from fake-openai' }] })
			expect(message.usage).toMatchObject({ input_tokens: 1000, output_tokens: 200 })
			const sent = openAIUpstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/chat/completions')
			expect(sent.body).toMatchObject({ model: OPENAI_MODEL, max_tokens: 100, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }] })
		})

		test('a Claude-format call is billed the same as an OpenAI-format call with the same usage', async () => {
			await client.messages.create({ model: OPENAI_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
			const claudeEntry = await lastLog()
			await harness.client(key).chat.completions.create({ model: OPENAI_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
			const openAIEntry = await lastLog()
			expect(claudeEntry.request_id).not.toBe(openAIEntry.request_id)
			expect(claudeEntry).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, quota: openAIEntry.quota })
			expect(openAIEntry.quota).toBeGreaterThan(0)
		})

		test('messages.stream on an OpenAI upstream gives Claude\'s event sequence and the final usage', async () => {
			const stream = client.messages.stream({ model: OPENAI_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Say hello' }] })
			const types: string[] = []
			let start: any
			stream.on('streamEvent', (event) => {
				types.push(event.type)
				if (event.type === 'message_start') start = event
			})
			const message = await stream.finalMessage()
			expect(message.content as unknown).toEqual([{ type: 'text', text: 'Hello from fake-openai' }])
			expect(message.usage).toMatchObject({ input_tokens: 1000, output_tokens: 200 })
			expect(types[0]).toBe('message_start')
			expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop'])
			// The upstream reports the prompt only at the end: message_start carries it as Ferry counted it.
			expect(start?.message.usage.input_tokens).toBeGreaterThan(0)
			expect(openAIUpstream.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true })
			expect(await lastLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, is_stream: true })
		})

		test('tool use on an OpenAI upstream comes back as tool_use blocks, streamed and not', async () => {
			const message = await client.messages.create({ model: OPENAI_MODEL, max_tokens: 100, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather?' }] })
			expect(message.stop_reason).toBe('tool_use')
			expect(message.content as unknown).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^call_fake_/), name: 'get_weather', input: { location: 'Paris' } }])
			expect(openAIUpstream.requests.at(-1)!.body.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: weatherTool.input_schema } }])
			const streamed = await client.messages.stream({ model: OPENAI_MODEL, max_tokens: 100, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather?' }] }).finalMessage()
			expect(streamed.stop_reason).toBe('tool_use')
			expect(streamed.content as unknown).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^call_fake_/), name: 'get_weather', input: { location: 'Paris' } }])
		})

		test('messages.create on a Claude upstream keeps thinking blocks with their signature, and takes them back next turn', async () => {
			const message = await client.messages.create({ model: CLAUDE_MODEL, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
			const recorded = fixtureJson('tool-use.json')
			expect(message.content).toEqual(recorded.content)
			expect(message.usage).toMatchObject({ input_tokens: 472, output_tokens: 91, cache_read_input_tokens: 0 })
			expect(claudeUpstream.requests.at(-1)!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })
			await client.messages.create({
				model: CLAUDE_MODEL, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool],
				messages: [
					{ role: 'user', content: 'Weather in Paris?' },
					{ role: 'assistant', content: message.content as Anthropic.ContentBlockParam[] },
					{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18 °C' }] },
				],
			})
			const sent = claudeUpstream.requests.at(-1)!.body
			expect(sent.messages[1]).toEqual({ role: 'assistant', content: recorded.content })
			expect(sent.messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18 °C' }] })
		})

		test('with answers checked for sensitive words, a Claude upstream\'s thinking blocks, text and tool input reach a Claude client masked, whole and streamed', async () => {
			const options = harness.ferry.dependencies.options
			const settings = { CheckSensitiveEnabled: 'true', CheckSensitiveOnCompletionEnabled: 'true', StopOnSensitiveEnabled: 'false', SensitiveWords: 'Paris' }
			const previous = Object.fromEntries(Object.keys(settings).map((name) => [name, String(options.get(name as never))]))
			for (const [name, value] of Object.entries(settings)) await options.set(name, value)
			try {
				const request = { model: CLAUDE_MODEL, max_tokens: 2048, tools: [weatherTool], messages: [{ role: 'user' as const, content: 'Weather?' }] }
				const whole = await client.messages.create(request)
				expect(whole.content as unknown).toEqual([
					{ type: 'thinking', thinking: 'The user wants the weather in **###**; I should call get_weather.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
					{ type: 'text', text: 'I\'ll check the weather in **###**.' },
					{ type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: '**###**, France', unit: 'celsius' } },
				])
				const streamed = await client.messages.stream(request).finalMessage()
				expect(JSON.stringify(streamed.content)).not.toContain('Paris')
				expect(streamed.content.find((block) => block.type === 'tool_use')).toMatchObject({ input: { location: '**###**, France' } })
			} finally {
				for (const [name, value] of Object.entries(previous)) await options.set(name, value)
			}
		})

		test('thinking blocks a Claude client sends back never reach an OpenAI-format upstream', async () => {
			await client.messages.create({
				model: OPENAI_MODEL, max_tokens: 100,
				messages: [
					{ role: 'user', content: 'Hi' },
					{ role: 'assistant', content: [{ type: 'thinking', thinking: 'Greet back.', signature: 'sig-1' }, { type: 'text', text: 'Hello' }] },
					{ role: 'user', content: 'Again' },
				],
			})
			const sent = openAIUpstream.requests.at(-1)!.body
			expect(sent.messages.map((message: Record<string, unknown>) => Object.keys(message).sort())).toEqual([['content', 'role'], ['content', 'role'], ['content', 'role']])
			expect(JSON.stringify(sent)).not.toContain('sig-1')
		})

		test('messages.stream on a Claude upstream streams thinking with its signature, text and tool use', async () => {
			const message = await client.messages.stream({ model: CLAUDE_MODEL, max_tokens: 2048, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather?' }] }).finalMessage()
			expect(message.content as unknown).toEqual([
				{ type: 'thinking', thinking: 'The user wants the weather; I should call get_weather.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
				{ type: 'text', text: 'Checking the weather.' },
				{ type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: { location: 'Paris, France' } },
			])
			expect(message.stop_reason).toBe('tool_use')
			expect(message.usage).toMatchObject({ input_tokens: 472, output_tokens: 89 })
		})

		test('an error event a Claude upstream sends mid-stream reaches the Claude client as it was sent', async () => {
			claudeUpstream.answerNext('error-stream.sse')
			const failure = await client.messages.stream({ model: CLAUDE_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage().catch((error) => error)
			expect(failure).toBeInstanceOf(Anthropic.APIError)
			expect(failure.error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
			expect((await lastLog()).other).toMatchObject({ stream_end: 'upstream_failed' })
		})

		test('a Claude upstream stream cut before message_stop ends the Claude client\'s stream with an error event', async () => {
			claudeUpstream.answerNext('stream-cut.sse')
			const failure = await client.messages.stream({ model: CLAUDE_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage().catch((error) => error)
			expect(failure).toBeInstanceOf(Anthropic.APIError)
			expect(failure.error).toEqual({ type: 'error', error: { type: 'api_error', message: 'the upstream stream ended before message_stop' } })
			expect((await lastLog()).other).toMatchObject({ stream_end: 'upstream_failed' })
		})

		test('cache reads and writes of a Claude upstream reach a Claude client as they were', async () => {
			const message = await client.messages.create({ model: CLAUDE_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] })
			expect(message.usage).toMatchObject({ input_tokens: 12, cache_read_input_tokens: 2000, cache_creation_input_tokens: 300, output_tokens: 10 })
			expect(await lastLog()).toMatchObject({ prompt_tokens: 2312, completion_tokens: 10 })
		})

		test('messages.countTokens counts the prompt locally and needs a valid key', async () => {
			const counted = await client.messages.countTokens({ model: OPENAI_MODEL, messages: [{ role: 'user', content: 'Hello there, how are you?' }] })
			expect(counted.input_tokens).toBeGreaterThan(5)
			const longer = await client.messages.countTokens({ model: OPENAI_MODEL, system: 'You are a meticulous assistant.', messages: [{ role: 'user', content: 'Hello there, how are you?' }] })
			expect(longer.input_tokens).toBeGreaterThan(counted.input_tokens)
			const stranger = new Anthropic({ apiKey: 'sk-not-a-token', baseURL: harness.baseUrl, maxRetries: 0 })
			const failure = await stranger.messages.countTokens({ model: OPENAI_MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
			expect(failure).toBeInstanceOf(Anthropic.AuthenticationError)
		})

		describe('messages.countTokens of a model an Anthropic channel serves', () => {
			const counted = { system: 'You are a meticulous assistant.', messages: [{ role: 'user' as const, content: 'Hello there, how are you?' }], tools: [weatherTool] }
			const consumeLogs = async () => (await harness.ferry.call('GET', '/api/log/?type=2&page_size=1', { as: harness.root })).body.data.total as number

			test('answers Anthropic\'s own count, asked with the channel\'s key and the client\'s body, version and betas, and bills nothing', async () => {
				const logsBefore = await consumeLogs()
				const before = claudeUpstream.requests.length
				const tokens = await client.beta.messages.countTokens({ model: CLAUDE_MODEL, ...counted, betas: ['token-efficient-tools-2025-02-19'] })
				const local = await client.messages.countTokens({ model: OPENAI_MODEL, ...counted })
				expect(tokens.input_tokens).toBe(fakeClaudeCount(counted))
				expect(tokens.input_tokens).not.toBe(local.input_tokens)
				expect(claudeUpstream.requests.length).toBe(before + 1)
				const sent = claudeUpstream.requests.at(-1)!
				expect(sent.path).toBe('/v1/messages/count_tokens')
				expect(sent.headers['x-api-key']).toBe('sk-ant-channel')
				// The SDK's own API version and betas (it adds token counting's) travel as it sent them.
				expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/)
				expect(sent.headers['anthropic-beta']).toContain('token-efficient-tools-2025-02-19')
				expect(sent.headers.authorization).toBeUndefined()
				expect(sent.body).toEqual({ model: CLAUDE_MODEL, ...counted })
				expect(await consumeLogs()).toBe(logsBefore)
			})

			test('goes upstream under the model\'s mapped name', async () => {
				const tokens = await client.messages.countTokens({ model: CLAUDE_ALIAS, ...counted })
				expect(tokens.input_tokens).toBe(fakeClaudeCount(counted))
				expect(claudeUpstream.requests.at(-1)!.body).toEqual({ model: CLAUDE_MODEL, ...counted })
			})

			test('answers the local count when the upstream refuses or fails, with nothing of its answer', async () => {
				const local = await client.messages.countTokens({ model: OPENAI_MODEL, ...counted })
				for (const [fixture, status] of [['error-overloaded.json', 529], ['error-authentication.json', 401], ['message.json', 200]] as const) {
					claudeUpstream.answerNext(fixture, status)
					const answer = await fetch(`${harness.baseUrl}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ model: CLAUDE_MODEL, ...counted }) })
					expect(answer.status).toBe(200)
					expect(await answer.json()).toEqual({ input_tokens: local.input_tokens })
					expect(claudeUpstream.requests.at(-1)!.path).toBe('/v1/messages/count_tokens')
				}
			})

			test('a model no Anthropic channel serves is counted locally and asks no upstream', async () => {
				const before = claudeUpstream.requests.length
				const openAIBefore = openAIUpstream.requests.length
				const unknown = await client.messages.countTokens({ model: 'no-such-model', ...counted })
				const openAI = await client.messages.countTokens({ model: OPENAI_MODEL, ...counted })
				expect(unknown.input_tokens).toBe(openAI.input_tokens)
				expect(claudeUpstream.requests.length).toBe(before)
				expect(openAIUpstream.requests.length).toBe(openAIBefore)
			})
		})

		test('count_tokens answers a request it cannot count with a 400 in Claude\'s shape, naming why', async () => {
			const count = (body: string) => fetch(`${harness.baseUrl}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body })
			const cases: [string, string][] = [
				['{"model":', MESSAGES.invalidJson],
				[`{"model":"m","messages":${'['.repeat(100)}${']'.repeat(100)}}`, MESSAGES.jsonTooDeep],
				[JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }), 'model: Field required'],
				[JSON.stringify({ model: OPENAI_MODEL }), 'messages: Field required'],
			]
			for (const [body, message] of cases) {
				const answer = await count(body)
				expect(answer.status).toBe(400)
				expect(await answer.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } })
			}
		})

		test('accepts the key as a bearer token too', async () => {
			const bearer = new Anthropic({ apiKey: null, authToken: key, baseURL: harness.baseUrl, maxRetries: 0 })
			const message = await bearer.messages.create({ model: OPENAI_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
			expect(message.content[0]).toMatchObject({ type: 'text' })
		})

		test('answers errors in Claude\'s shape with the right status', async () => {
			const missing = await fetch(`${harness.baseUrl}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: OPENAI_MODEL, max_tokens: 10, messages: [] }) })
			expect(missing.status).toBe(401)
			expect(await missing.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } })
			const unknownModel = await client.messages.create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
			expect(unknownModel).toBeInstanceOf(Anthropic.APIError)
			expect(unknownModel.error).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.stringContaining('no-such-model') } })
			claudeUpstream.answerNext('error-overloaded.json', 529)
			const overloaded = await client.messages.create({ model: CLAUDE_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
			expect(overloaded.status).toBe(529)
			expect(overloaded.error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
			const invalid = await fetch(`${harness.baseUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key }, body: '{not json' })
			expect(invalid.status).toBe(400)
			expect(await invalid.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
		})
	})
}
