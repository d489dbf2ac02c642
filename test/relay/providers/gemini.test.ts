import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type OpenAI from 'openai'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { startFakeGemini, type FakeGemini } from '../../fixtures/providers/gemini/fake-gemini'

const GEMINI_KEY = 'AIzaSyFakeGeminiChannelKey0123456789'
const WEATHER_TOOL = {
	type: 'function' as const,
	function: {
		name: 'get_weather',
		description: 'Weather for a city',
		parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit'] } }, required: ['location'], additionalProperties: false },
	},
}

describe('the Gemini provider (type 24)', () => {
	let harness: RelayHarness
	let upstream: FakeGemini
	let client: OpenAI

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		upstream = startFakeGemini()
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'gemini-2.0-flash': 0.05, 'text-embedding-004': 0.01 }))
		await harness.createChannel({ type: 24, key: GEMINI_KEY, base_url: upstream.url, models: 'gemini-2.0-flash,text-embedding-004' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/?page_size=10', { as: harness.root })).body.data.items[0]

	test('sends chat to generateContent with the key header, system instruction and generation settings, and answers in OpenAI\'s shape', async () => {
		const answer = await client.chat.completions.create({
			model: 'gemini-2.0-flash',
			messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }, { role: 'assistant', content: 'Hi' }, { role: 'user', content: 'Again' }],
			temperature: 0.3, top_p: 0.9, max_tokens: 64, stop: ['END'],
		})
		const sent = upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/v1beta/models/gemini-2.0-flash:generateContent')
		expect(sent.headers['x-goog-api-key']).toBe(GEMINI_KEY)
		expect(sent.headers.authorization).toBeUndefined()
		expect(sent.body).toEqual({
			contents: [
				{ role: 'user', parts: [{ text: 'Say hello' }] },
				{ role: 'model', parts: [{ text: 'Hi' }] },
				{ role: 'user', parts: [{ text: 'Again' }] },
			],
			systemInstruction: { parts: [{ text: 'Be brief.' }] },
			generationConfig: { temperature: 0.3, topP: 0.9, maxOutputTokens: 64, stopSequences: ['END'] },
		})
		expect(answer.choices[0]!.message.content).toBe('Hello from Gemini')
		expect((answer.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe('Let me think about greetings.')
		expect(answer.choices[0]!.finish_reason).toBe('stop')
		// Thoughts are completion tokens; cached tokens stay inside the prompt.
		expect(answer.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, prompt_tokens_details: { cached_tokens: 200 }, completion_tokens_details: { reasoning_tokens: 50 } })
	})

	test('keeps the text parts of system messages as parts of their own and a tool result\'s text parts one per line, never run together', async () => {
		await client.chat.completions.create({
			model: 'gemini-2.0-flash',
			messages: [
				{ role: 'system', content: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.' }] },
				{ role: 'developer', content: 'Never guess.' },
				{ role: 'user', content: [{ type: 'text', text: 'File a.txt: alpha' }, { type: 'text', text: 'What is in a.txt?' }] },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
				{ role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'line one' }, { type: 'text', text: 'line two' }] },
			],
		})
		const sent = upstream.requests.at(-1)!.body
		expect(sent.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }, { text: 'Answer in French.' }, { text: 'Never guess.' }] })
		expect(sent.contents[0]).toEqual({ role: 'user', parts: [{ text: 'File a.txt: alpha' }, { text: 'What is in a.txt?' }] })
		expect(sent.contents[2].parts[0].functionResponse.response).toEqual({ content: 'line one\nline two' })
	})

	test('bills the call with the prompt, completion and cached tokens Gemini reported', async () => {
		await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Bill me' }] })
		const entry = await lastLog()
		expect(entry).toMatchObject({ model_name: 'gemini-2.0-flash', prompt_tokens: 1000, completion_tokens: 200, is_stream: false })
		expect(entry.other.cache_tokens).toBe(200)
		expect(entry.other.local_count_tokens).toBeUndefined()
	})

	test('streams through streamGenerateContent with alt=sse and ends with the usage the client asked for', async () => {
		const stream = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		let finish: string | null | undefined
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			finish = chunk.choices[0]?.finish_reason ?? finish
			if (chunk.usage) usage = chunk.usage
		}
		const sent = upstream.requests.at(-1)!
		expect(`${sent.path}${sent.search}`).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse')
		expect(sent.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Say hello' }] }])
		expect(text).toBe('Hello from Gemini')
		expect(finish).toBe('stop')
		expect(usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 200 } })
		expect(await lastLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, is_stream: true })
	})

	test('declares tools as function declarations in Gemini\'s schema subset and answers calls as OpenAI tool calls with ids', async () => {
		const answer = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER_TOOL], tool_choice: 'required' })
		const sent = upstream.requests.at(-1)!
		expect(sent.body.tools).toEqual([{ functionDeclarations: [{
			name: 'get_weather',
			description: 'Weather for a city',
			parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', nullable: true, enum: ['celsius', 'fahrenheit'] } }, required: ['location'] },
		}] }])
		expect(sent.body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } })
		const call = answer.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall
		expect(call.id).toMatch(/^call_\w+$/)
		expect(call.function).toEqual({ name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' })
		expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
	})

	test('sends a tool call and its result back as functionCall and functionResponse parts with the same id and name', async () => {
		await client.chat.completions.create({
			model: 'gemini-2.0-flash',
			tools: [WEATHER_TOOL],
			messages: [
				{ role: 'user', content: 'Weather in Paris?' },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
				{ role: 'tool', tool_call_id: 'call_abc', content: '{"temperature":21}' },
				{ role: 'tool', tool_call_id: 'call_missing', content: 'plain text' },
			],
		})
		expect(upstream.requests.at(-1)!.body.contents.slice(1)).toEqual([
			{ role: 'model', parts: [{ functionCall: { id: 'call_abc', name: 'get_weather', args: { location: 'Paris' } } }] },
			{ role: 'user', parts: [
				{ functionResponse: { id: 'call_abc', name: 'get_weather', response: { temperature: 21 } } },
				{ functionResponse: { id: 'call_missing', name: '', response: { content: 'plain text' } } },
			] },
		])
	})

	test('sends data-URL images inline and web images by URI', async () => {
		await client.chat.completions.create({
			model: 'gemini-2.0-flash',
			messages: [{ role: 'user', content: [
				{ type: 'text', text: 'Compare' },
				{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
				{ type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
			] }],
		})
		expect(upstream.requests.at(-1)!.body.contents[0].parts).toEqual([
			{ text: 'Compare' },
			{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
			{ fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
		])
	})

	test('embeds every input with one batchEmbedContents request', async () => {
		const answer = await client.embeddings.create({ model: 'text-embedding-004', input: ['first', 'second'], dimensions: 4 })
		const sent = upstream.requests.at(-1)!
		expect(sent.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents')
		expect(sent.body).toEqual({ requests: [
			{ model: 'models/text-embedding-004', content: { parts: [{ text: 'first' }] }, outputDimensionality: 4 },
			{ model: 'models/text-embedding-004', content: { parts: [{ text: 'second' }] }, outputDimensionality: 4 },
		] })
		expect(answer.data.map((item) => item.embedding)).toEqual([[0.0123, -0.0456, 0.0789, 0.1011], [-0.5, 0.25, 0.125, 0.0625]])
	})

	test('refuses token-array embedding input as a client error, without calling Gemini', async () => {
		const before = upstream.requests.length
		const failure = await client.embeddings.create({ model: 'text-embedding-004', input: [[1, 2, 3]] }).catch((error) => error)
		expect(failure.status).toBe(400)
		expect(failure.error.message).toBe('input: Gemini embeds text only, not token arrays')
		expect(upstream.requests.length).toBe(before)
	})

	test('passes an upstream error\'s status and message to the client in OpenAI\'s error shape', async () => {
		upstream.fail('error-rate-limited.json', 429, 1)
		const failure = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(failure.status).toBe(429)
		expect(failure.error).toMatchObject({ message: 'Resource has been exhausted (e.g. check quota).', type: 'rate_limit_error' })
		upstream.fail('error-invalid-key.json', 400, 1)
		const invalid = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(invalid.status).toBe(400)
		expect(invalid.error.message).toBe('API key not valid. Please pass a valid API key.')
	})

	test('a Gemini 429\'s RetryInfo becomes the OpenAI client\'s Retry-After, and cools the key that long', async () => {
		// A channel of its own, whose key no earlier test cooled.
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), 'gemini-2.5-flash': 0.05 }))
		const channelId = await harness.createChannel({ type: 24, key: GEMINI_KEY, base_url: upstream.url, models: 'gemini-2.5-flash' })
		upstream.fail('error-quota-exceeded.json', 429, 1)
		const failure = await client.chat.completions.create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(failure.status).toBe(429)
		expect(failure.headers.get('retry-after')).toBe('43')
		expect(failure.error).toMatchObject({ type: 'rate_limit_error', code: 'upstream_429' })
		expect(failure.error).not.toHaveProperty('details')
		// A single-key channel's key is #0.
		const until = harness.ferry.relay.keyHealth.coolingUntil({ channelId, keyIndex: 0 })
		expect(until - Date.now()).toBeGreaterThan(40_000)
		expect(until - Date.now()).toBeLessThanOrEqual(42_500)
	})

	test('answers 502 "the upstream rejected the channel credentials" when Gemini answers 401', async () => {
		upstream.fail('error-unauthenticated.json', 401, 1)
		const failure = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(failure.status).toBe(502)
		expect(failure.error.message).toBe('the upstream rejected the channel credentials')
	})
})
