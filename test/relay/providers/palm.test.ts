import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type OpenAI from 'openai'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { fixture } from '../../fixtures/providers/gemini/fake-gemini'

const PALM_KEY = 'AIzaSyFakePalmChannelKey0123456789'

describe('the PaLM 2 provider (type 11)', () => {
	let harness: RelayHarness
	let client: OpenAI
	const requests: { path: string; key: string | null; body: any }[] = []
	let answer = { fixture: 'generate-message.json', status: 200 }
	const upstream = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const url = new URL(request.url)
			requests.push({ path: url.pathname, key: url.searchParams.get('key'), body: await request.json() })
			const folder = answer.fixture.startsWith('error') ? 'gemini' : 'palm'
			return new Response(fixture(answer.fixture, folder), { status: answer.status, headers: { 'content-type': 'application/json' } })
		},
	})

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'chat-bison-001': 0.25 }))
		await harness.createChannel({ type: 11, key: PALM_KEY, base_url: `http://127.0.0.1:${upstream.port}`, models: 'chat-bison-001' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop(true)
	})

	test('sends chat to generateMessage with the key in the query, the system text as context and the speakers by author', async () => {
		answer = { fixture: 'generate-message.json', status: 200 }
		const completion = await client.chat.completions.create({
			model: 'chat-bison-001',
			messages: [{ role: 'system', content: 'Be kind.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Say hello' }],
			temperature: 0.5,
		})
		expect(requests.at(-1)).toEqual({
			path: '/v1beta2/models/chat-bison-001:generateMessage',
			key: PALM_KEY,
			body: { prompt: { context: 'Be kind.', messages: [{ author: '0', content: 'Hi' }, { author: '1', content: 'Hello' }, { author: '0', content: 'Say hello' }] }, temperature: 0.5 },
		})
		expect(completion.choices[0]!.message.content).toBe('Hello from PaLM')
		expect(completion.choices[0]!.finish_reason).toBe('stop')
	})

	test('sends a message\'s text parts one per line, never run together, while an assistant message\'s parts are joined as they are', async () => {
		answer = { fixture: 'generate-message.json', status: 200 }
		await client.chat.completions.create({
			model: 'chat-bison-001',
			messages: [
				{ role: 'system', content: [{ type: 'text', text: 'Be kind.' }, { type: 'text', text: 'Answer in French.' }] },
				{ role: 'user', content: [{ type: 'text', text: 'File a.txt: alpha' }, { type: 'text', text: 'What is in a.txt?' }] },
				{ role: 'assistant', content: [{ type: 'text', text: 'It says ' }, { type: 'text', text: 'alpha.' }] },
				{ role: 'user', content: 'Thanks' },
			],
		})
		expect(requests.at(-1)!.body.prompt).toEqual({
			context: 'Be kind.\nAnswer in French.',
			messages: [{ author: '0', content: 'File a.txt: alpha\nWhat is in a.txt?' }, { author: '1', content: 'It says alpha.' }, { author: '0', content: 'Thanks' }],
		})
	})

	test('bills with locally counted tokens, since PaLM reports no usage', async () => {
		answer = { fixture: 'generate-message.json', status: 200 }
		const completion = await client.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'Say hello' }] })
		expect(completion.usage).toBeUndefined()
		const entry = (await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })).body.data.items[0]
		expect(entry.model_name).toBe('chat-bison-001')
		expect(entry.prompt_tokens).toBeGreaterThan(0)
		expect(entry.completion_tokens).toBeGreaterThan(0)
		expect(entry.other.local_count_tokens).toBe(true)
	})

	test('answers a filtered prompt with the filter message and a content_filter finish', async () => {
		answer = { fixture: 'generate-message-filtered.json', status: 200 }
		const completion = await client.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'Something blocked' }] })
		expect(completion.choices[0]!.finish_reason).toBe('content_filter')
		expect(completion.choices[0]!.message.content).toBe('The prompt was blocked.')
	})

	test('refuses to stream, which PaLM\'s chat API cannot', async () => {
		const failure = await client.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'Hi' }], stream: true }).catch((error) => error)
		expect(failure.status).toBe(400)
		expect(failure.error).toMatchObject({ code: 'endpoint_not_supported', message: 'no channel serving the model chat-bison-001 supports streaming chat' })
	})

	test('passes upstream errors on, and a 401 as "the upstream rejected the channel credentials"', async () => {
		answer = { fixture: 'error-invalid-key.json', status: 400 }
		const invalid = await client.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(invalid.status).toBe(400)
		expect(invalid.error.message).toBe('API key not valid. Please pass a valid API key.')
		answer = { fixture: 'error-unauthenticated.json', status: 401 }
		const rejected = await client.chat.completions.create({ model: 'chat-bison-001', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(rejected.status).toBe(502)
		expect(rejected.error.message).toBe('the upstream rejected the channel credentials')
	})
})
