/**
 * `/v1/responses` on channels that speak OpenAI's Responses API (docs/architecture.md#the-relay, same-format traffic),
 * driven by the official openai SDK: the client's body goes upstream with only the model mapped, the
 * answer and its events come back as they came, each call is billed by its ratios from the usage the
 * upstream reported (cached tokens at the cache ratio, reasoning tokens inside the output), and a kept
 * response is continued, read, listed, cancelled and deleted through the channel that created it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import { failureOf } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { responsesFixture, startFakeResponses, type FakeResponses } from '../fixtures/providers/openai/fake-responses'

const GPT_MODEL = 'gpt-5'
/** Served by an Azure channel, whose deployment for it is `gpt-41`. */
const AZURE_MODEL = 'gpt-4.1'
/** Mapped by the channel to GPT_MODEL. */
const GPT_ALIAS = 'house-gpt'
const MODEL_RATIO = 0.625
const COMPLETION_RATIO = 8
const CACHE_RATIO = 0.1
/** CreateCacheRatio's default: cache writes cost a quarter more than plain input. */
const CACHE_WRITE_RATIO = 1.25

/** response.json: 1536 input tokens (1024 cached), 180 output (128 of them reasoning). */
const WHOLE_QUOTA = Math.round((1536 - 1024 + 1024 * CACHE_RATIO + 180 * COMPLETION_RATIO) * MODEL_RATIO)
/** response-stream.sse: 2048 input tokens (1536 read from the cache, 256 written to it), 96 output (64 reasoning). */
const STREAM_QUOTA = Math.round((2048 - 1536 - 256 + 1536 * CACHE_RATIO + 256 * CACHE_WRITE_RATIO + 96 * COMPLETION_RATIO) * MODEL_RATIO)

const streamEvents = () => responsesFixture('response-stream.sse').split('\n\n').filter(Boolean).map((block) => JSON.parse(block.split('\ndata: ')[1]!))

