/**
 * Same-format traffic (docs/architecture.md#the-relay): a client on a channel that speaks its own wire format — Claude on
 * Anthropic and Bedrock, Gemini on Gemini and Vertex AI, OpenAI on an OpenAI-compatible API — sends
 * its body upstream with only the model mapped, and gets the upstream's answer back as it came. The
 * bodies carry what a re-serialisation would change (`1.50`, `\u00e9`, odd spacing) and what a
 * conversion would lose (thinking signatures, `cache_control`, tools, `thoughtSignature`, fields no
 * API has yet), so each comparison is of bytes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import Anthropic from '@anthropic-ai/sdk'
import { databaseTargets } from '../helpers/database'
import { fixturePath, startFixtureUpstream, type FixtureUpstream } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { chunkMessage, concatenate } from '../fixtures/providers/aws/event-stream-frames'
import { startFakeGemini, type FakeGemini } from '../fixtures/providers/gemini/fake-gemini'

const CLAUDE_MODEL = 'claude-sonnet-4-20250514'
/** Routed to the Anthropic channel, whose mapping sends it upstream as CLAUDE_MODEL. */
const CLAUDE_ALIAS = 'claude-house-default'
const BEDROCK_MODEL = 'claude-3-5-sonnet-20240620'
const GEMINI_MODEL = 'gemini-2.0-flash'
const VERTEX_MODEL = 'gemini-2.5-pro'
const OPENAI_MODEL = 'moonshot-v1-8k'
const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'
const BETAS = 'interleaved-thinking-2025-05-14,context-management-2025-06-27'
const AWS_KEY = 'AKIAFERRYTEST0000001|ferryTestSecretAccessKey/0000000000000000|us-east-1'

const fixtureText = (provider: string, file: string) => Bun.file(fixturePath(provider, file)).text()

/** A Claude request with a thinking block and its signature, `cache_control` markers, a tool, and fields no API knows yet. */
const claudeRequest = (model: string, stream = false) => `{"model":"${model}", "max_tokens":1024,${stream ? ' "stream":true,' : ''}
 "system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral","ttl":"1h"}}],
 "thinking":{"type":"enabled","budget_tokens":512}, "top_k":5,
 "tools":[{"name":"get_weather","description":"Current weather","input_schema":{"type":"object","properties":{"location":{"type":"string"}}},"cache_control":{"type":"ephemeral"}}],
 "messages":[{"role":"user","content":"Weather in Paris?"},
  {"role":"assistant","content":[{"type":"thinking","thinking":"Use the tool.","signature":"${SIGNATURE}"},{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"location":"Paris"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"18 \\u00b0C","is_error":false,"cache_control":{"type":"ephemeral"}}]}],
 "metadata":{"user_id":"u-1"}, "a_future_field":{"kept":[1.50,"\\u00e9"]}}`

/** A Gemini request with a function call's `thoughtSignature`, safety settings and fields no API knows yet. */
const geminiRequest = `{"contents":[{"role":"user","parts":[{"text":"Weather in Paris?"}]},
 {"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"location":"Paris"}},"thoughtSignature":"c2lnbmF0dXJl"}]},
 {"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"temperature":21.50}}}]}],
 "tools":[{"functionDeclarations":[{"name":"get_weather","parameters":{"type":"OBJECT","properties":{"location":{"type":"STRING"}}}}]}],
 "safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"BLOCK_ONLY_HIGH"}],
 "generationConfig":{"thinkingConfig":{"includeThoughts":true,"thinkingBudget":1024},"temperature":0.50},
 "aFutureField":{"kept":"\\u00e9"}}`

/** An OpenAI request with fields OpenAI-compatible APIs add and spacing a re-serialisation would drop. */
const openAIRequest = (stream: boolean) => `{ "model": "${OPENAI_MODEL}",
  "messages": [ { "role": "user", "content": "Hello \\u00e9" } ],
  "temperature": 0.50, "partial_mode": { "enabled": true }${stream ? ', "stream": true, "stream_options": { "include_usage": true }' : ''} }`

interface RecordedBedrock {
	path: string
	rawBody: string
}

