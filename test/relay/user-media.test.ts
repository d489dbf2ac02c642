import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { auditLedger } from '@/billing/audit'
import { createUserContentFetch, type OutboundFetch, type OutboundRequestInit } from '@/lib/outbound'
import { openCanary, type Canary } from '../helpers/canary'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/**
 * URLs users supply (image URLs in prompts) that Ferry downloads — for Claude on Bedrock, which
 * takes images inline only — go through the proxy worker when `WorkerUrl` is set, with new-api's
 * worker request (`POST {url, key, method}` as JSON), and otherwise through the outbound guard
 * under the `user-content` policy.
 */
const MODEL = 'claude-3-5-sonnet-20240620'
const WORKER_KEY = 'worker-valid-key-0001'
const PICTURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5])
const PICTURE_BASE64 = Buffer.from(PICTURE).toString('base64')

type WorkerCall = { contentType: string; body: { url: string; key: string; method?: string } }

describe('media URLs in prompts for an upstream that takes inline bytes only', () => {
	let harness: RelayHarness
	let client: OpenAI
	let bedrock: ReturnType<typeof Bun.serve>
	let worker: ReturnType<typeof Bun.serve>
	let imageHost: Canary
	const bedrockBodies: any[] = []
	const workerCalls: WorkerCall[] = []

	beforeAll(async () => {
		bedrock = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				bedrockBodies.push(await request.json())
				return new Response(await Bun.file(`${import.meta.dir}/../fixtures/providers/aws/invoke-answer.json`).text(), { headers: { 'content-type': 'application/json' } })
			},
		})
		// A fake proxy worker: fetches nothing, answers by the URL it is asked for.
		worker = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(request) {
				const call = { contentType: request.headers.get('content-type') ?? '', body: await request.json() as WorkerCall['body'] }
				workerCalls.push(call)
				if (request.method !== 'POST' || call.body.key !== WORKER_KEY) return new Response('forbidden', { status: 403 })
				if (call.body.url.includes('missing')) return new Response('not found', { status: 404 })
				if (call.body.url.endsWith('.txt')) return new Response('plain text', { headers: { 'content-type': 'text/plain; charset=utf-8' } })
				return new Response(PICTURE, { headers: { 'content-type': 'image/png' } })
			},
		})
		imageHost = openCanary()
		harness = await startRelayHarness(databaseTargets()[0]!)
		const { options } = harness.ferry.dependencies
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1 }))
		await harness.createChannel({ type: 33, key: 'AKIAFERRYTEST0000001|ferryTestSecret0000000000|us-east-1', base_url: `http://127.0.0.1:${bedrock.port}`, models: MODEL })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		bedrock.stop(true)
		worker.stop(true)
		imageHost.stop()
	})
	beforeEach(async () => {
		bedrockBodies.length = 0
		workerCalls.length = 0
		imageHost.reset()
		await harness.ferry.dependencies.options.set('WorkerUrl', '')
		await harness.ferry.dependencies.options.set('WorkerValidKey', '')
	})

	const useWorker = async () => {
		await harness.ferry.dependencies.options.set('WorkerUrl', `http://127.0.0.1:${worker.port}`)
		await harness.ferry.dependencies.options.set('WorkerValidKey', WORKER_KEY)
	}
	const chatWith = (...urls: string[]) => client.chat.completions.create({
		model: MODEL,
		messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in these pictures?' }, ...urls.map((url) => ({ type: 'image_url' as const, image_url: { url } }))] }],
	})
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)
	const imagesSent = () => (bedrockBodies.at(-1)?.messages[0].content as any[]).filter((block) => block.type === 'image')

	test('with a worker, the image is fetched through it with new-api\'s request, once per URL, and sent to Bedrock inline', async () => {
		await useWorker()
		const url = 'https://images.example.test/cat.png?size=large'
		const reply = await chatWith(url, url)
		expect(reply.choices[0]!.message.content).toBe('Hello from Claude on Bedrock')
		expect(workerCalls).toEqual([{ contentType: 'application/json', body: { url, key: WORKER_KEY, method: 'GET' } }])
		expect(imagesSent()).toEqual([1, 2].map(() => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PICTURE_BASE64 } })))
	})

	test('through the worker, only https URLs of hosts that are not private addresses are handed over', async () => {
		await useWorker()
		for (const url of ['http://images.example.test/cat.png', 'https://127.0.0.1/cat.png', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/cat.png']) {
			const error = await failure(chatWith(url))
			expect(error?.status).toBe(400)
			expect(error?.code).toBe('invalid_media_url')
		}
		expect(workerCalls).toEqual([])
		expect(bedrockBodies).toEqual([])
	})

	test('a download the worker cannot make, or a type Bedrock cannot read, answers 400 before Bedrock is called', async () => {
		await useWorker()
		const missing = await failure(chatWith('https://images.example.test/missing.png'))
		expect(missing?.status).toBe(400)
		expect(missing?.message).toContain('the server answered 404')
		const text = await failure(chatWith('https://images.example.test/notes.txt'))
		expect(text?.status).toBe(400)
		expect(text?.message).toContain('text/plain')
		expect(bedrockBodies).toEqual([])
		expect(await auditLedger(harness.ferry.store)).toEqual([])
	})

	test('without a worker, an image URL on a private address is refused by the outbound guard and never dialled, whatever the private-upstream consent', async () => {
		expect(harness.ferry.dependencies.options.get('PrivateUpstreamsEnabled')).toBe(true)
		for (const url of [`${imageHost.origin}/cat.png`, `http://localhost:${imageHost.port}/cat.png`]) {
			const error = await failure(chatWith(url))
			expect(error?.status).toBe(400)
			expect(error?.message).toContain('private, loopback or link-local')
		}
		expect(imageHost.connections).toBe(0)
		expect(workerCalls).toEqual([])
		expect(bedrockBodies).toEqual([])
	})
})

describe('the user-content fetch', () => {
	const calls: { url: string; init: OutboundRequestInit }[] = []
	const recording = (async (url: string, init: OutboundRequestInit = {}) => {
		calls.push({ url, init })
		return new Response('bytes')
	}) as OutboundFetch
	beforeEach(() => void (calls.length = 0))

	test('without a worker the URL itself is fetched under the user-content policy with the size limit', async () => {
		const fetchUserContent = createUserContentFetch(recording, { workerUrl: () => '', workerKey: () => 'unused' })
		await fetchUserContent('https://images.example.test/cat.png', { maxBytes: 1024 })
		expect(calls).toEqual([{ url: 'https://images.example.test/cat.png', init: expect.objectContaining({ policy: 'user-content', maxBytes: 1024 }) }])
	})

	test('with a worker the request goes to the worker URL with a trailing slash, under the upstream policy, and never follows its redirects', async () => {
		const fetchUserContent = createUserContentFetch(recording, { workerUrl: () => 'https://worker.example.test/fetch', workerKey: () => WORKER_KEY })
		await fetchUserContent('https://images.example.test/cat.png', { maxBytes: 1024 })
		expect(calls).toHaveLength(1)
		expect(calls[0]!.url).toBe('https://worker.example.test/fetch/')
		expect(calls[0]!.init).toMatchObject({ method: 'POST', policy: 'upstream', redirect: 'manual', maxBytes: 1024 })
		expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: 'https://images.example.test/cat.png', key: WORKER_KEY, method: 'GET' })
	})
})