for (const target of databaseTargets()) {
	describe(`the Responses API on a channel that speaks it, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let first: FakeResponses
		let second: FakeResponses
		let azure: FakeResponses
		let client: OpenAI
		let otherUser: OpenAI

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			first = startFakeResponses()
			second = startFakeResponses()
			azure = startFakeResponses()
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [GPT_MODEL]: MODEL_RATIO, [GPT_ALIAS]: MODEL_RATIO, [AZURE_MODEL]: MODEL_RATIO }))
			await options.set('CompletionRatio', JSON.stringify({ [GPT_MODEL]: COMPLETION_RATIO, [GPT_ALIAS]: COMPLETION_RATIO }))
			await options.set('CacheRatio', JSON.stringify({ [GPT_MODEL]: CACHE_RATIO, [GPT_ALIAS]: CACHE_RATIO }))
			// Two OpenAI channels serve the model: a continued response must go back to the one that made it.
			for (const upstream of [first, second]) {
				await harness.createChannel({ type: 1, key: 'sk-openai-channel-key', base_url: upstream.url, models: `${GPT_MODEL},${GPT_ALIAS}`, model_mapping: JSON.stringify({ [GPT_ALIAS]: GPT_MODEL }) })
			}
			await harness.createChannel({ type: 3, key: 'azure-channel-key', base_url: azure.url, models: AZURE_MODEL })
			client = harness.client((await harness.createToken()).key)
			const other = await harness.ferry.createUser('other-user')
			otherUser = harness.client((await harness.createToken({}, other)).key)
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([first.stop(), second.stop(), azure.stop()])
		})

		const lastRequest = () => [...first.requests, ...second.requests].sort((a, b) => a.at - b.at).at(-1)!
		const consumeLog = async () => {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=20', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)!
		}

		test('a whole response passes through: the upstream gets the client\'s body, the client the upstream\'s answer, billed by its usage', async () => {
			const response = await client.responses.create({ model: GPT_MODEL, input: 'Tell me a three-sentence bedtime story about a unicorn.', reasoning: { effort: 'medium' } })
			const sent = lastRequest()
			expect(sent.method).toBe('POST')
			expect(sent.path).toBe('/v1/responses')
			expect(sent.headers.authorization).toBe('Bearer sk-openai-channel-key')
			expect(sent.body).toEqual({ model: GPT_MODEL, input: 'Tell me a three-sentence bedtime story about a unicorn.', reasoning: { effort: 'medium' } })
			expect(response.id).toMatch(/^resp_fake_\d+$/)
			expect(response).toMatchObject({ ...JSON.parse(responsesFixture('response.json')), id: response.id })
			expect(response.output_text).toBe('In a peaceful grove beneath a silver moon, a unicorn named Lumina discovered a hidden pool.')
			expect(await consumeLog()).toMatchObject({ model_name: GPT_MODEL, prompt_tokens: 1536, completion_tokens: 180, quota: WHOLE_QUOTA, is_stream: false })
		})

		test('a Codex-shaped request reaches the upstream byte for byte, hosted tools and unknown fields included', async () => {
			const body = `{"model":"${GPT_MODEL}","instructions":"You are Codex.","input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions>\\u00e9</permissions>"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],
 "tools":[{"type":"function","name":"shell","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}}},"strict":false},{"type":"web_search"},{"type":"namespace","name":"crm","description":"CRM","tools":[]}],
 "tool_choice":"auto","parallel_tool_calls":false,"reasoning":{"effort":"medium","summary":"auto"},"store":false,"stream":true,"include":["reasoning.encrypted_content"],"prompt_cache_key":"0199a2b4","client_metadata":{"x":1.50}}`
			const answer = await fetch(`${harness.baseUrl}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' }, body })
			expect(answer.status).toBe(200)
			expect(lastRequest().rawBody).toBe(body)
			expect(await answer.text()).toBe(responsesFixture('response-stream.sse'))
		})

		test('reasoning items sent back pass as they are when OpenAI made them; those Ferry made on a bridged channel are left out, since OpenAI would refuse their content', async () => {
			const own = { type: 'reasoning', id: 'rs_openai_1', summary: [], encrypted_content: 'gAAAAABpOpenAIOwnEncryptedReasoning==' }
			const bridged = { type: 'reasoning', id: 'rs_ferry_1', summary: [], encrypted_content: `ferry-thinking-v1.${Buffer.from(JSON.stringify([{ type: 'thinking', thinking: 'Hm.', signature: 'c2ln' }])).toString('base64url')}` }
			const question = { role: 'user', content: 'Hi' }
			const answer = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] }
			const input = [question, own, answer, { role: 'user', content: 'Again' }, bridged, answer, { role: 'user', content: 'Once more' }]
			const response = await client.responses.create({ model: GPT_MODEL, store: false, include: ['reasoning.encrypted_content'], input } as never) as OpenAI.Responses.Response
			expect(response.status).toBe('completed')
			expect(lastRequest().body.input).toEqual(input.filter((item) => item !== bridged))
		})

		test('a mapped model is the only change to the body upstream', async () => {
			await client.responses.create({ model: GPT_ALIAS, input: 'Hi', store: false })
			expect(lastRequest().body).toEqual({ model: GPT_MODEL, input: 'Hi', store: false })
			expect(await consumeLog()).toMatchObject({ model_name: GPT_ALIAS, quota: WHOLE_QUOTA })
		})

		test('a stream\'s events reach the client as the upstream sent them, and the call is billed by response.completed\'s usage', async () => {
			const stream = await client.responses.create({ model: GPT_MODEL, input: 'Say hi', stream: true })
			const events: OpenAI.Responses.ResponseStreamEvent[] = []
			for await (const event of stream) events.push(event)
			expect(events).toEqual(streamEvents())
			expect(await consumeLog()).toMatchObject({ prompt_tokens: 2048, completion_tokens: 96, quota: STREAM_QUOTA, is_stream: true })
		})

		test('a kept response is continued on the channel that created it, whichever channel routing would pick', async () => {
			const created = await client.responses.create({ model: GPT_MODEL, input: 'Remember the number 7.' })
			const maker = lastRequest().upstream
			for (let turn = 0; turn < 4; turn++) {
				await client.responses.create({ model: GPT_MODEL, previous_response_id: created.id, input: [{ role: 'user', content: 'Which number?' }] })
				expect(lastRequest().upstream).toBe(maker)
				expect(lastRequest().body.previous_response_id).toBe(created.id)
			}
		})

		test('a streamed response is kept too: its id is known once response.created has passed', async () => {
			const stream = await client.responses.create({ model: GPT_MODEL, input: 'Say hi', stream: true })
			let id = ''
			for await (const event of stream) if (event.type === 'response.created') id = event.response.id
			const retrieved = await client.responses.retrieve(id)
			expect(retrieved.id).toBe(id)
			expect(lastRequest()).toMatchObject({ method: 'GET', path: `/v1/responses/${id}` })
		})

		test('reading, listing, cancelling and deleting a kept response go to its channel, with the query string', async () => {
			const created = await client.responses.create({ model: GPT_MODEL, input: 'Tell me a story.' })
			const maker = lastRequest().upstream
			const retrieved = await client.responses.retrieve(created.id, { include: ['reasoning.encrypted_content'] })
			expect(retrieved.id).toBe(created.id)
			expect(lastRequest()).toMatchObject({ upstream: maker, method: 'GET', path: `/v1/responses/${created.id}`, search: '?include%5B%5D=reasoning.encrypted_content' })
			expect(lastRequest().headers.authorization).toBe('Bearer sk-openai-channel-key')
			const items = await client.responses.inputItems.list(created.id, { limit: 5 })
			expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' })
			expect(lastRequest()).toMatchObject({ upstream: maker, method: 'GET', path: `/v1/responses/${created.id}/input_items`, search: '?limit=5' })
			const cancelled = await client.responses.cancel(created.id)
			expect(cancelled.status).toBe('cancelled')
			expect(lastRequest()).toMatchObject({ upstream: maker, method: 'POST', path: `/v1/responses/${created.id}/cancel` })
			await client.responses.delete(created.id)
			expect(lastRequest()).toMatchObject({ upstream: maker, method: 'DELETE', path: `/v1/responses/${created.id}` })
			const calls = first.requests.length + second.requests.length
			const gone = await failureOf(client.responses.retrieve(created.id))
			expect(gone?.status).toBe(404)
			expect(first.requests.length + second.requests.length).toBe(calls)
		})

		test('another user\'s response is not found, and its channel is not asked', async () => {
			const created = await client.responses.create({ model: GPT_MODEL, input: 'Private.' })
			const calls = first.requests.length + second.requests.length
			const error = await failureOf(otherUser.responses.retrieve(created.id))
			expect(error?.status).toBe(404)
			expect(error?.message).toContain(`Response with id '${created.id}' not found`)
			const continued = await failureOf(otherUser.responses.create({ model: GPT_MODEL, previous_response_id: created.id, input: 'Go on.' }))
			expect(continued?.status).toBe(400)
			expect(first.requests.length + second.requests.length).toBe(calls)
		})

		test('a response created with store false is not kept: continuing it is a 400 before anything is held or sent', async () => {
			const created = await client.responses.create({ model: GPT_MODEL, input: 'Ephemeral.', store: false })
			const before = await consumeLog()
			const calls = first.requests.length + second.requests.length
			const error = await failureOf(client.responses.create({ model: GPT_MODEL, previous_response_id: created.id, input: 'Go on.' }))
			expect(error?.status).toBe(400)
			expect(error?.code).toBe('previous_response_not_found')
			expect(first.requests.length + second.requests.length).toBe(calls)
			expect((await consumeLog()).id).toBe(before.id)
		})

		test('an upstream error reaches the client with its status and message, and nothing is billed', async () => {
			const before = await consumeLog()
			first.fail(400, 'Invalid value for reasoning.effort', 2)
			second.fail(400, 'Invalid value for reasoning.effort', 2)
			const error = await failureOf(client.responses.create({ model: GPT_MODEL, input: 'Hi', reasoning: { effort: 'extreme' as never } }))
			expect(error).toBeInstanceOf(OpenAI.APIError)
			expect(error?.status).toBe(400)
			expect(error?.message).toContain('Invalid value for reasoning.effort')
			expect((await consumeLog()).id).toBe(before.id)
			first.fail(200, '', 0)
			second.fail(200, '', 0)
		})

		test('an Azure channel is sent the Responses API on its v1 route, the deployment named in the body', async () => {
			const response = await client.responses.create({ model: AZURE_MODEL, input: 'Hi' })
			const sent = azure.requests.at(-1)!
			expect(sent.path).toBe('/openai/v1/responses')
			expect(sent.headers['api-key']).toBe('azure-channel-key')
			expect(sent.body).toEqual({ model: 'gpt-41', input: 'Hi' })
			expect(response.output_text).toContain('Lumina')
			await client.responses.retrieve(response.id)
			expect(azure.requests.at(-1)).toMatchObject({ method: 'GET', path: `/openai/v1/responses/${response.id}` })
		})

		test('with answers checked for sensitive words, continuing a kept response is a 400: its channel\'s answers could not be checked', async () => {
			const created = await client.responses.create({ model: GPT_MODEL, input: 'Remember 7.' })
			const options = harness.ferry.dependencies.options
			await options.set('CheckSensitiveEnabled', 'true')
			await options.set('CheckSensitiveOnCompletionEnabled', 'true')
			await options.set('SensitiveWords', 'kraken')
			try {
				const calls = first.requests.length + second.requests.length
				const error = await failureOf(client.responses.create({ model: GPT_MODEL, previous_response_id: created.id, input: 'Which number?' }))
				expect(error?.status).toBe(400)
				expect(error?.message).toContain('sensitive words')
				expect(first.requests.length + second.requests.length).toBe(calls)
			} finally {
				await options.set('CheckSensitiveOnCompletionEnabled', 'false')
				await options.set('CheckSensitiveEnabled', 'false')
			}
		})

		test('background responses are refused with a 400 before anything is held or sent', async () => {
			const calls = first.requests.length + second.requests.length
			const error = await failureOf(client.responses.create({ model: GPT_MODEL, input: 'Later.', background: true }))
			expect(error?.status).toBe(400)
			expect(error?.message).toContain('background')
			expect(first.requests.length + second.requests.length).toBe(calls)
		})
	})
}
