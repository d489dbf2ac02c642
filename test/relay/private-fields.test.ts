/**
 * No Ferry-private field reaches an upstream (docs/architecture.md#the-relay). The canonical form carries what a client
 * format said that OpenAI's form has no field for — Claude's thinking blocks and their signatures,
 * `top_k`, `thinking`, a tool result's `is_error` — for the converters that can send it on; every
 * other upstream must not see it (DeepSeek gets a Claude client's `thinking` as its own switch,
 * `{type}` only). A Claude client and an OpenAI client (sending back the
 * `claude_thinking` Ferry's answers carry) call a channel of every type that relays chat over HTTP,
 * and every body the fake upstream receives is scanned.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { channelTypeDescriptions, loadAdaptor, servesEndpoint } from '@/relay/providers/registry'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'private-probe'
const SIGNATURE = 'SIG-PRIVATE-PROBE-0123456789'
/** Key names Ferry's canonical form uses for what is private to it. */
const PRIVATE_KEYS = ['claude_thinking', 'top_k', 'is_error', 'thinking']
/** Upstreams whose own wire format (Claude's Messages API) has `top_k`, `thinking` and `is_error`, and takes signed thinking blocks back. */
const CLAUDE_WIRES = new Set<number>([CHANNEL_TYPE.anthropic, CHANNEL_TYPE.aws])
/** OpenAI-format upstreams whose reasoning models take a turn's reasoning back as `reasoning_content`; no other gets the field. */
const REASONING_CONTENT_WIRES = new Set<number>([CHANNEL_TYPE.deepseek, CHANNEL_TYPE.moonshot, CHANNEL_TYPE.zhipuV4, CHANNEL_TYPE.custom])
/** OpenAI-format upstreams with a `thinking` switch of their own (DeepSeek's `{type}`): a Claude client's setting reaches them as that, never its budget. */
const THINKING_SWITCH_WIRES = new Set<number>([CHANNEL_TYPE.deepseek])

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })

/** Keys in each type's format; a plain key for the rest. */
function channelKey(type: number, upstreamUrl: string): string {
	switch (type) {
		case CHANNEL_TYPE.baidu: return 'baidu-api-key|baidu-secret-key'
		case CHANNEL_TYPE.zhipu:
		case CHANNEL_TYPE.zhipuV4: return 'zhipu-key-id.zhipu-key-secret'
		case CHANNEL_TYPE.tencent: return '1300000000|tencent-secret-id|tencent-secret-key'
		case CHANNEL_TYPE.aws: return 'AKIAFERRYTEST0000001|ferryTestSecretAccessKey/0000000000000000|us-east-1'
		case CHANNEL_TYPE.vertex: return JSON.stringify({ type: 'service_account', project_id: 'ferry-project', private_key_id: 'key-1', private_key: privateKey, client_email: 'relay@ferry-project.iam.gserviceaccount.com', token_uri: `${upstreamUrl}/token` })
		default: return 'probe-channel-key'
	}
}

/** A Claude conversation with a signed thinking block, a tool result that failed, and Claude's sampling and thinking settings. */
const claudeRequest = {
	model: MODEL,
	max_tokens: 64,
	top_k: 37,
	thinking: { type: 'enabled', budget_tokens: 1024 },
	tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
	messages: [
		{ role: 'user', content: 'Weather in Paris?' },
		{ role: 'assistant', content: [
			{ type: 'thinking', thinking: 'Call the tool.', signature: SIGNATURE },
			{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
		] },
		{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'timeout', is_error: true, cache_control: { type: 'ephemeral' } }] },
	],
}

/** An OpenAI conversation sending back the thinking block a Claude upstream's answer carried. */
const openAIRequest = {
	model: MODEL,
	messages: [
		{ role: 'user', content: 'Hi' },
		{ role: 'assistant', content: 'Hello', claude_thinking: [{ type: 'thinking', thinking: 'Greet back.', signature: SIGNATURE }] },
		{ role: 'user', content: 'Again' },
	],
}

/** A Gemini conversation whose model turn thought (a thought part) before calling a function. */
const geminiRequest = {
	contents: [
		{ role: 'user', parts: [{ text: 'Weather in Paris?' }] },
		{ role: 'model', parts: [{ text: 'Call the tool.', thought: true }, { functionCall: { name: 'get_weather', args: { location: 'Paris' } } }] },
		{ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 18 } } }] },
	],
	tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' } } } }] }],
}

interface Received {
	type: number
	path: string
	rawBody: string
}

/** The `reasoning_content` of each message of a request body (undefined for those without). */
const reasoningContents = (rawBody: string) => ((JSON.parse(rawBody) as { messages?: Record<string, unknown>[] }).messages ?? []).map((message) => message.reasoning_content)

/** The private keys found anywhere in a JSON value. */
function privateKeysIn(value: unknown, found = new Set<string>()): Set<string> {
	if (Array.isArray(value)) for (const item of value) privateKeysIn(item, found)
	else if (typeof value === 'object' && value !== null) {
		for (const [name, inner] of Object.entries(value)) {
			if (PRIVATE_KEYS.includes(name)) found.add(name)
			privateKeysIn(inner, found)
		}
	}
	return found
}

