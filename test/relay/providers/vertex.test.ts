import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync, verify } from 'node:crypto'
import type OpenAI from 'openai'
import { accessToken, clearAccessTokens, CLOUD_PLATFORM_SCOPE } from '@/relay/providers/vertex/access-token'
import { vertex } from '@/relay/providers/vertex'
import { vertexRegion } from '@/relay/providers/vertex/region'
import { parseServiceAccount } from '@/relay/providers/vertex/service-account'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { fixtureJson, startFakeGemini, type FakeGemini } from '../../fixtures/providers/gemini/fake-gemini'

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })

const serviceAccount = (tokenUri: string) => JSON.stringify({
	type: 'service_account',
	project_id: 'ferry-project',
	private_key_id: 'key-1',
	private_key: privateKey,
	client_email: 'relay@ferry-project.iam.gserviceaccount.com',
	token_uri: tokenUri,
})

const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString())

describe('the Vertex AI provider (type 41)', () => {
	let harness: RelayHarness
	let upstream: FakeGemini
	let client: OpenAI

	beforeAll(async () => {
		clearAccessTokens()
		harness = await startRelayHarness(databaseTargets()[0]!)
		upstream = startFakeGemini()
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'gemini-2.0-flash': 0.05 }))
		await harness.createChannel({ type: 41, key: serviceAccount(`${upstream.url}/token`), base_url: upstream.url, models: 'gemini-2.0-flash', other: '' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	test('exchanges an RS256 JWT signed with the service-account key for a token, then calls the model in the project and region', async () => {
		const answer = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Say hello' }] })
		const [exchange, call] = upstream.requests.slice(-2)
		expect(exchange!.path).toBe('/token')
		expect(exchange!.headers['content-type']).toBe('application/x-www-form-urlencoded')
		const form = new URLSearchParams(exchange!.rawBody)
		expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer')
		const [header, claims, signature] = form.get('assertion')!.split('.')
		expect(decode(header!)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-1' })
		const payload = decode(claims!)
		expect(payload).toMatchObject({ iss: 'relay@ferry-project.iam.gserviceaccount.com', scope: CLOUD_PLATFORM_SCOPE, aud: `${upstream.url}/token` })
		expect(payload.exp - payload.iat).toBe(3600)
		expect(verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature!, 'base64url'))).toBe(true)
		expect(call!.path).toBe('/v1/projects/ferry-project/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent')
		expect(call!.headers.authorization).toBe(`Bearer ${fixtureJson('token.json', 'vertex').access_token}`)
		expect(call!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Say hello' }] }])
		expect(answer.choices[0]!.message.content).toBe('Hello from Gemini')
		expect(answer.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 200 } })
	})

	test('reuses the cached token and streams through streamGenerateContent with alt=sse, billing the reported usage', async () => {
		const before = upstream.requests.length
		const stream = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Say hello' }], stream: true })
		let text = ''
		for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
		const sent = upstream.requests.slice(before)
		expect(sent.map((request) => `${request.path}${request.search}`)).toEqual(['/v1/projects/ferry-project/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse'])
		expect(text).toBe('Hello from Gemini')
		const entry = (await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })).body.data.items[0]
		expect(entry).toMatchObject({ model_name: 'gemini-2.0-flash', prompt_tokens: 1000, completion_tokens: 200, is_stream: true })
	})

	test('answers 502 "the upstream rejected the channel credentials" when Vertex answers 401', async () => {
		upstream.fail('error-unauthenticated.json', 401, 1)
		const failure = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(failure.status).toBe(502)
		expect(failure.error.message).toBe('the upstream rejected the channel credentials')
	})
})

describe('Vertex AI requests without a proxy base URL', () => {
	const account = serviceAccount('https://oauth2.example.test/token')
	const context = (exchanges: string[], now = 1_700_000_000_000) => ({
		now: () => now,
		async fetchJson(url: string) {
			exchanges.push(url)
			return { access_token: `token-${exchanges.length}`, expires_in: 3600 }
		},
	})

	test('go to the regional host, or the region a JSON map names for the model', async () => {
		const channel = { type: 41, baseUrl: '', key: account, other: '{"default":"europe-west4","gemini-2.5-pro":"global"}', organization: '' }
		const chat = vertex.converted!.chat!
		expect((await chat.buildRequest(channel, { model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] }, context([]))).url)
			.toBe('https://europe-west4-aiplatform.googleapis.com/v1/projects/ferry-project/locations/europe-west4/publishers/google/models/gemini-2.0-flash:generateContent')
		expect((await chat.buildRequest(channel, { model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'Hi' }] }, context([]))).url)
			.toBe('https://aiplatform.googleapis.com/v1/projects/ferry-project/locations/global/publishers/google/models/gemini-2.5-pro:generateContent')
		expect(vertexRegion('', 'any')).toBe('us-central1')
		expect(vertexRegion('asia-northeast1', 'any')).toBe('asia-northeast1')
	})

	test('use Google\'s token endpoint unless the key names another, and refresh a token shortly before it expires', async () => {
		clearAccessTokens()
		const withoutUri = JSON.parse(account)
		delete withoutUri.token_uri
		expect(parseServiceAccount(JSON.stringify(withoutUri)).tokenUri).toBe('https://oauth2.googleapis.com/token')
		const exchanges: string[] = []
		const parsed = parseServiceAccount(account)
		expect(await accessToken(parsed, context(exchanges))).toBe('token-1')
		expect(await accessToken(parsed, context(exchanges, 1_700_000_000_000 + 50 * 60 * 1000))).toBe('token-1')
		expect(await accessToken(parsed, context(exchanges, 1_700_000_000_000 + 56 * 60 * 1000))).toBe('token-2')
		expect(exchanges).toEqual(['https://oauth2.example.test/token', 'https://oauth2.example.test/token'])
	})

	test('share one token exchange between concurrent first calls, and forget an exchange that failed', async () => {
		clearAccessTokens()
		const parsed = parseServiceAccount(account)
		let exchanges = 0
		let release!: () => void
		const answered = new Promise<void>((resolve) => { release = resolve })
		const slow = {
			now: () => 1_700_000_000_000,
			async fetchJson() {
				exchanges++
				if (exchanges === 1) throw new Error('token endpoint unreachable')
				await answered
				return { access_token: `token-${exchanges}`, expires_in: 3600 }
			},
		}
		await expect(accessToken(parsed, slow)).rejects.toThrow('token endpoint unreachable')
		const pending = Array.from({ length: 5 }, () => accessToken(parsed, slow))
		release()
		expect(await Promise.all(pending)).toEqual(Array(5).fill('token-2'))
		expect(exchanges).toBe(2)
	})

	test('refuse a key that is not a service-account JSON key', () => {
		expect(() => parseServiceAccount('AIzaNotJson')).toThrow('service-account JSON key')
		expect(() => parseServiceAccount('{"project_id":"p"}')).toThrow('client_email')
	})
})
