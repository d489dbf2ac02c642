import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { type FakeOpenAI, parseFault, startFakeOpenAI } from '../helpers/fake-openai'

const CHANNEL_KEY = 'sk-channel-key-1'

let fake: FakeOpenAI
beforeAll(() => {
	fake = startFakeOpenAI({ name: 'channel-a', apiKey: CHANNEL_KEY, toolCalls: true, promptTokens: 11, firstByteDelayMs: 300, chunkDelayMs: 60 })
})
afterAll(() => fake.stop())
beforeEach(() => {
	fake.requests.length = 0
	fake.setMode('none')
})

function post(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
	return fetch(`${fake.url}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${CHANNEL_KEY}`, 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
		signal,
	})
}

const chatBody = (extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], ...extra })

/** `data:` payloads of an SSE body, in order; `[DONE]` kept as a string, JSON parsed when it parses. */
function sseEvents(text: string) {
	return text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => {
		const data = block.slice('data: '.length)
		if (data === '[DONE]') return data
		try {
			return JSON.parse(data)
		} catch {
			return { unparsable: data }
		}
	})
}

/** How a raw TCP client sees the end of a response: a clean FIN or a reset. */
function rawEnding(path: string, body: string, headers: Record<string, string> = {}) {
	return new Promise<{ data: string; ending: string }>((resolve) => {
		let data = ''
		let sawEnd = false
		const head = Object.entries({ host: '127.0.0.1', authorization: `Bearer ${CHANNEL_KEY}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers })
			.map(([name, value]) => `${name}: ${value}`).join('\r\n')
		void Bun.connect({
			hostname: '127.0.0.1',
			port: fake.port,
			socket: {
				open(socket) {
					socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n${body}`)
				},
				data(_socket, chunk) {
					data += chunk.toString()
				},
				end(socket) {
					sawEnd = true
					socket.end()
				},
				close(_socket, error) {
					resolve({ data, ending: error ? String((error as { code?: string }).code ?? error) : sawEnd ? 'fin' : 'closed' })
				},
			},
		})
	})
}