describe('what every upstream receives', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof Bun.serve>
	const received: Received[] = []
	/** Channel id → its type. */
	const channels = new Map<number, number>()
	let key: string
	/** The channel a call is pinned to, read by the fake upstream to attribute what it receives. */
	let current = 0

	beforeAll(async () => {
		upstream = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				const path = new URL(request.url).pathname
				const rawBody = await request.text()
				// Token exchanges of the types that need one (Baidu, Vertex AI).
				if (path === '/oauth/2.0/token') return Response.json({ access_token: 'probe-access-token', expires_in: 2592000 })
				if (path === '/token') return Response.json({ access_token: 'probe-access-token', expires_in: 3600, token_type: 'Bearer' })
				received.push({ type: channels.get(current)!, path, rawBody })
				return Response.json({ error: { message: 'probe: not answered' } }, { status: 400 })
			},
		})
		harness = await startRelayHarness(databaseTargets()[0]!)
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1 }))
		const url = `http://127.0.0.1:${upstream.port}`
		for (const { type } of channelTypeDescriptions()) {
			const adaptor = (await loadAdaptor(type))!
			// iFlytek Spark speaks WebSocket, not HTTP; the task types serve no chat.
			if (!servesEndpoint(adaptor.type, 'chat') || adaptor.selfOpened?.chat) continue
			const id = await harness.createChannel({
				type: adaptor.type, name: adaptor.name, key: channelKey(adaptor.type, url), models: MODEL, auto_ban: 0,
				base_url: adaptor.type === CHANNEL_TYPE.custom ? `${url}/v1/chat/completions` : url,
				other: adaptor.type === CHANNEL_TYPE.cloudflare ? 'probe-account' : '',
			})
			channels.set(id, adaptor.type)
		}
		key = (await harness.createToken()).key.replace(/^sk-/, '')
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop(true)
	})

	const callEvery = async (path: string, body: unknown) => {
		for (const id of channels.keys()) {
			current = id
			const pinned = `sk-${key}-${id}`
			await fetch(`${harness.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${pinned}` }, body: JSON.stringify(body) })
		}
	}

	test('a Claude client\'s thinking blocks, top_k, thinking setting and is_error reach only Claude-speaking upstreams', async () => {
		received.length = 0
		await callEvery('/v1/messages', claudeRequest)
		expect(new Set(received.map((request) => request.type))).toEqual(new Set(channels.values()))
		for (const request of received) {
			const body = JSON.parse(request.rawBody)
			const leaked = CLAUDE_WIRES.has(request.type) ? [] : [...privateKeysIn(body)].filter((name) => !(name === 'thinking' && THINKING_SWITCH_WIRES.has(request.type)))
			expect({ type: request.type, leaked, signature: !CLAUDE_WIRES.has(request.type) && request.rawBody.includes(SIGNATURE) }).toEqual({ type: request.type, leaked: [], signature: false })
			if (THINKING_SWITCH_WIRES.has(request.type)) expect(body.thinking).toEqual({ type: 'enabled' })
		}
		const claude = received.filter((request) => CLAUDE_WIRES.has(request.type))
		expect(claude.length).toBe(CLAUDE_WIRES.size)
		for (const request of claude) expect(request.rawBody).toContain(SIGNATURE)
	})

	test('a Claude client\'s thinking reaches the upstreams that take reasoning back as the assistant turn\'s reasoning_content, and no other upstream gets the field', async () => {
		received.length = 0
		await callEvery('/v1/messages', claudeRequest)
		const reasoning = received.filter((request) => REASONING_CONTENT_WIRES.has(request.type))
		expect(new Set(reasoning.map((request) => request.type))).toEqual(REASONING_CONTENT_WIRES)
		for (const request of reasoning) expect({ type: request.type, reasoning: reasoningContents(request.rawBody) }).toEqual({ type: request.type, reasoning: [undefined, 'Call the tool.', undefined] })
		for (const request of received.filter((request) => !REASONING_CONTENT_WIRES.has(request.type))) expect({ type: request.type, field: request.rawBody.includes('reasoning_content') }).toEqual({ type: request.type, field: false })
	})

	test('a Gemini client\'s thoughts reach the upstreams that take reasoning back as the model turn\'s reasoning_content, and no other upstream gets the field', async () => {
		received.length = 0
		await callEvery(`/v1beta/models/${MODEL}:generateContent`, geminiRequest)
		// Gemini-speaking channels get the client's body as it is; the others convert it.
		const converted = received.filter((request) => !request.path.includes(':generateContent'))
		expect(converted.length).toBeGreaterThan(REASONING_CONTENT_WIRES.size)
		const reasoning = converted.filter((request) => REASONING_CONTENT_WIRES.has(request.type))
		expect(new Set(reasoning.map((request) => request.type))).toEqual(REASONING_CONTENT_WIRES)
		for (const request of reasoning) expect({ type: request.type, reasoning: reasoningContents(request.rawBody) }).toEqual({ type: request.type, reasoning: [undefined, 'Call the tool.', undefined] })
		for (const request of converted.filter((request) => !REASONING_CONTENT_WIRES.has(request.type))) expect({ type: request.type, field: request.rawBody.includes('reasoning_content') }).toEqual({ type: request.type, field: false })
	})

	test('the claude_thinking an OpenAI client sends back reaches no upstream as a field, and only Claude-speaking ones as thinking blocks', async () => {
		received.length = 0
		await callEvery('/v1/chat/completions', openAIRequest)
		expect(new Set(received.map((request) => request.type))).toEqual(new Set(channels.values()))
		for (const request of received) {
			const leaked = [...privateKeysIn(JSON.parse(request.rawBody))].filter((name) => !CLAUDE_WIRES.has(request.type) || name === 'claude_thinking')
			expect({ type: request.type, leaked, signature: !CLAUDE_WIRES.has(request.type) && request.rawBody.includes(SIGNATURE) }).toEqual({ type: request.type, leaked: [], signature: false })
		}
	})
})
