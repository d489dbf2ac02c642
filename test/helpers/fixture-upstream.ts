/**
 * A fake provider upstream on loopback that answers from the recorded fixtures in
 * test/fixtures/providers/<name>/ and records every request it is sent, and the Ferry in front of it
 * that a provider test drives with the OpenAI SDK.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from './database'
import { startRelayHarness, type RelayHarness } from './relay'

const FIXTURES = `${import.meta.dir}/../fixtures/providers`

export interface RecordedRequest {
	method: string
	path: string
	query: URLSearchParams
	headers: Record<string, string>
	rawBody: string
	/** The body parsed as JSON; undefined when it was empty. */
	body: any
}

export interface FixtureUpstream {
	url: string
	requests: RecordedRequest[]
	/** Answers every request from now on with this fixture: `.sse` files as an event stream, the others as JSON. */
	answerWith(file: string, status?: number): void
	stop(): Promise<void>
}

export interface FixtureUpstreamOptions {
	/** The fixture answered until answerWith names another. */
	answer?: string
	/** Answers a request itself when it returns a response; such a request is not recorded in `requests`. */
	intercept?: (request: RecordedRequest) => Response | undefined | Promise<Response | undefined>
}

export function fixturePath(provider: string, file: string) {
	return `${FIXTURES}/${provider}/${file}`
}

export function startFixtureUpstream(provider: string, options: FixtureUpstreamOptions = {}): FixtureUpstream {
	const requests: RecordedRequest[] = []
	let answer = { file: options.answer ?? 'chat.json', status: 200 }
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const url = new URL(request.url)
			const rawBody = await request.text()
			const recorded = { method: request.method, path: url.pathname, query: url.searchParams, headers: Object.fromEntries(request.headers), rawBody, body: rawBody ? JSON.parse(rawBody) : undefined }
			const intercepted = await options.intercept?.(recorded)
			if (intercepted) return intercepted
			requests.push(recorded)
			const type = answer.file.endsWith('.sse') ? 'text/event-stream' : 'application/json'
			return new Response(Bun.file(fixturePath(provider, answer.file)), { status: answer.status, headers: { 'content-type': type } })
		},
	})
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		answerWith(file, status = 200) {
			answer = { file, status }
		},
		stop: () => server.stop(true),
	}
}

/** Resolves to the error a call failed with, or to undefined when it succeeded. */
export function failureOf(promise: Promise<unknown>) {
	return promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)
}

export interface ReadStream {
	/** The content of every delta, joined. */
	text: string
	/** The last usage a chunk carried. */
	usage: OpenAI.CompletionUsage | undefined
	/** The finish reason of each chunk that has a choice, null ones included. */
	finishReasons: (string | null)[]
}

