import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { RERANK_QUERY, readStream, rerankWith, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'command-a-03-2025'
const RERANK_MODEL = 'rerank-v3.5'
const EMBEDDING_MODEL = 'embed-english-v3.0'

describe('the Cohere provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'cohere',
		modelRatio: { 'command-a-03-2025': 1, 'rerank-v3.5': 1, 'embed-english-v3.0': 1 },
		channels: [{ type: CHANNEL_TYPE.cohere, key: 'cohere-api-key', models: 'command-a-03-2025,rerank-v3.5,embed-english-v3.0' }],
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

	const rerankSent = {
		model: RERANK_MODEL,
		query: RERANK_QUERY,
		documents: ['Ferry is a self-hosted gateway for LLM APIs.', 'Bananas are yellow.', 'A ferry carries passengers across a river.'],
		top_n: 2,
		return_documents: true,
	}
	const rerankResults = [
		{ index: 0, relevance_score: 0.999071, document: { text: 'Ferry is a self-hosted gateway for LLM APIs.' } },
		{ index: 2, relevance_score: 0.32713068, document: { text: 'A ferry carries passengers across a river.' } },
	]

	test('sends a rerank to /v1/rerank and, as Cohere reports only search units, bills a local count of query and documents', () => suite.expectRerank(RERANK_MODEL, {
		path: '/v1/rerank',
		authorization: 'Bearer cohere-api-key',
		body: rerankSent,
		results: rerankResults,
		// o200k: 4 for the query and 13, 5 and 8 for the documents.
		usage: { prompt_tokens: 30, total_tokens: 30 },
		log: { model_name: RERANK_MODEL, prompt_tokens: 30, completion_tokens: 0, quota: 30, other: { local_count_tokens: true } },
	}))

	test('bills the input tokens of a rerank answer that reports them', () => suite.expectRerank(RERANK_MODEL, {
		fixture: 'rerank-with-tokens.json',
		path: '/v1/rerank',
		authorization: 'Bearer cohere-api-key',
		body: rerankSent,
		results: [{ index: 0, relevance_score: 0.999071 }, { index: 2, relevance_score: 0.32713068 }],
		usage: { prompt_tokens: 52, total_tokens: 52 },
		log: { model_name: RERANK_MODEL, prompt_tokens: 52, quota: 52 },
	}))

	test('hands a rerank error to the client with its status and message', () => suite.expectUpstreamError(() => rerankWith(suite.client, { model: RERANK_MODEL, query: RERANK_QUERY, documents: ['one'] }), 'error-invalid-request.json', 400, 'message must be at least 1 token long'))

	test('converts embeddings to a /v1/embed request for float vectors and bills the billed input tokens', async () => {
		suite.upstream.answerWith('embed.json')
		const answer = await suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: ['first text', 'second text'] })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.path).toBe('/v1/embed')
		expect(sent.headers.authorization).toBe('Bearer cohere-api-key')
		expect(sent.body).toEqual({ model: EMBEDDING_MODEL, texts: ['first text', 'second text'], input_type: 'search_document', embedding_types: ['float'] })
		expect(answer.data.map((item) => item.embedding)).toEqual([[0.016296387, -0.008354187, -0.04699707, 0.0112838745], [-0.02095032, 0.0120391846, -0.037139893, 0.015563965]])
		expect(answer.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 })
		expect(await suite.lastLog()).toMatchObject({ model_name: EMBEDDING_MODEL, prompt_tokens: 4, completion_tokens: 0, quota: 4 })
	})

	test('takes the embedding input type from the request\'s extra field', async () => {
		suite.upstream.answerWith('embed.json')
		await suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: 'What is Ferry?', input_type: 'search_query' } as never)
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ texts: ['What is Ferry?'], input_type: 'search_query' })
	})

	test('refuses token arrays for embeddings as a client error, without calling Cohere or billing', async () => {
		const failure = await suite.failsUnbilled(() => suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: [[1, 2, 3]] }), 'embed.json')
		expect(failure?.status).toBe(400)
		expect(failure?.message).toContain('Cohere embeds text only')
		expect(suite.upstream.requests).toHaveLength(0)
	})

	test('hands an embeddings error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }), 'error-invalid-request.json', 400, 'message must be at least 1 token long'))
})