/** A fake Bedrock that answers `invoke` with a Claude message and `invoke-with-response-stream` with an event stream. */
function startFakeBedrock() {
	const requests: RecordedBedrock[] = []
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const path = request.url.replace(/^https?:\/\/[^/]+/, '')
			requests.push({ path, rawBody: await request.text() })
			if (path.endsWith('/invoke')) return new Response(Bun.file(fixturePath('aws', 'invoke-answer.json')), { headers: { 'content-type': 'application/json' } })
			const events = [
				{ type: 'message_start', message: { id: 'msg_bdrk_1', type: 'message', role: 'assistant', model: BEDROCK_MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 14, output_tokens: 1 } } },
				{ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
				{ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Sunny, says the tool.' } },
				{ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
				{ type: 'content_block_stop', index: 0 },
				{ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
				{ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Sunny in Paris.' } },
				{ type: 'content_block_stop', index: 1 },
				{ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
				{ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 14, outputTokenCount: 9 } },
			]
			return new Response(new Uint8Array(concatenate(events.map(chunkMessage))), { headers: { 'content-type': 'application/vnd.amazon.eventstream' } })
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}

const serviceAccount = (tokenUri: string) => {
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })
	return JSON.stringify({ type: 'service_account', project_id: 'ferry-project', private_key_id: 'key-1', private_key: privateKey, client_email: 'relay@ferry-project.iam.gserviceaccount.com', token_uri: tokenUri })
}

describe('same-format calls pass through with only the model mapped', () => {
	let harness: RelayHarness
	let anthropic: FixtureUpstream
	let openAI: FixtureUpstream
	let gemini: FakeGemini
	let bedrock: ReturnType<typeof startFakeBedrock>
	let key: string

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		anthropic = startFixtureUpstream('anthropic', { answer: 'message.json' })
		openAI = startFixtureUpstream('moonshot', { answer: 'chat.json' })
		gemini = startFakeGemini()
		bedrock = startFakeBedrock()
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [CLAUDE_MODEL]: 1.5, [CLAUDE_ALIAS]: 1.5, [BEDROCK_MODEL]: 1.5, [GEMINI_MODEL]: 0.05, [VERTEX_MODEL]: 0.625, [OPENAI_MODEL]: 1 }))
		await harness.createChannel({ type: 14, key: 'sk-ant-channel-key', base_url: anthropic.url, models: `${CLAUDE_MODEL},${CLAUDE_ALIAS}`, model_mapping: JSON.stringify({ [CLAUDE_ALIAS]: CLAUDE_MODEL }) })
		await harness.createChannel({ type: 33, key: AWS_KEY, base_url: bedrock.url, models: BEDROCK_MODEL })
		await harness.createChannel({ type: 24, key: 'AIzaSyFakeGeminiChannelKey0123456789', base_url: gemini.url, models: GEMINI_MODEL })
		await harness.createChannel({ type: 41, key: serviceAccount(`${gemini.url}/token`), base_url: gemini.url, models: VERTEX_MODEL })
		await harness.createChannel({ type: 25, key: 'sk-moonshot-channel-key', base_url: openAI.url, models: OPENAI_MODEL })
		key = (await harness.createToken()).key
	})
	beforeEach(() => {
		anthropic.answerWith('message.json')
		openAI.answerWith('chat.json')
	})
	afterAll(async () => {
		await harness.close()
		await Promise.all([anthropic.stop(), openAI.stop(), gemini.stop(), bedrock.stop()])
	})

	const post = (path: string, body: string, headers: Record<string, string> = {}) =>
		fetch(`${harness.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
	const claudeHeaders = () => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETAS })
	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })).body.data.items[0] as Record<string, any>

	test('a Claude client on an Anthropic channel: the upstream gets the client\'s bytes, the client the upstream\'s', async () => {
		const sent = claudeRequest(CLAUDE_MODEL)
		const answer = await post('/v1/messages', sent, claudeHeaders())
		expect(answer.status).toBe(200)
		expect(await answer.text()).toBe(await fixtureText('anthropic', 'message.json'))
		const received = anthropic.requests.at(-1)!
		expect(received.rawBody).toBe(sent)
		expect(received.headers['x-api-key']).toBe('sk-ant-channel-key')
		expect(received.headers['anthropic-beta']).toBe(BETAS)
		expect(await lastLog()).toMatchObject({ model_name: CLAUDE_MODEL, prompt_tokens: 2312, completion_tokens: 10 })
	})

	test('a Claude client on an Anthropic channel under a mapped model: only the model differs upstream', async () => {
		await post('/v1/messages', claudeRequest(CLAUDE_ALIAS), claudeHeaders())
		const received = JSON.parse(anthropic.requests.at(-1)!.rawBody)
		expect(received).toEqual({ ...JSON.parse(claudeRequest(CLAUDE_ALIAS)), model: CLAUDE_MODEL })
		expect(await lastLog()).toMatchObject({ model_name: CLAUDE_ALIAS })
	})

	test('a Claude client\'s stream on an Anthropic channel reaches it byte for byte, ping events and spacing included', async () => {
		anthropic.answerWith('stream.sse')
		const sent = claudeRequest(CLAUDE_MODEL, true)
		const answer = await post('/v1/messages', sent, claudeHeaders())
		expect(await answer.text()).toBe(await fixtureText('anthropic', 'stream.sse'))
		expect(anthropic.requests.at(-1)!.rawBody).toBe(sent)
		expect(await lastLog()).toMatchObject({ prompt_tokens: 1025, completion_tokens: 15, is_stream: true })
	})

	test('a Claude client on a Bedrock channel: its blocks, signature, cache markers, tool and unknown fields reach Bedrock, with Bedrock\'s version and the betas in the body', async () => {
		const answer = await post('/v1/messages', claudeRequest(BEDROCK_MODEL), claudeHeaders())
		expect(await answer.text()).toBe(await fixtureText('aws', 'invoke-answer.json'))
		const received = bedrock.requests.at(-1)!
		expect(received.path).toBe(`/model/${encodeURIComponent(`anthropic.${BEDROCK_MODEL}-v1:0`)}/invoke`)
		const { model: _, metadata: __, ...rest } = JSON.parse(claudeRequest(BEDROCK_MODEL))
		expect(JSON.parse(received.rawBody)).toEqual({ anthropic_version: 'bedrock-2023-05-31', anthropic_beta: BETAS.split(','), ...rest })
		expect(await lastLog()).toMatchObject({ model_name: BEDROCK_MODEL, prompt_tokens: 20, completion_tokens: 7 })
	})

	test('a Claude client\'s stream on a Bedrock channel gets Claude\'s events, the thinking signature kept, billed by Bedrock\'s metrics', async () => {
		const client = new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
		const message = await client.messages.stream(JSON.parse(claudeRequest(BEDROCK_MODEL))).finalMessage()
		expect(message.content as unknown).toEqual([
			{ type: 'thinking', thinking: 'Sunny, says the tool.', signature: SIGNATURE },
			{ type: 'text', text: 'Sunny in Paris.' },
		])
		const received = bedrock.requests.at(-1)!
		expect(received.path).toEndWith('/invoke-with-response-stream')
		expect(JSON.parse(received.rawBody).a_future_field).toEqual({ kept: [1.5, 'é'] })
		expect(await lastLog()).toMatchObject({ prompt_tokens: 14, completion_tokens: 9, is_stream: true })
	})

	test('a Gemini client on a Gemini channel: the upstream gets the client\'s bytes with the channel\'s key, the client the upstream\'s', async () => {
		const answer = await post(`/v1beta/models/${GEMINI_MODEL}:generateContent`, geminiRequest, { 'x-goog-api-key': key })
		expect(await answer.text()).toBe(await Bun.file(`${import.meta.dir}/../fixtures/providers/gemini/generate-content.json`).text())
		const received = gemini.requests.at(-1)!
		expect(received.path).toBe(`/v1beta/models/${GEMINI_MODEL}:generateContent`)
		expect(received.rawBody).toBe(geminiRequest)
		expect(received.headers['x-goog-api-key']).toBe('AIzaSyFakeGeminiChannelKey0123456789')
		expect(await lastLog()).toMatchObject({ model_name: GEMINI_MODEL, prompt_tokens: 1000, completion_tokens: 200 })
	})

	test('a Gemini client\'s stream on a Gemini channel reaches it byte for byte as SSE, and as the JSON array Google answers without alt=sse', async () => {
		const fixture = await Bun.file(`${import.meta.dir}/../fixtures/providers/gemini/stream-generate-content.sse`).text()
		const sse = await post(`/v1beta/models/${GEMINI_MODEL}:streamGenerateContent?alt=sse`, geminiRequest, { 'x-goog-api-key': key })
		expect(await sse.text()).toBe(fixture)
		expect(gemini.requests.at(-1)!).toMatchObject({ path: `/v1beta/models/${GEMINI_MODEL}:streamGenerateContent`, search: '?alt=sse', rawBody: geminiRequest })
		expect(await lastLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, is_stream: true })
		const array = await post(`/v1beta/models/${GEMINI_MODEL}:streamGenerateContent`, geminiRequest, { 'x-goog-api-key': key })
		const events = fixture.split('\r\n\r\n').filter(Boolean).map((event) => event.replace(/^data: /, ''))
		expect(await array.text()).toBe(`[${events.join(',\r\n')}]`)
	})

	test('a Gemini client on a Vertex AI channel: the upstream gets the client\'s bytes under the project and region', async () => {
		await post(`/v1beta/models/${VERTEX_MODEL}:generateContent`, geminiRequest, { 'x-goog-api-key': key })
		const received = gemini.requests.at(-1)!
		expect(received.path).toBe(`/v1/projects/ferry-project/locations/us-central1/publishers/google/models/${VERTEX_MODEL}:generateContent`)
		expect(received.rawBody).toBe(geminiRequest)
	})

	test('an OpenAI client on an OpenAI-compatible channel: the upstream gets the client\'s bytes, the client the upstream\'s, streamed and not', async () => {
		const whole = openAIRequest(false)
		const answer = await post('/v1/chat/completions', whole, { authorization: `Bearer ${key}` })
		expect(await answer.text()).toBe(await fixtureText('moonshot', 'chat.json'))
		expect(openAI.requests.at(-1)!.rawBody).toBe(whole)
		openAI.answerWith('chat-stream.sse')
		const streamed = openAIRequest(true)
		const stream = await post('/v1/chat/completions', streamed, { authorization: `Bearer ${key}` })
		expect(await stream.text()).toBe(await fixtureText('moonshot', 'chat-stream.sse'))
		expect(openAI.requests.at(-1)!.rawBody).toBe(streamed)
	})
})