describe('fake OpenAI upstream: wire format', () => {
	test('chat completion object with usage, and the request is recorded', async () => {
		const response = await post('/v1/chat/completions', chatBody())
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toContain('application/json')
		const completion = await response.json() as any
		expect(completion).toMatchObject({
			object: 'chat.completion',
			model: 'gpt-4o-mini',
			choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from channel-a' }, finish_reason: 'stop' }],
			usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14, prompt_tokens_details: { cached_tokens: 0 } },
		})
		expect(completion.id).toStartWith('chatcmpl-')
		expect(typeof completion.created).toBe('number')
		const [recorded] = fake.requests
		expect(recorded).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: chatBody(), usage: { prompt_tokens: 11, completion_tokens: 3 } })
		expect(recorded!.headers.authorization).toBe(`Bearer ${CHANNEL_KEY}`)
	})

	test('prompt tokens follow the prompt length unless fixed', async () => {
		const derived = startFakeOpenAI()
		try {
			const response = await fetch(`${derived.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(40) }] }] }) })
			expect(((await response.json()) as any).usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3 })
		} finally {
			await derived.stop()
		}
	})

	test('stream without include_usage: role, content pieces, finish reason, [DONE], no usage', async () => {
		const response = await post('/v1/chat/completions', chatBody({ stream: true }))
		expect(response.headers.get('content-type')).toContain('text/event-stream')
		const events = sseEvents(await response.text())
		expect(events.at(-1)).toBe('[DONE]')
		const chunks = events.slice(0, -1) as any[]
		expect(chunks.length).toBe(5)
		expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0].id && !('usage' in chunk))).toBe(true)
		expect(chunks[0].choices[0].delta.role).toBe('assistant')
		expect(chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe('Hello from channel-a')
		expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' })
	})

	test('stream with include_usage: usage null on every chunk, then one chunk with empty choices and usage', async () => {
		const response = await post('/v1/chat/completions', chatBody({ stream: true, stream_options: { include_usage: true } }))
		const events = sseEvents(await response.text())
		expect(events.at(-1)).toBe('[DONE]')
		const chunks = events.slice(0, -1) as any[]
		const last = chunks.at(-1)
		expect(last.choices).toEqual([])
		expect(last.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 })
		expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true)
		expect(chunks.at(-2).choices[0].finish_reason).toBe('stop')
	})

	test('max_tokens cuts the reply with finish_reason length', async () => {
		const completion = await (await post('/v1/chat/completions', chatBody({ max_tokens: 2 }))).json() as any
		expect(completion.choices[0]).toMatchObject({ message: { content: 'Hello from' }, finish_reason: 'length' })
		expect(completion.usage.completion_tokens).toBe(2)
	})

	test('a request with tools gets a tool call, whole or streamed', async () => {
		const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }]
		const whole = await (await post('/v1/chat/completions', chatBody({ tools }))).json() as any
		expect(whole.choices[0].finish_reason).toBe('tool_calls')
		expect(whole.choices[0].message.tool_calls[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } })
		const events = sseEvents(await (await post('/v1/chat/completions', chatBody({ tools, stream: true }))).text()).slice(0, -1) as any[]
		const calls = events.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
		expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } })
		expect(calls.map((call: any) => call.function.arguments).join('')).toBe('{"location":"Paris"}')
		expect(events.at(-1).choices[0].finish_reason).toBe('tool_calls')
	})

	test('legacy completions, whole and streamed', async () => {
		const whole = await (await post('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hello' })).json() as any
		expect(whole).toMatchObject({ object: 'text_completion', choices: [{ text: 'Hello from channel-a', index: 0, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } })
		const events = sseEvents(await (await post('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hello', stream: true, stream_options: { include_usage: true } })).text())
		expect(events.at(-1)).toBe('[DONE]')
		const chunks = events.slice(0, -1) as any[]
		expect(chunks.every((chunk) => chunk.object === 'text_completion')).toBe(true)
		expect(chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('')).toBe('Hello from channel-a')
		expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 3 } })
	})

	test('embeddings as floats and as base64 float32, one per input', async () => {
		const floats = await (await post('/v1/embeddings', { model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 4 })).json() as any
		expect(floats).toMatchObject({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: 11, total_tokens: 11 } })
		expect(floats.data.map((item: any) => [item.object, item.index, item.embedding.length])).toEqual([['embedding', 0, 4], ['embedding', 1, 4]])
		const encoded = await (await post('/v1/embeddings', { model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 4, encoding_format: 'base64' })).json() as any
		const decoded = Array.from(new Float32Array(Buffer.from(encoded.data[1].embedding, 'base64').buffer.slice(0)))
		expect(decoded).toEqual(floats.data[1].embedding)
	})

	test('models list and one model', async () => {
		const list = await (await fetch(`${fake.url}/v1/models`, { headers: { authorization: `Bearer ${CHANNEL_KEY}` } })).json() as any
		expect(list.object).toBe('list')
		expect(list.data[0]).toMatchObject({ id: 'gpt-4o-mini', object: 'model', owned_by: 'fake-openai' })
		expect(typeof list.data[0].created).toBe('number')
		const missing = await fetch(`${fake.url}/v1/models/nope`, { headers: { authorization: `Bearer ${CHANNEL_KEY}` } })
		expect(missing.status).toBe(404)
		expect(((await missing.json()) as any).error.code).toBe('model_not_found')
	})

	test('a wrong key, a bad body and an unknown path get OpenAI error objects', async () => {
		const wrongKey = await post('/v1/chat/completions', chatBody(), { authorization: 'Bearer sk-wrong' })
		expect(wrongKey.status).toBe(401)
		expect(await wrongKey.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } })
		const badBody = await fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${CHANNEL_KEY}` }, body: '{nope' })
		expect(badBody.status).toBe(400)
		expect(((await badBody.json()) as any).error.type).toBe('invalid_request_error')
		const unknown = await post('/v1/nothing', {})
		expect(unknown.status).toBe(404)
	})
})

