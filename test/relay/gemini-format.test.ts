import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { GoogleGenAI } from '@google/genai'
import type { BodyReader } from '@/lib/outbound'
import { geminiAnswerFromOpenAI, geminiStreamFromOpenAI } from '@/relay/formats/gemini/client-answer'
import { openAIChatFromGemini } from '@/relay/formats/gemini/client-request'
import { openAIAnswerFromGemini } from '@/relay/providers/gemini/chat-answer'
import { geminiRequestFromOpenAI } from '@/relay/providers/gemini/chat-request'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { startFakeGemini, type FakeGemini } from '../fixtures/providers/gemini/fake-gemini'

describe('the Gemini client format through the official @google/genai SDK', () => {
	let harness: RelayHarness
	let openAIUpstream: FakeOpenAI
	let geminiUpstream: FakeGemini
	let key: string
	let sdk: GoogleGenAI

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		openAIUpstream = harness.startUpstream({ promptTokens: 1000, completionTokens: 200, embeddingDimensions: 4, toolCalls: true })
		geminiUpstream = startFakeGemini()
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'gemini-2.0-flash': 0.05, 'text-embedding-3-small': 0.01 }))
		await harness.createChannel({ type: 1, base_url: openAIUpstream.url, models: 'gpt-4o-mini,text-embedding-3-small' })
		await harness.createChannel({ type: 24, key: 'AIzaSyFakeGeminiChannelKey0123456789', base_url: geminiUpstream.url, models: 'gemini-2.0-flash' })
		key = (await harness.createToken()).key
		sdk = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.baseUrl } })
	})
	afterAll(async () => {
		await harness.close()
		await geminiUpstream.stop()
	})

	const logs = async () => (await harness.ferry.call('GET', '/api/log/?page_size=20', { as: harness.root })).body.data.items as Record<string, any>[]

	test('answers generateContent from an OpenAI-format upstream, billed exactly like the same call in OpenAI format', async () => {
		const answer = await sdk.models.generateContent({ model: 'gpt-4o-mini', contents: 'Say hello', config: { systemInstruction: 'Be brief.', maxOutputTokens: 50, temperature: 0.2 } })
		expect(answer.text).toBe('Hello from fake-openai')
		expect(answer.candidates![0]!.finishReason).toBe('STOP' as never)
		expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 1000, candidatesTokenCount: 200, totalTokenCount: 1200 })
		const sent = openAIUpstream.requests.at(-1)!
		expect(sent.headers.authorization).toBe('Bearer sk-upstream-key')
		expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }], max_tokens: 50, temperature: 0.2 })
		const geminiEntry = (await logs())[0]!
		await harness.client(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] })
		const openAIEntry = (await logs())[0]!
		expect(geminiEntry).toMatchObject({ model_name: 'gpt-4o-mini', prompt_tokens: 1000, completion_tokens: 200 })
		expect(geminiEntry.quota).toBe(openAIEntry.quota)
	})

	test('a user turn\'s text parts and the system instruction\'s parts reach an OpenAI-format upstream one per line, while a model turn\'s parts are joined as they are', async () => {
		await sdk.models.generateContent({
			model: 'gpt-4o-mini',
			contents: [
				{ role: 'user', parts: [{ text: 'File a.txt: alpha' }, { text: 'What is in a.txt?' }] },
				{ role: 'model', parts: [{ text: 'It says ' }, { text: 'alpha.' }] },
				{ role: 'user', parts: [{ text: 'Thanks' }] },
			],
			config: { systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] } },
		})
		expect(openAIUpstream.requests.at(-1)!.body.messages).toEqual([
			{ role: 'system', content: 'Be brief.\nAnswer in French.' },
			{ role: 'user', content: 'File a.txt: alpha\nWhat is in a.txt?' },
			{ role: 'assistant', content: 'It says alpha.' },
			{ role: 'user', content: 'Thanks' },
		])
	})

	test('streams generateContentStream as alt=sse events ending with the finish reason and usage', async () => {
		let text = ''
		let last: any
		for await (const chunk of await sdk.models.generateContentStream({ model: 'gpt-4o-mini', contents: 'Say hello' })) {
			text += chunk.text ?? ''
			last = chunk
		}
		expect(text).toBe('Hello from fake-openai')
		expect(last.candidates[0].finishReason).toBe('STOP')
		expect(last.usageMetadata).toMatchObject({ promptTokenCount: 1000, candidatesTokenCount: 200 })
		expect(openAIUpstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
		expect((await logs())[0]).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, is_stream: true })
	})

	test('answers from a native Gemini upstream with the usage Gemini reported', async () => {
		const answer = await sdk.models.generateContent({ model: 'gemini-2.0-flash', contents: 'Say hello' })
		expect(answer.text).toBe('Hello from Gemini')
		expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 1000, candidatesTokenCount: 150, thoughtsTokenCount: 50, cachedContentTokenCount: 200 })
		expect(geminiUpstream.requests.at(-1)!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Say hello' }] }])
		expect((await logs())[0]).toMatchObject({ model_name: 'gemini-2.0-flash', prompt_tokens: 1000, completion_tokens: 200 })
	})

	test('turns OpenAI tool calls into function calls carrying the same id', async () => {
		const answer = await sdk.models.generateContent({
			model: 'gpt-4o-mini',
			contents: 'Weather in Paris?',
			config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' as never, properties: { location: { type: 'STRING' as never } } } }] }] },
		})
		expect(openAIUpstream.requests.at(-1)!.body.tools).toEqual([{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }])
		expect(answer.functionCalls).toEqual([{ id: expect.stringMatching(/^call_fake_/), name: 'get_weather', args: { location: 'Paris' } }])
	})

	test('with answers checked for sensitive words, function-call arguments reach a Gemini client masked, from a Gemini upstream and from a streamed OpenAI one', async () => {
		const options = harness.ferry.dependencies.options
		const settings = { CheckSensitiveEnabled: 'true', CheckSensitiveOnPromptEnabled: 'false', CheckSensitiveOnCompletionEnabled: 'true', StopOnSensitiveEnabled: 'false', SensitiveWords: 'Paris' }
		const previous = Object.fromEntries(Object.keys(settings).map((name) => [name, String(options.get(name as never))]))
		for (const [name, value] of Object.entries(settings)) await options.set(name, value)
		try {
			const tools = [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' as never, properties: { location: { type: 'STRING' as never } } } }] }]
			const fromGemini = await sdk.models.generateContent({ model: 'gemini-2.0-flash', contents: 'Weather?', config: { tools } })
			expect(fromGemini.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { location: '**###**', unit: 'celsius' } })])
			const calls: unknown[] = []
			for await (const chunk of await sdk.models.generateContentStream({ model: 'gpt-4o-mini', contents: 'Weather?', config: { tools } })) calls.push(...(chunk.functionCalls ?? []))
			expect(calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { location: '**###**' } })])
		} finally {
			for (const [name, value] of Object.entries(previous)) await options.set(name, value)
		}
	})

	test('embeds through batchEmbedContents', async () => {
		const answer = await sdk.models.embedContent({ model: 'text-embedding-3-small', contents: ['first', 'second'] })
		expect(answer.embeddings!.map((embedding) => embedding.values!.length)).toEqual([4, 4])
		expect(openAIUpstream.requests.at(-1)!.body).toMatchObject({ model: 'text-embedding-3-small', input: ['first', 'second'] })
	})

	test('embeds a content\'s text parts as one input, one per line, never run together', async () => {
		const answer = await sdk.models.embedContent({ model: 'text-embedding-3-small', contents: [{ parts: [{ text: 'Ferry' }, { text: 'A gateway for model APIs.' }] }, { parts: [{ text: 'second' }] }] })
		expect(answer.embeddings).toHaveLength(2)
		expect(openAIUpstream.requests.at(-1)!.body).toMatchObject({ model: 'text-embedding-3-small', input: ['Ferry\nA gateway for model APIs.', 'second'] })
	})

	test('takes the key from ?key=, and streams a JSON array without alt=sse, as Google does', async () => {
		const response = await fetch(`${harness.baseUrl}/v1beta/models/gpt-4o-mini:streamGenerateContent?key=${key}`, {
			method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }),
		})
		expect(response.status).toBe(200)
		const events = JSON.parse(await response.text()) as any[]
		expect(events.map((event) => event.candidates[0].content.parts.map((part: { text?: string }) => part.text ?? '').join('')).join('')).toBe('Hello from fake-openai')
		expect(events.at(-1).usageMetadata.promptTokenCount).toBe(1000)
	})

	test('answers errors in Gemini\'s shape', async () => {
		const wrongKey = new GoogleGenAI({ apiKey: 'sk-not-a-token', httpOptions: { baseUrl: harness.baseUrl } })
		const failure = await wrongKey.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hi' }).catch((error) => error)
		expect(failure.status).toBe(401)
		expect(JSON.parse(failure.message)).toEqual({ error: { code: 401, message: 'invalid API key', status: 'UNAUTHENTICATED' } })
		const missing = await fetch(`${harness.baseUrl}/v1beta/models/gpt-4o-mini:generateContent`, { method: 'POST', body: '{}' })
		expect(missing.status).toBe(401)
		expect((await missing.json()).error.status).toBe('UNAUTHENTICATED')
		const empty = await fetch(`${harness.baseUrl}/v1beta/models/gpt-4o-mini:generateContent?key=${key}`, { method: 'POST', body: '{}' })
		expect(await empty.json()).toEqual({ error: { code: 400, message: 'contents is not specified', status: 'INVALID_ARGUMENT' } })
		openAIUpstream.setMode('status=429', 1)
		const limited = await sdk.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hi' }).catch((error) => error)
		expect(limited.status).toBe(429)
		expect(JSON.parse(limited.message).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' })
	})

	test('a Gemini upstream\'s 429 reaches a Gemini client in Google\'s shape with its RetryInfo, QuotaFailure and ErrorInfo, scrubbed of the channel\'s project, links and debugging', async () => {
		geminiUpstream.fail('error-quota-exceeded.json', 429, 2)
		const failure = await sdk.models.generateContent({ model: 'gemini-2.0-flash', contents: 'Hi' }).catch((error) => error)
		expect(failure.status).toBe(429)
		const { error } = JSON.parse(failure.message)
		expect(error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' })
		expect(error.message).toStartWith('You exceeded your current quota')
		expect(error.details).toEqual([
			{
				'@type': 'type.googleapis.com/google.rpc.QuotaFailure',
				violations: [{
					quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
					quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
					quotaDimensions: { location: 'global', model: 'gemini-2.0-flash' },
					quotaValue: '10',
				}],
			},
			{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMIT_EXCEEDED', domain: 'googleapis.com', metadata: { quota_limit_value: '10', service: 'generativelanguage.googleapis.com' } },
			{ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'Quota exceeded. For more information on this error, head to: ***.' },
			{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '42.5s' },
		])
		expect(failure.message).not.toContain('123456789012')
		// The same wait as Retry-After, for any client that reads the header.
		const raw = await fetch(`${harness.baseUrl}/v1beta/models/gemini-2.0-flash:generateContent?key=${key}`, { method: 'POST', body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }) })
		expect(raw.status).toBe(429)
		expect(raw.headers.get('retry-after')).toBe('43')
		// The channel's own key refused (Gemini's 400 API_KEY_INVALID) is not the client's: its ErrorInfo stays out.
		geminiUpstream.fail('error-invalid-key.json', 400, 1)
		const invalid = await sdk.models.generateContent({ model: 'gemini-2.0-flash', contents: 'Hi' }).catch((error) => error)
		expect(JSON.parse(invalid.message).error).toEqual({ code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' })
		// Another upstream's Retry-After reaches a Gemini client as a RetryInfo.
		openAIUpstream.setMode('status=429', 1)
		const limited = await sdk.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hi' }).catch((error) => error)
		expect(JSON.parse(limited.message).error.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }])
	})

	const streamText = async (framing: '?alt=sse&' | '?', fault: string) => {
		const answer = await fetch(`${harness.baseUrl}/v1beta/models/gpt-4o-mini:streamGenerateContent${framing}key=${key}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: `Say hello [fake-fault:${fault}]` }] }] }),
		})
		expect(answer.status).toBe(200)
		return answer.text()
	}

	for (const [fault, message] of [['malformed-sse=1', 'the upstream sent a malformed stream event'], ['reset-mid-stream=1', 'the upstream connection was lost']] as const) {
		test(`an upstream stream failure (${fault}) ends an alt=sse stream with an error event, as the last event`, async () => {
			const events = (await streamText('?alt=sse&', fault)).split(/\r?\n\r?\n/).filter(Boolean).map((event) => JSON.parse(event.replace(/^data: /, '')))
			expect(events.at(-1)).toEqual({ error: { code: 502, message, status: 'UNAVAILABLE' } })
			expect(events.slice(0, -1).every((event) => Array.isArray(event.candidates))).toBe(true)
		})
	}

	test('countTokens counts the prompt on Ferry\'s tokenizer, at no charge, as Gemini answers it', async () => {
		const before = (await logs()).length
		const short = await sdk.models.countTokens({ model: 'gpt-4o-mini', contents: 'Say hello' })
		const long = await sdk.models.countTokens({ model: 'gemini-2.0-flash', contents: 'Say hello to every one of the people standing in the long queue outside.' })
		expect(short.totalTokens).toBeGreaterThan(0)
		expect(long.totalTokens!).toBeGreaterThan(short.totalTokens!)
		expect(geminiUpstream.requests.some((request) => request.path.endsWith(':countTokens'))).toBe(false)
		expect((await logs()).length).toBe(before)
		const unauthenticated = await fetch(`${harness.baseUrl}/v1beta/models/gpt-4o-mini:countTokens`, { method: 'POST', body: '{"contents":[]}' })
		expect(unauthenticated.status).toBe(401)
		expect((await unauthenticated.json()).error.status).toBe('UNAUTHENTICATED')
	})

	test('countTokens reports an image under IMAGE, audio under AUDIO and a PDF under DOCUMENT, the text under TEXT, adding up to the total', async () => {
		const count = async (parts: object[]) => {
			const response = await fetch(`${harness.baseUrl}/v1beta/models/gemini-2.0-flash:countTokens`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
				body: JSON.stringify({ contents: [{ role: 'user', parts }] }),
			})
			expect(response.status).toBe(200)
			return await response.json() as { totalTokens: number; promptTokensDetails: { modality: string; tokenCount: number }[] }
		}
		const text = await count([{ text: 'What is in these?' }])
		expect(text.promptTokensDetails).toEqual([{ modality: 'TEXT', tokenCount: text.totalTokens }])
		const mixed = await count([
			{ text: 'What is in these?' },
			{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
			{ fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
			{ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
			{ inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
		])
		const byModality = Object.fromEntries(mixed.promptTokensDetails.map((detail) => [detail.modality, detail.tokenCount]))
		expect(Object.keys(byModality).sort()).toEqual(['AUDIO', 'DOCUMENT', 'IMAGE', 'TEXT'])
		expect(byModality.TEXT).toBe(text.totalTokens)
		expect(byModality.IMAGE).toBe(2 * byModality.AUDIO!)
		expect(byModality.DOCUMENT).toBe(byModality.AUDIO)
		expect(mixed.promptTokensDetails.reduce((sum, detail) => sum + detail.tokenCount, 0)).toBe(mixed.totalTokens)
	})

	test('models.list and models.get answer the caller\'s models in Gemini\'s shape, and an unknown one 404', async () => {
		const names: string[] = []
		for await (const model of await sdk.models.list()) names.push(model.name!)
		expect(names.sort()).toEqual(['models/gemini-2.0-flash', 'models/gpt-4o-mini', 'models/text-embedding-3-small'])
		const model = await sdk.models.get({ model: 'gpt-4o-mini' })
		expect(model).toMatchObject({ name: 'models/gpt-4o-mini', displayName: 'gpt-4o-mini' })
		const raw = await (await fetch(`${harness.baseUrl}/v1beta/models?key=${key}`)).json()
		expect(raw.models.find((entry: any) => entry.name === 'models/text-embedding-3-small').supportedGenerationMethods).toEqual(['embedContent', 'batchEmbedContents'])
		expect(raw.models.find((entry: any) => entry.name === 'models/gpt-4o-mini').supportedGenerationMethods).toContain('generateContent')
		const missing = await fetch(`${harness.baseUrl}/v1beta/models/no-such-model?key=${key}`)
		expect(missing.status).toBe(404)
		expect((await missing.json()).error).toMatchObject({ code: 404, status: 'NOT_FOUND' })
		const limited = (await harness.createToken({ model_limits_enabled: true, model_limits: 'gpt-4o-mini' })).key
		const listed = await (await fetch(`${harness.baseUrl}/v1beta/models`, { headers: { 'x-goog-api-key': limited } })).json()
		expect(listed.models.map((entry: any) => entry.name)).toEqual(['models/gpt-4o-mini'])
		// The same list under /v1 for a Gemini-keyed call; an OpenAI-keyed one keeps OpenAI's shape there.
		expect((await (await fetch(`${harness.baseUrl}/v1/models`, { headers: { 'x-goog-api-key': limited } })).json()).models).toHaveLength(1)
		expect((await (await fetch(`${harness.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${limited}` } })).json()).object).toBe('list')
	})

	test('an upstream stream failure ends the JSON-array framing with the error as its last element, still valid JSON', async () => {
		const elements = JSON.parse(await streamText('?', 'malformed-sse=1'))
		expect(elements.at(-1)).toEqual({ error: { code: 502, message: 'the upstream sent a malformed stream event', status: 'UNAVAILABLE' } })
	})
})

describe('converting tool calls and images between the OpenAI and Gemini formats', () => {
	const geminiConversation = {
		contents: [
			{ role: 'user', parts: [{ text: 'What is in this picture, and the weather?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }, { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } }] },
			{ role: 'model', parts: [
				{ functionCall: { id: 'call_1', name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl' },
				{ functionCall: { name: 'get_time', args: { zone: 'CET' } } },
			] },
			{ role: 'user', parts: [
				{ functionResponse: { id: 'call_1', name: 'get_weather', response: { temperature: 21 } } },
				{ functionResponse: { name: 'get_time', response: { time: '12:00' } } },
			] },
		],
	}

	test('a Gemini conversation survives the trip through OpenAI\'s format with its ids, arguments, signatures and images', () => {
		const openAI = openAIChatFromGemini(geminiConversation, 'gemini-2.0-flash', false).body
		const messages = openAI.messages as any[]
		const generatedId = messages[1].tool_calls[1].id
		expect(generatedId).toMatch(/^call_\w+$/)
		expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: generatedId, name: 'get_time' })
		const back = geminiRequestFromOpenAI(openAI)
		expect(back.contents).toEqual([
			geminiConversation.contents[0]!,
			{ role: 'model', parts: [
				{ functionCall: { id: 'call_1', name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl' },
				{ functionCall: { id: generatedId, name: 'get_time', args: { zone: 'CET' } } },
			] },
			{ role: 'user', parts: [
				{ functionResponse: { id: 'call_1', name: 'get_weather', response: { temperature: 21 } } },
				{ functionResponse: { id: generatedId, name: 'get_time', response: { time: '12:00' } } },
			] },
		])
	})

	test('an OpenAI answer with tool calls survives the trip through Gemini\'s format', () => {
		const openAIAnswer = {
			id: 'chatcmpl-1',
			choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] } }],
			usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } },
		}
		const gemini = geminiAnswerFromOpenAI(openAIAnswer, 'gpt-4o-mini')
		expect(gemini.usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 3, thoughtsTokenCount: 2, cachedContentTokenCount: 4, totalTokenCount: 15 })
		const back = openAIAnswerFromGemini(JSON.stringify(gemini), 'gpt-4o-mini') as any
		expect(back.choices[0].message.tool_calls).toEqual(openAIAnswer.choices[0]!.message.tool_calls)
		expect(back.choices[0].finish_reason).toBe('tool_calls')
		expect(back.usage).toEqual(openAIAnswer.usage)
	})
})

describe('the Gemini client stream converter', () => {
	const encoder = new TextEncoder()
	const FIRST_CHUNK = 'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n'
	/** Answers `pieces` one read at a time, then rejects with `failure` (or ends). */
	const readerOf = (pieces: string[], failure?: Error): BodyReader => ({
		async read() {
			const piece = pieces.shift()
			if (piece !== undefined) return { done: false, value: encoder.encode(piece) }
			if (failure) throw failure
			return { done: true }
		},
		async cancel() {},
	})

	const cases: [string, BodyReader, string][] = [
		['a malformed event', readerOf([FIRST_CHUNK, 'data: {not json\n\n']), 'the upstream sent a malformed stream event'],
		['a broken connection', readerOf([FIRST_CHUNK], new Error('socket reset')), 'the upstream connection was lost'],
	]
	for (const [what, reader, message] of cases) {
		test(`${what} ends the stream with a Gemini error as its last element instead of breaking it`, async () => {
			const text = await new Response(geminiStreamFromOpenAI(reader, 'gpt-4o-mini', 'json-array')).text()
			const elements = JSON.parse(text)
			expect(elements[0].candidates[0].content.parts).toEqual([{ text: 'Hel' }])
			expect(elements.at(-1)).toEqual({ error: { code: 502, message, status: 'UNAVAILABLE' } })
		})
	}
})
