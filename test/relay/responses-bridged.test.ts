/**
 * `/v1/responses` on channels that do not speak the Responses API (DeepSeek, Anthropic, Gemini),
 * driven by the official openai SDK: the request is bridged to chat (instructions, developer
 * messages, text and images, function tools, reasoning effort, max_output_tokens; hosted tools left
 * out, Codex's extra fields accepted), the answer comes back as a response — streams as the API's
 * event sequence — with the upstream's usage, billed exactly by the model's ratios.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import { failureOf, startFixtureUpstream, type FixtureUpstream } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { startFakeGemini, type FakeGemini } from '../fixtures/providers/gemini/fake-gemini'

const DEEPSEEK_MODEL = 'deepseek-chat'
const CLAUDE_MODEL = 'claude-sonnet-4-20250514'
const GEMINI_MODEL = 'gemini-2.0-flash'
/** Served only by a Jina channel, which has no chat. */
const RERANK_MODEL = 'jina-reranker-v2-base-multilingual'

const RATIOS = {
	[DEEPSEEK_MODEL]: { model: 0.5, completion: 2, cache: 0.25 },
	[CLAUDE_MODEL]: { model: 1.5, completion: 5, cache: 0.1 },
	[GEMINI_MODEL]: { model: 0.05, completion: 8, cache: 0.25 },
}
/** Claude's cache writes cost CreateCacheRatio (1.25 by default) times plain input. */
const CREATE_CACHE_RATIO = 1.25

/** The exact charge: (uncached input + cached × cache ratio + written × 1.25 + output × completion ratio) × model ratio, half away from zero. */
function quotaOf(model: keyof typeof RATIOS, usage: { input: number; cached?: number; written?: number; output: number }) {
	const ratio = RATIOS[model]
	const cached = usage.cached ?? 0
	const written = usage.written ?? 0
	return Math.round((usage.input - cached - written + cached * ratio.cache + written * CREATE_CACHE_RATIO + usage.output * ratio.completion) * ratio.model)
}

const WEATHER_TOOL = {
	type: 'function' as const,
	name: 'get_weather',
	description: 'Current weather for a city',
	parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
	strict: true,
}
const WEATHER_CHAT_TOOL = { type: 'function', function: { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters, strict: true } }

/** What Codex sends besides function tools: hosted and namespace tools, and fields only the Responses API reads. */
const CODEX_EXTRAS = {
	store: false,
	include: ['reasoning.encrypted_content'],
	prompt_cache_key: '0199a2b4-codex-session',
	client_metadata: { originator: 'codex_exec' },
	reasoning: { effort: 'high', summary: 'auto' },
} as const
const HOSTED_TOOLS = [{ type: 'web_search' }, { type: 'namespace', name: 'crm', description: 'CRM tools', tools: [{ type: 'function', name: 'find_customer', parameters: { type: 'object', properties: {} } }] }]

type StreamEvent = OpenAI.Responses.ResponseStreamEvent

async function readEvents(stream: AsyncIterable<StreamEvent>) {
	const events: StreamEvent[] = []
	for await (const event of stream) events.push(event)
	return events
}