/** Reads a chat stream to its end; rejects when the stream fails. */
export async function readStream(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<ReadStream> {
	const read: ReadStream = { text: '', usage: undefined, finishReasons: [] }
	for await (const chunk of stream) {
		read.text += chunk.choices[0]?.delta?.content ?? ''
		if (chunk.choices[0]) read.finishReasons.push(chunk.choices[0].finish_reason)
		if (chunk.usage) read.usage = chunk.usage
	}
	return read
}

/** The canonical rerank answer a client of Ferry gets. */
export interface RerankAnswer {
	model: string
	results: { index: number; relevance_score: number; document?: { text: string } }[]
	usage: { prompt_tokens: number; total_tokens: number }
}

/** The rerank request the provider tests send: one `{text}` document among plain ones. */
export const RERANK_QUERY = 'What is Ferry?'
export const RERANK_DOCUMENTS = ['Ferry is a self-hosted gateway for LLM APIs.', { text: 'Bananas are yellow.' }, 'A ferry carries passengers across a river.']

/** Calls Ferry's `/v1/rerank` through the SDK's generic POST (it has no rerank method), so errors arrive as APIErrors. */
export const rerankWith = (client: OpenAI, body: Record<string, unknown>) => client.post<RerankAnswer>('/rerank', { body })

export interface ProviderTestSetup extends FixtureUpstreamOptions {
	/** The fixture folder, test/fixtures/providers/<fixtures>/. */
	fixtures: string
	/** Ratios for the models under test, laid over the default ModelRatio. */
	modelRatio: Record<string, number>
	/** Replaces the CacheRatio option when given. */
	cacheRatio?: Record<string, number>
	/** Created in order, each with the fake upstream as its base URL. */
	channels: Record<string, unknown>[]
}

export interface ProviderTest {
	harness: RelayHarness
	upstream: FixtureUpstream
	/** Uses a token of the root user with unlimited quota. */
	client: OpenAI
	/** The newest log entry of any type. */
	lastLog(): Promise<any>
	lastConsumeLog(): Promise<Record<string, any> | undefined>
	/** A 'Hello' chat passes upstream as it is and chat.json's `content` and `usage` come back, logged as `log`. */
	expectChat(model: string, expected: { path: string; authorization: string; content: string; usage: Record<string, number>; log: Record<string, unknown> }): Promise<OpenAI.ChatCompletion>
	/** Runs `call` with the upstream answering `fixture` and checks it wrote no consume log; resolves to its failure. */
	failsUnbilled(call: () => Promise<unknown>, fixture: string): Promise<InstanceType<typeof OpenAI.APIError> | undefined>
	/** The client gets the upstream's own status and message when the upstream answers `fixture` with `status`. */
	expectUpstreamError(call: () => Promise<unknown>, fixture: string, status: number, message: string): Promise<void>
	/** The client gets a 502 naming the channel credentials when the upstream answers `fixture` with `status`. */
	expectRejectedCredentials(call: () => Promise<unknown>, fixture: string, status?: number): Promise<void>
	/** An OpenAI-format stream of chat-stream.sse reaches the client as `text`, asked with usage and logged as `log`. */
	expectStreamedChat(model: string, text: string, log: Record<string, unknown>): Promise<void>
	/** A get_weather tool passes upstream and chat-tools.json's call comes back with `id`, logged as `log`. */
	expectToolCall(model: string, id: string, log: Record<string, unknown>): Promise<void>
	/**
	 * A rerank of RERANK_DOCUMENTS (top 2, documents returned) answered from `fixture` (rerank.json by
	 * default): the upstream request is checked against `expected`, the client gets `results` and
	 * `usage`, and the call is logged as `log`.
	 */
	expectRerank(model: string, expected: { path: string; authorization: string; body: unknown; results: unknown; usage: Record<string, number>; log: Record<string, unknown>; fixture?: string }): Promise<RerankAnswer>
	/** Two texts embedded through embeddings.json are sent as `expected` says and logged as `expected.log`. */
	expectEmbeddings(model: string, expected: { path: string; authorization: string; body: unknown; embeddings: number[][]; log: Record<string, unknown> }): Promise<void>
}

/**
 * Registers the hooks of a provider suite: the fake upstream, a Ferry with the suite's ratios and
 * channels, and a client, and a fresh request record for each test. The fields of the answer are
 * set once beforeAll ran.
 */
export function setUpProviderTest(setup: ProviderTestSetup): ProviderTest {
	const suite = {
		async lastLog() {
			return (await suite.harness.ferry.call('GET', '/api/log/', { as: suite.harness.root })).body.data.items[0]
		},
		async lastConsumeLog() {
			const logs = await suite.harness.ferry.call('GET', '/api/log/?page_size=100', { as: suite.harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)
		},
		async expectChat(model, expected) {
			suite.upstream.answerWith('chat.json')
			const messages = [{ role: 'user' as const, content: 'Hello' }]
			const answer = await suite.client.chat.completions.create({ model, messages })
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.method).toBe('POST')
			expect(sent.path).toBe(expected.path)
			expect(sent.headers.authorization).toBe(expected.authorization)
			expect(sent.body).toEqual({ model, messages })
			expect(answer.choices[0]!.message.content).toBe(expected.content)
			expect(answer.usage).toMatchObject(expected.usage)
			expect(await suite.lastLog()).toMatchObject(expected.log)
			return answer
		},
		async failsUnbilled(call, fixture) {
			const before = await suite.lastConsumeLog()
			suite.upstream.answerWith(fixture)
			const failure = await failureOf(call())
			expect((await suite.lastConsumeLog())?.id).toBe(before?.id)
			return failure
		},
		async expectUpstreamError(call, fixture, status, message) {
			suite.upstream.answerWith(fixture, status)
			const error = await failureOf(call())
			expect(error).toBeInstanceOf(OpenAI.APIError)
			expect(error?.status).toBe(status)
			expect(error?.message).toContain(message)
		},
		async expectRejectedCredentials(call, fixture, status = 401) {
			suite.upstream.answerWith(fixture, status)
			const error = await failureOf(call())
			expect(error).toBeInstanceOf(OpenAI.APIError)
			expect(error?.status).toBe(502)
			expect(error?.message).toContain('the upstream rejected the channel credentials')
		},
		async expectStreamedChat(model, text, log) {
			suite.upstream.answerWith('chat-stream.sse')
			const stream = await suite.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello' }], stream: true })
			expect((await readStream(stream)).text).toBe(text)
			const sent = suite.upstream.requests.at(-1)!.body
			expect(sent.stream).toBe(true)
			expect(sent.stream_options).toEqual({ include_usage: true })
			expect(await suite.lastLog()).toMatchObject(log)
		},
		async expectToolCall(model, id, log) {
			suite.upstream.answerWith('chat-tools.json')
			const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
			const answer = await suite.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
			expect(suite.upstream.requests.at(-1)!.body.tools).toEqual(tools)
			expect(answer.choices[0]!.finish_reason).toBe('tool_calls')
			expect(answer.choices[0]!.message.tool_calls).toEqual([{ id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }])
			expect(await suite.lastLog()).toMatchObject(log)
		},
		async expectRerank(model, expected) {
			suite.upstream.answerWith(expected.fixture ?? 'rerank.json')
			const answer = await rerankWith(suite.client, { model, query: RERANK_QUERY, documents: RERANK_DOCUMENTS, top_n: 2, return_documents: true })
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.method).toBe('POST')
			expect(sent.path).toBe(expected.path)
			expect(sent.headers.authorization).toBe(expected.authorization)
			expect(sent.body).toEqual(expected.body)
			expect(answer.results).toEqual(expected.results as never)
			expect(answer.usage).toEqual(expected.usage as never)
			expect(await suite.lastLog()).toMatchObject(expected.log)
			return answer
		},
		async expectEmbeddings(model, expected) {
			suite.upstream.answerWith('embeddings.json')
			const answer = await suite.client.embeddings.create({ model, input: ['first text', 'second text'] })
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe(expected.path)
			expect(sent.headers.authorization).toBe(expected.authorization)
			expect(sent.body).toEqual(expected.body)
			expect(answer.data.map((item) => item.embedding)).toEqual(expected.embeddings)
			expect(await suite.lastLog()).toMatchObject(expected.log)
		},
	} as ProviderTest

	beforeAll(async () => {
		suite.upstream = startFixtureUpstream(setup.fixtures, setup)
		suite.harness = await startRelayHarness(databaseTargets()[0]!)
		const options = suite.harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...setup.modelRatio }))
		if (setup.cacheRatio) await options.set('CacheRatio', JSON.stringify(setup.cacheRatio))
		for (const channel of setup.channels) await suite.harness.createChannel({ base_url: suite.upstream.url, ...channel })
		suite.client = suite.harness.client((await suite.harness.createToken()).key)
	})
	beforeEach(() => {
		suite.upstream.requests.length = 0
	})
	afterAll(async () => {
		await suite.harness.close()
		await suite.upstream.stop()
	})
	return suite
}
