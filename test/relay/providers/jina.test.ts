import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'

const FIXTURES = `${import.meta.dir}/../../fixtures/providers/jina`
const EMBEDDING_MODEL = 'jina-embeddings-v3'

interface SentRequest { method: string; path: string; headers: Headers; body: any }

/** Answers every request with one fixture file, recording what was sent. */
function startUpstream() {
	const requests: SentRequest[] = []
	let answer = { file: 'embeddings.json', status: 200 }
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			requests.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers, body: await request.json() })
			const type = answer.file.endsWith('.sse') ? 'text/event-stream' : 'application/json'
			return new Response(Bun.file(`${FIXTURES}/${answer.file}`), { status: answer.status, headers: { 'content-type': type } })
		},
	})
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		answerWith(file: string, status = 200) {
			answer = { file, status }
		},
		stop: () => server.stop(true),
	}
}

describe('the Jina provider', () => {
	let harness: RelayHarness
	let upstream: ReturnType<typeof startUpstream>
	let client: OpenAI

	beforeAll(async () => {
		upstream = startUpstream()
		harness = await startRelayHarness(databaseTargets()[0]!)
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ 'jina-embeddings-v3': 1 }))
		await harness.createChannel({ type: CHANNEL_TYPE.jina, key: 'jina_api_key', base_url: upstream.url, models: 'jina-embeddings-v3' })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		await harness.close()
		await upstream.stop()
	})

	const lastLog = async () => (await harness.ferry.call('GET', '/api/log/', { as: harness.root })).body.data.items[0]
	const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as InstanceType<typeof OpenAI.APIError>)

	test('sends embeddings to /v1/embeddings and bills their prompt tokens', async () => {
		upstream.answerWith('embeddings.json')
		const answer = await client.embeddings.create({ model: EMBEDDING_MODEL, input: ['first text', 'second text'] })
		const sent = upstream.requests.at(-1)!
		expect(sent.path).toBe('/v1/embeddings')
		expect(sent.headers.get('authorization')).toBe('Bearer jina_api_key')
		expect(sent.body).toEqual({ model: EMBEDDING_MODEL, input: ['first text', 'second text'], encoding_format: 'base64' })
		expect(answer.data.map((item) => item.embedding)).toEqual([[0.0123, 0.0246, 0.0369, 0.0492], [0.0246, 0.0492, 0.0738, 0.0984]])
		expect(await lastLog()).toMatchObject({ model_name: EMBEDDING_MODEL, prompt_tokens: 9, completion_tokens: 0, quota: 9 })
	})

	test('passes Jina\'s own embedding fields through', async () => {
		upstream.answerWith('embeddings.json')
		await client.embeddings.create({ model: EMBEDDING_MODEL, input: ['first text'], dimensions: 256, task: 'retrieval.query' } as never)
		expect(upstream.requests.at(-1)!.body).toMatchObject({ dimensions: 256, task: 'retrieval.query' })
	})

	test('hands an upstream error to the client with its status and message', async () => {
		upstream.answerWith('error-validation.json', 422)
		const error = await failure(client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(422)
		expect(error?.message).toContain('Validation error: input must be a string or a list of strings')
	})

	test('reports rejected channel credentials as a gateway error', async () => {
		upstream.answerWith('error-authentication.json', 401)
		const error = await failure(client.embeddings.create({ model: EMBEDDING_MODEL, input: 'text' }))
		expect(error?.status).toBe(502)
		expect(error?.message).toContain('the upstream rejected the channel credentials')
	})
})