for (const target of databaseTargets()) {
	describe(`the Responses API bridged to chat, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let deepseek: FixtureUpstream
		let anthropic: FixtureUpstream
		let gemini: FakeGemini
		let jina: FixtureUpstream
		let client: OpenAI

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			deepseek = startFixtureUpstream('deepseek', { answer: 'chat.json' })
			anthropic = startFixtureUpstream('anthropic', { answer: 'message.json' })
			gemini = startFakeGemini()
			jina = startFixtureUpstream('jina', { answer: 'rerank.json' })
			const options = harness.ferry.dependencies.options
			const each = (pick: (ratio: (typeof RATIOS)[keyof typeof RATIOS]) => number) => JSON.stringify(Object.fromEntries(Object.entries(RATIOS).map(([model, ratio]) => [model, pick(ratio)])))
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...JSON.parse(each((ratio) => ratio.model)), [RERANK_MODEL]: 0.1 }))
			await options.set('CompletionRatio', each((ratio) => ratio.completion))
			await options.set('CacheRatio', each((ratio) => ratio.cache))
			await harness.createChannel({ type: 43, key: 'sk-deepseek-channel-key', base_url: deepseek.url, models: DEEPSEEK_MODEL })
			await harness.createChannel({ type: 14, key: 'sk-ant-channel-key', base_url: anthropic.url, models: CLAUDE_MODEL })
			await harness.createChannel({ type: 24, key: 'AIzaSyFakeGeminiChannelKey0123456789', base_url: gemini.url, models: GEMINI_MODEL })
			await harness.createChannel({ type: 38, key: 'jina-channel-key', base_url: jina.url, models: RERANK_MODEL })
			client = harness.client((await harness.createToken()).key)
		})
		beforeEach(() => {
			deepseek.answerWith('chat.json')
			anthropic.answerWith('message.json')
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([deepseek.stop(), anthropic.stop(), gemini.stop(), jina.stop()])
		})

		const consumeLog = async () => {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=20', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)
		}

		test('a Codex-shaped request reaches a chat upstream as chat: instructions and developer messages as system, images as parts, function tools only', async () => {
			const response = await client.responses.create({
				model: DEEPSEEK_MODEL,
				instructions: 'You are a coding agent.',
				input: [
					{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: read-only.' }] },
					{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is in this picture?' }, { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' }] },
				],
				tools: [WEATHER_TOOL, ...HOSTED_TOOLS] as never,
				tool_choice: 'auto',
				parallel_tool_calls: false,
				max_output_tokens: 500,
				...CODEX_EXTRAS,
			} as never) as OpenAI.Responses.Response
			const sent = deepseek.requests.at(-1)!
			expect(sent.path).toBe('/chat/completions')
			expect(sent.headers.authorization).toBe('Bearer sk-deepseek-channel-key')
			expect(sent.body).toEqual({
				model: DEEPSEEK_MODEL,
				messages: [
					{ role: 'system', content: 'You are a coding agent.' },
					{ role: 'system', content: 'Sandbox: read-only.' },
					{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } }] },
				],
				max_tokens: 500,
				reasoning_effort: 'high',
				tools: [WEATHER_CHAT_TOOL],
				tool_choice: 'auto',
				parallel_tool_calls: false,
			})
			expect(response).toMatchObject({ object: 'response', status: 'completed', model: DEEPSEEK_MODEL, store: false, max_output_tokens: 500, instructions: 'You are a coding agent.' })
			expect(response.id).toMatch(/^resp_/)
			expect(response.output_text).toBe('Hello! How can I help you today?')
			expect(response.output).toEqual([{ id: expect.stringMatching(/^msg_/), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello! How can I help you today?', annotations: [], logprobs: [] }] }])
			expect(response.usage).toEqual({ input_tokens: 1000, input_tokens_details: { cached_tokens: 768, cache_write_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1020 })
			expect(await consumeLog()).toMatchObject({ model_name: DEEPSEEK_MODEL, prompt_tokens: 1000, completion_tokens: 20, quota: quotaOf(DEEPSEEK_MODEL, { input: 1000, cached: 768, output: 20 }) })
		})

		test('a bridged stream is the API\'s event sequence in order, numbered, ending with the usage (reasoning as the summary Codex asked for)', async () => {
			deepseek.answerWith('chat-stream.sse')
			const events = await readEvents(await client.responses.create({ model: DEEPSEEK_MODEL, input: 'Hi', stream: true, ...CODEX_EXTRAS } as never) as never)
			expect(events.map((event) => event.type)).toEqual([
				'response.created', 'response.in_progress',
				'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta',
				'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
				'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta',
				'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
				'response.completed',
			])
			expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index))
			expect(deepseek.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true }, reasoning_effort: 'high' })
			const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
			expect(completed.response.output).toEqual([
				// Codex asked for the encrypted content: the reasoning to send back (responses-thinking.test.ts).
				{ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [{ type: 'summary_text', text: 'A greeting.' }], status: 'completed', encrypted_content: expect.any(String) },
				{ id: expect.stringMatching(/^msg_/), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello!', annotations: [], logprobs: [] }] },
			])
			expect(completed.response.usage).toEqual({ input_tokens: 400, input_tokens_details: { cached_tokens: 256, cache_write_tokens: 0 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 28 }, total_tokens: 430 })
			const created = events[0] as OpenAI.Responses.ResponseCreatedEvent
			expect(created.response).toMatchObject({ id: completed.response.id, status: 'in_progress', output: [] })
			expect(await consumeLog()).toMatchObject({ prompt_tokens: 400, completion_tokens: 30, is_stream: true, quota: quotaOf(DEEPSEEK_MODEL, { input: 400, cached: 256, output: 30 }) })
		})

		test('the SDK\'s stream helper assembles a bridged stream into the final response', async () => {
			deepseek.answerWith('chat-stream.sse')
			const stream = client.responses.stream({ model: DEEPSEEK_MODEL, input: 'Hi' })
			const deltas: string[] = []
			stream.on('response.output_text.delta', (event) => deltas.push(event.delta))
			const final = await stream.finalResponse()
			expect(deltas).toEqual(['Hello', '!'])
			expect(final.output_text).toBe('Hello!')
			// No summary asked for: the reasoning is the item's content.
			expect(final.output[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'A greeting.' }], status: 'completed' })
		})

		test('a function tool round-trips through a chat upstream: a function_call item out, function_call_output in', async () => {
			deepseek.answerWith('chat-tools.json')
			const first = await client.responses.create({ model: DEEPSEEK_MODEL, input: 'Weather in Paris?', tools: [WEATHER_TOOL] })
			const call = { id: expect.stringMatching(/^fc_/), type: 'function_call' as const, status: 'completed' as const, call_id: 'call_0_8a1d5d8f-6c8b-4a2e-9f41-2e5b7c3d1a90', name: 'get_weather', arguments: '{"city":"Paris"}' }
			expect(first.output).toEqual([call])
			expect(await consumeLog()).toMatchObject({ quota: quotaOf(DEEPSEEK_MODEL, { input: 120, output: 24 }) })
			deepseek.answerWith('chat.json')
			await client.responses.create({
				model: DEEPSEEK_MODEL,
				tools: [WEATHER_TOOL],
				input: [{ role: 'user', content: 'Weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '18 °C and sunny' }],
			})
			expect(deepseek.requests.at(-1)!.body.messages).toEqual([
				{ role: 'user', content: 'Weather in Paris?' },
				{ role: 'assistant', content: null, tool_calls: [{ id: call.call_id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: call.call_id, content: '18 °C and sunny' },
			])
		})

		test('a message\'s and a tool output\'s text parts reach a chat upstream one per line, never run together, while an assistant message\'s parts are joined as they are and two assistant messages are a line apart', async () => {
			await client.responses.create({
				model: DEEPSEEK_MODEL,
				tools: [WEATHER_TOOL],
				input: [
					{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: read-only.' }, { type: 'input_text', text: 'Answer in French.' }] },
					{ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<file name="a.txt">alpha</file>' }, { type: 'input_text', text: 'What is in a.txt?' }] },
					{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'I\'ll read it.', annotations: [] }] },
					{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It says ', annotations: [] }, { type: 'output_text', text: 'alpha.', annotations: [] }] },
					{ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
					{ type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: '18 °C' }, { type: 'input_text', text: 'sunny' }] },
				],
			} as never)
			expect(deepseek.requests.at(-1)!.body.messages).toEqual([
				{ role: 'system', content: 'Sandbox: read-only.\nAnswer in French.' },
				{ role: 'user', content: '<file name="a.txt">alpha</file>\nWhat is in a.txt?' },
				{ role: 'assistant', content: 'I\'ll read it.\nIt says alpha.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: '18 °C\nsunny' },
			])
		})

		test('only hosted tools: the chat upstream gets no tools and no tool choice', async () => {
			await client.responses.create({ model: DEEPSEEK_MODEL, input: 'Search the web for Ferry.', tools: HOSTED_TOOLS as never, tool_choice: { type: 'web_search_preview' } as never })
			const sent = deepseek.requests.at(-1)!.body
			expect(sent).toEqual({ model: DEEPSEEK_MODEL, messages: [{ role: 'user', content: 'Search the web for Ferry.' }] })
		})

		test('a Claude channel answers a response, billed with its cache reads and writes', async () => {
			const response = await client.responses.create({ model: CLAUDE_MODEL, instructions: 'Be brief.', input: 'Hello', max_output_tokens: 300 })
			const sent = anthropic.requests.at(-1)!
			expect(sent.path).toBe('/v1/messages')
			expect(sent.body).toMatchObject({ model: CLAUDE_MODEL, system: [{ type: 'text', text: 'Be brief.' }], max_tokens: 300, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] })
			expect(response.output_text).toBe('Hello! How can I help you today?')
			expect(response.usage).toMatchObject({ input_tokens: 2312, input_tokens_details: { cached_tokens: 2000, cache_write_tokens: 300 }, output_tokens: 10 })
			expect(await consumeLog()).toMatchObject({ model_name: CLAUDE_MODEL, prompt_tokens: 2312, completion_tokens: 10, quota: quotaOf(CLAUDE_MODEL, { input: 2312, cached: 2000, written: 300, output: 10 }) })
		})

		test('a Claude channel\'s streamed tool call arrives as function_call_arguments events, and its output goes back as a tool result', async () => {
			anthropic.answerWith('tool-use-stream.sse')
			const events = await readEvents(await client.responses.create({ model: CLAUDE_MODEL, input: 'Weather in Paris?', tools: [WEATHER_TOOL], stream: true }))
			const types = events.map((event) => event.type)
			const added = types.lastIndexOf('response.output_item.added')
			expect(types.slice(added)).toEqual([
				'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta',
				'response.function_call_arguments.done', 'response.output_item.done', 'response.completed',
			])
			const deltas = events.filter((event): event is OpenAI.Responses.ResponseFunctionCallArgumentsDeltaEvent => event.type === 'response.function_call_arguments.delta')
			expect(deltas.map((event) => event.delta).join('')).toBe('{"location": "Paris, France"}')
			const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
			const call = completed.response.output.at(-1) as OpenAI.Responses.ResponseFunctionToolCall
			expect(call).toMatchObject({ type: 'function_call', call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location": "Paris, France"}', status: 'completed' })
			expect(completed.response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call'])
			expect(await consumeLog()).toMatchObject({ prompt_tokens: 472, completion_tokens: 89, quota: quotaOf(CLAUDE_MODEL, { input: 472, output: 89 }) })

			anthropic.answerWith('message.json')
			await client.responses.create({ model: CLAUDE_MODEL, tools: [WEATHER_TOOL], input: [{ role: 'user', content: 'Weather in Paris?' }, call, { type: 'function_call_output', call_id: call.call_id, output: '18 °C' }] })
			const messages = anthropic.requests.at(-1)!.body.messages
			expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'tool_use', id: call.call_id, name: 'get_weather', input: { location: 'Paris, France' } }] })
			expect(messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.call_id, content: '18 °C' }] })
		})

		test('a Gemini channel answers a response with its thoughts as reasoning, billed with cached and thinking tokens', async () => {
			const response = await client.responses.create({ model: GEMINI_MODEL, input: 'Hello' })
			expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message'])
			expect(response.output_text).toBe('Hello from Gemini')
			expect(response.usage).toEqual({ input_tokens: 1000, input_tokens_details: { cached_tokens: 200, cache_write_tokens: 0 }, output_tokens: 200, output_tokens_details: { reasoning_tokens: 50 }, total_tokens: 1200 })
			expect(await consumeLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, quota: quotaOf(GEMINI_MODEL, { input: 1000, cached: 200, output: 200 }) })
		})

		test('a Gemini channel streams a response', async () => {
			const events = await readEvents(await client.responses.create({ model: GEMINI_MODEL, input: 'Hello', stream: true }))
			const text = events.filter((event): event is OpenAI.Responses.ResponseTextDeltaEvent => event.type === 'response.output_text.delta').map((event) => event.delta).join('')
			expect(text).toBe('Hello from Gemini')
			const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
			expect(completed.type).toBe('response.completed')
			expect(completed.response.usage).toMatchObject({ input_tokens: 1000, output_tokens: 200 })
			expect(gemini.requests.at(-1)!.path).toEndWith(':streamGenerateContent')
			expect(await consumeLog()).toMatchObject({ is_stream: true, quota: quotaOf(GEMINI_MODEL, { input: 1000, cached: 200, output: 200 }) })
		})

		test('a function tool round-trips through a Gemini channel', async () => {
			const first = await client.responses.create({ model: GEMINI_MODEL, input: 'Weather in Paris?', tools: [WEATHER_TOOL] })
			const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall
			expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' })
			const answer = await client.responses.create({ model: GEMINI_MODEL, tools: [WEATHER_TOOL], input: [{ role: 'user', content: 'Weather in Paris?' }, call, { type: 'function_call_output', call_id: call.call_id, output: '{"temperature":21}' }] })
			expect(answer.output_text).toBe('Hello from Gemini')
			const contents = gemini.requests.at(-1)!.body.contents
			expect(contents.at(-2).parts[0].functionCall).toMatchObject({ name: 'get_weather', args: { location: 'Paris', unit: 'celsius' } })
			expect(contents.at(-1).parts[0].functionResponse).toMatchObject({ name: 'get_weather' })
		})

		test('a model whose channels have no chat is refused with a 400 before anything is held or sent', async () => {
			const before = await consumeLog()
			const error = await failureOf(client.responses.create({ model: RERANK_MODEL, input: 'Hello' }))
			expect(error?.status).toBe(400)
			expect(error?.code).toBe('endpoint_not_supported')
			expect(jina.requests).toHaveLength(0)
			expect((await consumeLog())?.id).toBe(before?.id)
		})

		test('continuing a response on a bridged model is a 400 that says why, before anything is sent', async () => {
			const created = await client.responses.create({ model: DEEPSEEK_MODEL, input: 'Remember 7.' })
			const calls = deepseek.requests.length
			const error = await failureOf(client.responses.create({ model: DEEPSEEK_MODEL, previous_response_id: created.id, input: 'Which number?' }))
			expect(error?.status).toBe(400)
			expect(error?.code).toBe('previous_response_not_found')
			expect(error?.message).toContain('send the whole conversation in input')
			const retrieved = await failureOf(client.responses.retrieve(created.id))
			expect(retrieved?.status).toBe(404)
			expect(deepseek.requests.length).toBe(calls)
		})

		test('a request that needs the upstream\'s memory is refused on a model with only chat channels', async () => {
			const error = await failureOf(client.responses.create({ model: DEEPSEEK_MODEL, input: [{ type: 'item_reference', id: 'msg_123' }] as never }))
			expect(error?.status).toBe(400)
			expect(error?.code).toBe('endpoint_not_supported')
			expect(error?.message).toContain('item_reference')
		})

		test('a bridged stream that breaks ends with the API\'s error event, which the SDK raises', async () => {
			deepseek.answerWith('chat-stream-malformed.sse')
			const stream = await client.responses.create({ model: DEEPSEEK_MODEL, input: 'Hi', stream: true })
			const error = await failureOf(readEvents(stream))
			expect(error).toBeInstanceOf(OpenAI.APIError)
			expect(error?.message).toContain('the upstream sent a malformed stream event')
		})

		test('input tokens are counted locally as the request would be bridged', async () => {
			const counted = await client.responses.inputTokens.count({ model: DEEPSEEK_MODEL, input: 'Hello there', instructions: 'Be brief.' })
			expect(counted.object).toBe('response.input_tokens')
			expect(counted.input_tokens).toBeGreaterThan(0)
			expect(deepseek.requests.every((request) => !request.rawBody.includes('Hello there'))).toBe(true)
		})
	})
}