describe('fake OpenAI upstream: faults', () => {
	test('slow-first-byte delays the headers', async () => {
		const started = performance.now()
		const response = await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'slow-first-byte' })
		expect(performance.now() - started).toBeGreaterThanOrEqual(280)
		expect(response.status).toBe(200)
	})

	test('slow-chunks spaces the SSE chunks', async () => {
		const response = await post('/v1/chat/completions', chatBody({ stream: true }), { 'x-fake-fault': 'slow-chunks=40' })
		const reader = response.body!.getReader()
		const arrivals: number[] = []
		while (!(await reader.read()).done) arrivals.push(performance.now())
		expect(arrivals.length).toBeGreaterThanOrEqual(5)
		expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(40 * 4)
	})

	test('reset-mid-stream sends some chunks, then resets the connection', async () => {
		const response = await post('/v1/chat/completions', chatBody({ stream: true }), { 'x-fake-fault': 'reset-mid-stream=2' })
		expect(response.status).toBe(200)
		const reader = response.body!.getReader()
		let received = ''
		const failure = await (async () => {
			try {
				for (;;) {
					const { done, value } = await reader.read()
					if (done) return undefined
					received += new TextDecoder().decode(value)
				}
			} catch (error) {
				return error
			}
		})()
		expect(failure).toBeDefined()
		expect(sseEvents(received).length).toBe(2)
		const raw = await rawEnding('/v1/chat/completions', JSON.stringify(chatBody({ stream: true })), { 'x-fake-fault': 'reset-mid-stream' })
		expect(raw.ending).toBe('ECONNRESET')
		expect(raw.data).toContain('chat.completion.chunk')
		expect(raw.data).not.toContain('[DONE]')
	})

	test('a normal stream ends cleanly on the same raw client', async () => {
		const raw = await rawEnding('/v1/chat/completions', JSON.stringify(chatBody({ stream: true })), { connection: 'close' })
		expect(raw.data).toContain('[DONE]')
		expect(raw.ending).not.toBe('ECONNRESET')
	})

	test('malformed-sse puts one chunk of invalid JSON in the stream, and cuts a plain body', async () => {
		const events = sseEvents(await (await post('/v1/chat/completions', chatBody({ stream: true }), { 'x-fake-fault': 'malformed-sse=1' })).text())
		expect(events.filter((event) => typeof event === 'object' && 'unparsable' in event).length).toBe(1)
		expect((events[1] as any).unparsable).toBeDefined()
		expect(events.at(-1)).toBe('[DONE]')
		const whole = await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'malformed-sse' })
		await expect(whole.json()).rejects.toThrow()
	})

	test('status faults answer with OpenAI error objects and retry-after', async () => {
		const cases: [string, number, string, string | null][] = [
			['status=429', 429, 'requests', 'rate_limit_exceeded'],
			['status=500', 500, 'server_error', null],
			['status=502', 502, 'server_error', null],
			['status=503', 503, 'server_error', null],
			['status=401', 401, 'invalid_request_error', 'invalid_api_key'],
			['status=400', 400, 'invalid_request_error', 'invalid_value'],
		]
		for (const [fault, status, type, code] of cases) {
			const response = await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': fault })
			expect(response.status).toBe(status)
			const body = await response.json() as any
			expect(body.error).toMatchObject({ type, code, message: expect.any(String) })
			expect(body.error).toHaveProperty('param')
			if (status === 429 || status === 503) expect(response.headers.get('retry-after')).toBe('1')
		}
		const html = await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'status=502,html' })
		expect(html.status).toBe(502)
		expect(html.headers.get('content-type')).toContain('text/html')
	})

	test('huge-body sends a body of the asked size', async () => {
		const whole = await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'huge-body=2' })
		expect((await whole.arrayBuffer()).byteLength).toBeGreaterThan(2 * 1024 * 1024)
		const streamed = await (await post('/v1/chat/completions', chatBody({ stream: true }), { 'x-fake-fault': 'huge-body=1' })).text()
		expect(streamed.length).toBeGreaterThan(1024 * 1024)
		expect(sseEvents(streamed).at(-1)).toBe('[DONE]')
		const embedding = await post('/v1/embeddings', { model: 'text-embedding-3-small', input: 'a' }, { 'x-fake-fault': 'huge-body=1' })
		expect((await embedding.arrayBuffer()).byteLength).toBeGreaterThan(1024 * 1024)
	})

	test('no-usage leaves usage out of whole and streamed answers', async () => {
		const whole = await (await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'no-usage' })).json() as any
		expect(whole.choices[0].message.content).toBe('Hello from channel-a')
		expect(whole).not.toHaveProperty('usage')
		const text = await (await post('/v1/chat/completions', chatBody({ stream: true, stream_options: { include_usage: true } }), { 'x-fake-fault': 'no-usage' })).text()
		expect(text).not.toContain('usage')
		expect(sseEvents(text).at(-1)).toBe('[DONE]')
		expect(fake.requests.every((request) => request.usage === undefined)).toBe(true)
	})

	test('stall-after sends the head and the first events, then only keep-alive comments or nothing until the client goes away', async () => {
		const decoder = new TextDecoder()
		/** What the stream brought within `milliseconds`, then the client goes away. */
		async function readFor(fault: string, milliseconds: number) {
			const response = await post('/v1/chat/completions', chatBody({ stream: true }), { 'x-fake-fault': fault })
			expect(response.status).toBe(200)
			const reader = response.body!.getReader()
			let text = ''
			const deadline = performance.now() + milliseconds
			for (;;) {
				const left = deadline - performance.now()
				if (left <= 0) break
				const chunk = await Promise.race([reader.read(), Bun.sleep(left).then(() => undefined)])
				if (!chunk) break
				if (chunk.done) throw new Error('the stalled stream ended')
				text += decoder.decode(chunk.value)
			}
			await reader.cancel()
			return text
		}
		const silent = await readFor('stall-after=0', 300)
		expect(silent).toBe(': stalled\n\n')
		const kept = await readFor('stall-after=1,keep-alive', 350)
		const events = sseEvents(kept)
		expect(events).toHaveLength(1)
		expect(events[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null })
		expect(kept.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2)
		const flowed = sseEvents(await readFor('stall-after=3', 300))
		expect(flowed.map((event) => event.choices[0].delta.content)).toEqual(['', 'Hello', ' from'])
		const deadline = Date.now() + 2_000
		while (!fake.requests.every((request) => request.aborted) && Date.now() < deadline) await Bun.sleep(20)
		expect(fake.requests.map((request) => request.aborted)).toEqual([true, true, true])
	})

	test('hang never answers; the client gives up and stop() still returns', async () => {
		const hanging = startFakeOpenAI({ fault: 'hang' })
		const started = performance.now()
		const failure = await fetch(`${hanging.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(chatBody()), signal: AbortSignal.timeout(300) }).catch((error) => error)
		expect((failure as Error).name).toBe('TimeoutError')
		expect(performance.now() - started).toBeGreaterThanOrEqual(280)
		expect(hanging.requests.length).toBe(1)
		const pending = fetch(`${hanging.url}/v1/models`).catch((error) => error)
		await Bun.sleep(50)
		await hanging.stop()
		await pending
	})

	test('server mode applies to every call, a request header or prompt marker overrides it, times limits it', async () => {
		fake.setMode('status=503')
		expect((await post('/v1/chat/completions', chatBody())).status).toBe(503)
		expect((await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'none' })).status).toBe(200)
		fake.setMode('none')
		const marked = chatBody({ messages: [{ role: 'user', content: 'hi [fake-fault:status=429]' }] })
		expect((await post('/v1/chat/completions', marked)).status).toBe(429)
		fake.setMode({ name: 'status', status: 500 }, 2)
		const statuses = []
		for (let call = 0; call < 3; call++) statuses.push((await post('/v1/chat/completions', chatBody())).status)
		expect(statuses).toEqual([500, 500, 200])
		expect(fake.requests.map((request) => request.fault.name)).toEqual(['status', 'none', 'status', 'status', 'status', 'none'])
	})

	test('an unknown fault is a loud 400, and parseFault rejects it', async () => {
		const response = await post('/v1/chat/completions', chatBody(), { 'x-fake-fault': 'explode' })
		expect(response.status).toBe(400)
		expect(((await response.json()) as any).error.message).toContain('unknown fake fault')
		expect(() => parseFault('status')).toThrow()
		expect(parseFault('status=502,html')).toEqual({ name: 'status', status: 502, html: true })
	})
})

describe('fake OpenAI upstream through the official openai SDK', () => {
	const client = () => new OpenAI({ apiKey: CHANNEL_KEY, baseURL: `${fake.url}/v1`, maxRetries: 0 })

	test('chat, whole and streamed with usage', async () => {
		const completion = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
		expect(completion.choices[0]!.message.content).toBe('Hello from channel-a')
		expect(completion.usage?.total_tokens).toBe(14)
		const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } })
		let text = ''
		let usage: OpenAI.CompletionUsage | null | undefined
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta.content ?? ''
			if (chunk.usage) usage = chunk.usage
		}
		expect(text).toBe('Hello from channel-a')
		expect(usage?.completion_tokens).toBe(3)
		expect(fake.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true })
	})

	test('tool call streamed through the SDK helper', async () => {
		const runner = client().chat.completions.stream({
			model: 'gpt-4o-mini',
			messages: [{ role: 'user', content: 'weather?' }],
			tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
		})
		const final = await runner.finalChatCompletion()
		expect(final.choices[0]!.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } })
	})

	test('legacy completions, embeddings (the SDK asks for base64) and models', async () => {
		const completion = await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'hi' })
		expect(completion.choices[0]!.text).toBe('Hello from channel-a')
		const embedding = await client().embeddings.create({ model: 'text-embedding-3-small', input: 'hi' })
		expect(fake.requests.at(-1)!.body.encoding_format).toBe('base64')
		expect(embedding.data[0]!.embedding.length).toBe(8)
		expect(embedding.data[0]!.embedding.every((value) => typeof value === 'number' && Math.abs(value) <= 1)).toBe(true)
		const models = []
		for await (const model of client().models.list()) models.push(model.id)
		expect(models).toContain('gpt-4o-mini')
	})

	test('errors surface as the SDK error classes', async () => {
		const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${fake.url}/v1`, maxRetries: 0 })
		const authentication = await wrong.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error)
		expect(authentication).toBeInstanceOf(OpenAI.AuthenticationError)
		expect(authentication.code).toBe('invalid_api_key')
		fake.setMode('status=429')
		const limited = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error)
		expect(limited).toBeInstanceOf(OpenAI.RateLimitError)
		expect(limited.headers.get('retry-after')).toBe('1')
	})
})
