import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createHash, createHmac } from 'node:crypto'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import type { BodyReader } from '@/lib/outbound'
import { parseAwsKey, AwsKeyError } from '@/relay/providers/aws/credentials'
import { readEventStream } from '@/relay/providers/aws/event-stream'
import { bedrockModelId } from '@/relay/providers/aws/model-id'
import { signRequest } from '@/relay/providers/aws/signer'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { chunkMessage, concatenate, encodeMessage, exceptionMessage } from '../../fixtures/providers/aws/event-stream-frames'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/aws`
const fixture = (name: string) => Bun.file(`${FIXTURES}/${name}`).text()
const fixtureJson = async (name: string) => JSON.parse(await fixture(name))

const ACCESS_KEY_ID = 'AKIAFERRYTEST0000001'
const SECRET_ACCESS_KEY = 'ferryTestSecretAccessKey/0000000000000000'
const SESSION_TOKEN = 'FwoGZXIvYXdzEFerryTestSessionToken0000'
const REGION = 'us-east-1'
const MODEL = 'claude-3-5-sonnet-20240620'
const BEDROCK_MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0'
const PROFILE_MODEL = 'us.anthropic.claude-3-5-sonnet-20240620-v1:0'
const SESSION_MODEL = 'claude-3-haiku-20240307'
const ERROR_MODEL = 'claude-3-opus-20240229'
/** A Claude that thinks by budget, as a cross-region inference profile. */
const THINKING_MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'
const ODD_READ_SIZE = 7
const MINUTES_TOLERANCE_MS = 5 * 60 * 1000

const weatherTool = {
	type: 'function' as const,
	function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
}

interface Recorded {
	method: string
	/** The path exactly as it arrived, percent-encoding kept. */
	rawPath: string
	headers: Record<string, string>
	rawBody: string
	body: any
	signatureValid: boolean
}

/**
 * Recomputes the SigV4 signature of a received request from its parts, independently of Ferry's
 * signer: Bedrock, like every service but S3, signs each path segment encoded a second time.
 */
function verifySignature(recorded: Omit<Recorded, 'signatureValid'>, secretAccessKey: string) {
	const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(recorded.headers.authorization ?? '')
	if (!match) return false
	const [, , day, region, service, signedHeaders, signature] = match
	const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
	const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()
	const doubleEncodedPath = recorded.rawPath.split('/').map((segment) => encodeURIComponent(segment)).join('/')
	const canonicalRequest = [
		recorded.method,
		doubleEncodedPath,
		'',
		signedHeaders!.split(';').map((name) => `${name}:${recorded.headers[name]!.trim()}\n`).join(''),
		signedHeaders,
		sha256(recorded.rawBody),
	].join('\n')
	const stringToSign = ['AWS4-HMAC-SHA256', recorded.headers['x-amz-date'], `${day}/${region}/${service}/aws4_request`, sha256(canonicalRequest)].join('\n')
	const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day!), region!), service!), 'aws4_request')
	return hmac(key, stringToSign).toString('hex') === signature
}

/** A body that hands out the given bytes in reads of the given sizes, as a network would. */
function readerOf(bytes: Uint8Array, cuts: number[]): BodyReader {
	const pieces: Uint8Array[] = []
	let start = 0
	for (const cut of [...cuts, bytes.length]) {
		pieces.push(bytes.subarray(start, cut))
		start = cut
	}
	return {
		async read() {
			const piece = pieces.shift()
			return piece === undefined ? { done: true } : { done: false, value: piece }
		},
		async cancel() {
			pieces.length = 0
		},
	}
}

async function decodeAll(reader: BodyReader) {
	const events = readEventStream(reader)
	const decoded: { headers: Record<string, unknown>; payload: string }[] = []
	for (;;) {
		const message = await events.next()
		if (!message) return decoded
		decoded.push({ headers: message.headers, payload: new TextDecoder().decode(message.payload) })
	}
}

describe('the AWS Claude provider (type 33, Amazon Bedrock)', () => {
	describe('SigV4 signing', () => {
		for (const name of ['sigv4-get-vanilla.json', 'sigv4-post-x-www-form-urlencoded.json']) {
			test(`the signer reproduces AWS's published test vector ${name.replace('sigv4-', '').replace('.json', '')}`, async () => {
				const vector = await fixtureJson(name)
				const signed = signRequest({
					method: vector.method,
					url: new URL(vector.url),
					headers: vector.headers,
					body: vector.body,
					region: vector.region,
					service: vector.service,
					credentials: vector.credentials,
					now: Date.parse(vector.date),
				})
				expect(signed.canonicalRequest).toBe(vector.canonicalRequest)
				expect(signed.stringToSign).toBe(vector.stringToSign)
				expect(signed.signature).toBe(vector.signature)
				expect(signed.headers.authorization).toBe(vector.authorization)
				expect(signed.headers['x-amz-date']).toBe('20150830T123600Z')
			})
		}

		test('a path segment holding a colon is signed encoded twice, as non-S3 services canonicalise it', () => {
			const signed = signRequest({
				method: 'POST', url: new URL(`https://bedrock-runtime.us-east-1.amazonaws.com/model/${encodeURIComponent(BEDROCK_MODEL)}/invoke`),
				headers: {}, body: '{}', region: REGION, service: 'bedrock', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' }, now: 0,
			})
			expect(signed.canonicalRequest.split('\n')[1]).toBe('/model/anthropic.claude-3-5-sonnet-20240620-v1%253A0/invoke')
		})

		test('a session token is sent and signed as x-amz-security-token', () => {
			const signed = signRequest({
				method: 'GET', url: new URL('https://example.amazonaws.com/'), headers: {}, body: '', region: REGION, service: 'service',
				credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' }, now: 0,
			})
			expect(signed.headers['x-amz-security-token']).toBe('token')
			expect(signed.headers.authorization).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token,')
		})
	})

	describe('the event stream decoder', () => {
		const messages = async () => [
			chunkMessage({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 3 } } }),
			encodeMessage({ ':message-type': 'event', ':event-type': 'chunk' }, new Uint8Array(0)),
			exceptionMessage('throttlingException', 'Too many requests, please wait before trying again.'),
		]

		test('decodes the same messages whatever byte boundary splits the stream', async () => {
			const whole = concatenate(await messages())
			const expected = await decodeAll(readerOf(whole, []))
			expect(expected.map((message) => message.headers[':message-type'])).toEqual(['event', 'event', 'exception'])
			expect(JSON.parse(expected[2]!.payload)).toEqual({ message: 'Too many requests, please wait before trying again.' })
			for (let cut = 1; cut < whole.length; cut++) expect(await decodeAll(readerOf(whole, [cut]))).toEqual(expected)
			const everyByte = Array.from({ length: whole.length - 1 }, (_, index) => index + 1)
			expect(await decodeAll(readerOf(whole, everyByte))).toEqual(expected)
		})

		test('a wrong message checksum is a SyntaxError', async () => {
			const broken = concatenate(await messages())
			broken[broken.length - 1]! ^= 0xff
			await expect(decodeAll(readerOf(broken, []))).rejects.toBeInstanceOf(SyntaxError)
		})

		test('a wrong prelude checksum is a SyntaxError before the length is trusted', async () => {
			const broken = concatenate(await messages())
			broken[2]! ^= 0x40
			await expect(decodeAll(readerOf(broken, [4]))).rejects.toBeInstanceOf(SyntaxError)
		})

		test('a stream that ends inside a message is a SyntaxError', async () => {
			const whole = concatenate(await messages())
			await expect(decodeAll(readerOf(whole.subarray(0, whole.length - 3), []))).rejects.toBeInstanceOf(SyntaxError)
		})
	})

	describe('model ids and keys', () => {
		test('Anthropic model names map to Bedrock ids and Bedrock ids, profiles and ARNs pass unchanged', () => {
			expect(bedrockModelId(MODEL)).toBe(BEDROCK_MODEL)
			expect(bedrockModelId('claude-3-5-sonnet-20241022')).toBe('anthropic.claude-3-5-sonnet-20241022-v2:0')
			expect(bedrockModelId(BEDROCK_MODEL)).toBe(BEDROCK_MODEL)
			expect(bedrockModelId(PROFILE_MODEL)).toBe(PROFILE_MODEL)
			const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123'
			expect(bedrockModelId(arn)).toBe(arn)
		})

		test('the key is AccessKeyId|SecretAccessKey|Region with an optional session token, and a bad region is refused', () => {
			expect(parseAwsKey(`${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}|${REGION}`)).toEqual({ credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY }, region: REGION })
			expect(parseAwsKey(`${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}|eu-west-3|${SESSION_TOKEN}`).credentials.sessionToken).toBe(SESSION_TOKEN)
			expect(() => parseAwsKey(`${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}`)).toThrow(AwsKeyError)
			expect(() => parseAwsKey(`${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}|evil.example.com/x`)).toThrow(AwsKeyError)
		})
	})

	describe('calls through Ferry to a fake Bedrock runtime', () => {
		let harness: RelayHarness
		let client: OpenAI
		let tokenKey: string
		let upstream: ReturnType<typeof Bun.serve>
		const requests: Recorded[] = []
		let answer: (request: Recorded) => Promise<Response> | Response

		beforeAll(async () => {
			upstream = Bun.serve({
				hostname: '127.0.0.1',
				port: 0,
				async fetch(request) {
					const rawBody = await request.text()
					const rawPath = request.url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '')
					const base = { method: request.method, rawPath, headers: Object.fromEntries(request.headers), rawBody, body: JSON.parse(rawBody) }
					const recorded = { ...base, signatureValid: verifySignature(base, SECRET_ACCESS_KEY) }
					requests.push(recorded)
					if (!recorded.signatureValid) {
						return Response.json({ message: 'The request signature we calculated does not match the signature you provided.' }, { status: 403 })
					}
					return answer(recorded)
				},
			})
			harness = await startRelayHarness(databaseTargets()[0]!)
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1, [PROFILE_MODEL]: 1, [SESSION_MODEL]: 1, [ERROR_MODEL]: 1, [THINKING_MODEL]: 1 }))
			const baseUrl = `http://127.0.0.1:${upstream.port}`
			await harness.createChannel({ type: 33, key: `${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}|${REGION}`, base_url: baseUrl, models: `${MODEL},${PROFILE_MODEL},${THINKING_MODEL}` })
			await harness.createChannel({ type: 33, key: `${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}|eu-west-3|${SESSION_TOKEN}`, base_url: baseUrl, models: SESSION_MODEL })
			await harness.createChannel({ type: 33, key: `${ACCESS_KEY_ID}|${SECRET_ACCESS_KEY}|${REGION}`, base_url: baseUrl, models: ERROR_MODEL })
			tokenKey = (await harness.createToken()).key
			client = harness.client(tokenKey)
		})
		afterAll(async () => {
			await harness.close()
			await upstream.stop(true)
		})
		beforeEach(() => {
			requests.length = 0
		})

		const json = (name: string, status = 200) => async () => new Response(await fixture(name), { status, headers: { 'content-type': 'application/json' } })
		/** An event stream of the given messages, sent in reads of `readSize` bytes so messages span reads. */
		const eventStream = (messages: () => Promise<Uint8Array[]>, readSize = ODD_READ_SIZE) => async () => {
			const whole = concatenate(await messages())
			let offset = 0
			const body = new ReadableStream<Uint8Array>({
				pull(controller) {
					if (offset >= whole.length) return controller.close()
					controller.enqueue(whole.slice(offset, offset + readSize))
					offset += readSize
				},
			})
			return new Response(body, { headers: { 'content-type': 'application/vnd.amazon.eventstream' } })
		}
		const claudeEvents = (name: string, change: (events: any[]) => any[] = (events) => events) => async () => change(await fixtureJson(name)).map(chunkMessage)
		const lastConsumeLog = async () => {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=100', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)
		}
		const collect = async (stream: AsyncIterable<OpenAI.ChatCompletionChunk>) => {
			let text = ''
			let usage: OpenAI.CompletionUsage | null | undefined
			const finishReasons: (string | null)[] = []
			const toolArguments: string[] = []
			const toolNames: string[] = []
			for await (const chunk of stream) {
				const choice = chunk.choices[0]
				text += choice?.delta?.content ?? ''
				if (choice) finishReasons.push(choice.finish_reason)
				for (const call of choice?.delta?.tool_calls ?? []) {
					toolArguments[call.index] = (toolArguments[call.index] ?? '') + (call.function?.arguments ?? '')
					if (call.function?.name) toolNames[call.index] = call.function.name
				}
				if (chunk.usage) usage = chunk.usage
			}
			return { text, usage, finishReason: finishReasons.filter(Boolean).at(-1), toolArguments, toolNames }
		}

		test('a chat call is sent to the model\'s invoke path, SigV4-signed, with the Claude body, and answered in OpenAI\'s shape', async () => {
			answer = json('invoke-answer.json')
			const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello' }], max_tokens: 100, temperature: 0.5, user: 'someone' })
			expect(reply.choices[0]!.message.content).toBe('Hello from Claude on Bedrock')
			expect(reply.choices[0]!.finish_reason).toBe('stop')
			expect(reply.model).toBe(MODEL)

			const sent = requests.at(-1)!
			expect(sent.method).toBe('POST')
			expect(sent.rawPath).toBe('/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke')
			expect(sent.signatureValid).toBe(true)
			expect(sent.headers['content-type']).toBe('application/json')
			expect(sent.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(sent.rawBody).digest('hex'))
			const date = sent.headers['x-amz-date']!
			expect(date).toMatch(/^\d{8}T\d{6}Z$/)
			const sentAt = Date.parse(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13)}`)
			expect(Math.abs(sentAt - Date.now())).toBeLessThan(MINUTES_TOLERANCE_MS)
			expect(sent.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/${date.slice(0, 8)}/${REGION}/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=`)
			expect(sent.headers['x-amz-security-token']).toBeUndefined()
			expect(sent.body).toEqual({
				anthropic_version: 'bedrock-2023-05-31',
				max_tokens: 100,
				system: [{ type: 'text', text: 'Be brief.' }],
				messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
				temperature: 0.5,
			})
		})

		test('usage counts cache reads inside the prompt tokens, and the call is billed with it', async () => {
			answer = json('invoke-answer.json')
			const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
			expect(reply.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 7, total_tokens: 27, prompt_tokens_details: { cached_tokens: 8 } })
			expect(await lastConsumeLog()).toMatchObject({ model_name: MODEL, prompt_tokens: 20, completion_tokens: 7, is_stream: false })
		})

		test('a model already in Bedrock form, such as a cross-region inference profile, is sent unchanged', async () => {
			answer = json('invoke-answer.json')
			await client.chat.completions.create({ model: PROFILE_MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
			expect(requests.at(-1)!.rawPath).toBe('/model/us.anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke')
			expect(requests.at(-1)!.signatureValid).toBe(true)
		})

		test('reasoning_effort becomes Claude thinking in the Bedrock body (budget, max_tokens above it, no temperature) and the thinking comes back as reasoning_content', async () => {
			const thinking = 'The user greets; answer in kind.'
			answer = () => Response.json({
				id: 'msg_bdrk_thinking', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929',
				content: [{ type: 'thinking', thinking, signature: 'EqQBCkYIBxgCKkBedrockSignature' }, { type: 'text', text: 'Hello!' }],
				stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 12, output_tokens: 40 },
			})
			const reply = await client.chat.completions.create({ model: THINKING_MODEL, messages: [{ role: 'user', content: 'Say hello' }], reasoning_effort: 'medium', temperature: 0.5 })
			const sent = requests.at(-1)!.body
			expect(sent).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', thinking: { type: 'enabled', budget_tokens: 8192 }, max_tokens: 8192 + 4096 })
			expect(sent).not.toHaveProperty('temperature')
			expect((reply.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string }).reasoning_content).toBe(thinking)
			expect(reply.choices[0]!.message.content).toBe('Hello!')
			expect(await lastConsumeLog()).toMatchObject({ model_name: THINKING_MODEL, prompt_tokens: 12, completion_tokens: 40 })
		})

		test('temporary credentials send their session token, signed, in the key\'s region', async () => {
			answer = json('invoke-answer.json')
			await client.chat.completions.create({ model: SESSION_MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
			const sent = requests.at(-1)!
			expect(sent.rawPath).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke')
			expect(sent.headers['x-amz-security-token']).toBe(SESSION_TOKEN)
			expect(sent.headers.authorization).toContain('/eu-west-3/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,')
			expect(sent.signatureValid).toBe(true)
		})

		test('a stream goes to invoke-with-response-stream and its event-stream frames become OpenAI chunks with usage, billed', async () => {
			answer = eventStream(claudeEvents('stream-events.json'))
			const result = await collect(await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } }))
			expect(result.text).toBe('Hello from Claude on Bedrock')
			expect(result.finishReason).toBe('stop')
			expect(result.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 9 })
			const sent = requests.at(-1)!
			expect(sent.rawPath).toBe('/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke-with-response-stream')
			expect(sent.signatureValid).toBe(true)
			expect(sent.body.stream).toBeUndefined()
			expect(sent.body.anthropic_version).toBe('bedrock-2023-05-31')
			expect(await lastConsumeLog()).toMatchObject({ prompt_tokens: 14, completion_tokens: 9, is_stream: true })
		})

		test('a stream delivered one byte per read decodes the same', async () => {
			answer = eventStream(claudeEvents('stream-events.json'), 1)
			const result = await collect(await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } }))
			expect(result.text).toBe('Hello from Claude on Bedrock')
			expect(result.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 9 })
		})

		test('the invocation metrics of message_stop give the usage when the Claude events carry none', async () => {
			answer = eventStream(claudeEvents('stream-events.json', (events) => events.map((event) => {
				if (event.type === 'message_start') return { ...event, message: { ...event.message, usage: {} } }
				if (event.type === 'message_delta') return { type: 'message_delta', delta: event.delta }
				return event
			})))
			const result = await collect(await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } }))
			expect(result.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 9 })
			expect(await lastConsumeLog()).toMatchObject({ prompt_tokens: 14, completion_tokens: 9, is_stream: true })
		})

		test('tools are sent as Claude tools and a tool_use answer comes back as OpenAI tool_calls', async () => {
			answer = json('tool-use-answer.json')
			const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Seattle?' }], tools: [weatherTool], tool_choice: 'auto' })
			expect(reply.choices[0]!.finish_reason).toBe('tool_calls')
			expect(reply.choices[0]!.message.content).toBe('Let me check the weather.')
			expect(reply.choices[0]!.message.tool_calls).toEqual([{ id: 'toolu_bdrk_01A2b3C4d5E6f7G8h9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Seattle"}' } }])
			expect(requests.at(-1)!.body.tools).toEqual([{ name: 'get_weather', description: 'Current weather', input_schema: weatherTool.function.parameters }])
			expect(requests.at(-1)!.body.tool_choice).toEqual({ type: 'auto' })
			expect(reply.usage).toMatchObject({ prompt_tokens: 380, completion_tokens: 55 })
		})

		test('a tool result goes back as a tool_result block with its call id', async () => {
			answer = json('invoke-answer.json')
			await client.chat.completions.create({
				model: MODEL,
				messages: [
					{ role: 'user', content: 'Weather in Seattle?' },
					{ role: 'assistant', content: null, tool_calls: [{ id: 'toolu_bdrk_01A2b3C4d5E6f7G8h9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Seattle"}' } }] },
					{ role: 'tool', tool_call_id: 'toolu_bdrk_01A2b3C4d5E6f7G8h9', content: 'Rain, 12 °C' },
				],
				tools: [weatherTool],
			})
			expect(requests.at(-1)!.body.messages.slice(1)).toEqual([
				{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_bdrk_01A2b3C4d5E6f7G8h9', name: 'get_weather', input: { location: 'Seattle' } }] },
				{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_bdrk_01A2b3C4d5E6f7G8h9', content: 'Rain, 12 °C' }] },
			])
		})

		test('a streamed tool call arrives as OpenAI tool_call deltas whose arguments join into the input', async () => {
			answer = eventStream(claudeEvents('tool-use-stream-events.json'))
			const result = await collect(await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Seattle?' }], tools: [weatherTool], stream: true, stream_options: { include_usage: true } }))
			expect(result.toolNames).toEqual(['get_weather'])
			expect(JSON.parse(result.toolArguments[0]!)).toEqual({ location: 'Seattle' })
			expect(result.finishReason).toBe('tool_calls')
			expect(result.usage).toMatchObject({ prompt_tokens: 380, completion_tokens: 55 })
		})

		const streamFailure = async () => {
			const failure = await (async () => {
				const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }], stream: true })
				for await (const chunk of stream) void chunk
			})().then(() => undefined, (error: unknown) => error)
			return { failure }
		}

		test('an exception frame in the stream ends the client\'s stream with an error', async () => {
			answer = eventStream(async () => {
				const events = (await fixtureJson('stream-events.json')) as unknown[]
				return [...events.slice(0, 3).map(chunkMessage), exceptionMessage('modelStreamErrorException', 'The model stream failed.')]
			})
			const { failure } = await streamFailure()
			expect(failure).toBeInstanceOf(Error)
			expect((failure as Error).message).toContain('modelStreamErrorException: The model stream failed.')
		})

		test('a frame with a wrong checksum ends the client\'s stream with an error', async () => {
			answer = eventStream(async () => {
				const messages = ((await fixtureJson('stream-events.json')) as unknown[]).map(chunkMessage)
				const broken = messages[2]!
				broken[broken.length - 1]! ^= 0x01
				return messages
			})
			const { failure } = await streamFailure()
			expect(failure).toBeInstanceOf(Error)
			expect((failure as Error).message).toContain('the upstream sent a malformed stream event')
		})

		test('a Bedrock 400 reaches the client with its status and message in OpenAI\'s error shape', async () => {
			answer = json('error-validation.json', 400)
			const failure = await client.chat.completions.create({ model: ERROR_MODEL, messages: [{ role: 'user', content: 'Say hello' }] }).catch((error: unknown) => error)
			expect(failure).toBeInstanceOf(OpenAI.APIError)
			const error = failure as InstanceType<typeof OpenAI.APIError>
			expect(error.status).toBe(400)
			expect(error.message).toContain('Malformed input request: #: required key [messages] not found')
			expect(error.error).toMatchObject({ message: expect.stringContaining('Malformed input request') })
		})

		test('a Bedrock 403 becomes a 502 saying the channel credentials were rejected', async () => {
			answer = json('error-access-denied.json', 403)
			const failure = await client.chat.completions.create({ model: ERROR_MODEL, messages: [{ role: 'user', content: 'Say hello' }] }).catch((error: unknown) => error)
			expect(failure).toBeInstanceOf(OpenAI.APIError)
			expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(502)
			expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('the upstream rejected the channel credentials')
		})

		test('a Claude-format client is served by a Bedrock channel, stream included', async () => {
			const claude = new Anthropic({ apiKey: tokenKey, baseURL: harness.baseUrl, maxRetries: 0 })
			answer = json('invoke-answer.json')
			const message = await claude.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] })
			expect(message).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello from Claude on Bedrock' }], stop_reason: 'end_turn' })
			expect(message.usage).toMatchObject({ input_tokens: 12, cache_read_input_tokens: 8, output_tokens: 7 })
			expect(requests.at(-1)!.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64 })

			answer = eventStream(claudeEvents('stream-events.json'))
			let text = ''
			const stream = await claude.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }], stream: true })
			for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text
			expect(text).toBe('Hello from Claude on Bedrock')
			expect(requests.at(-1)!.rawPath).toEndWith('/invoke-with-response-stream')
		})
	})
})
