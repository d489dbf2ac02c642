import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { createOutboundClient } from '@/lib/outbound'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { chunkMessage, concatenate, exceptionMessage } from '../fixtures/providers/aws/event-stream-frames'

/**
 * An upstream's 4xx message reaches the client and the channel tools with the upstream's
 * whereabouts blanked — its URLs, its host name, IP addresses — and the rest of the message kept.
 */
const UPSTREAM_HOST = 'llm.internal.test'

describe('upstream error messages without the upstream in them', () => {
	let harness: RelayHarness
	let client: OpenAI
	let upstream: ReturnType<typeof Bun.serve>
	let channelId: number
	let where: string[]

	beforeAll(async () => {
		upstream = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			fetch: (request) => {
				const self = `http://${UPSTREAM_HOST}:${upstream.port}`
				const message = `The model \`gpt-4o-mini\` does not exist at ${self}${new URL(request.url).pathname} `
					+ `(node ${UPSTREAM_HOST}:${upstream.port}, backend 10.1.2.3:8000); see https://status.internal.test/incidents.`
				return Response.json({ error: { message, type: 'invalid_request_error', code: 'model_not_found' } }, { status: 404 })
			},
		})
		// Ferry's own outbound client, with the upstream's name resolved to loopback.
		const fetch = createOutboundClient({
			privateUpstreams: { privateUpstreamsEnabled: () => true, privateUpstreamHosts: () => [] },
			lookup: async (name) => (name === UPSTREAM_HOST ? ['127.0.0.1'] : []),
		})
		harness = await startRelayHarness(databaseTargets()[0]!, { fetch })
		channelId = await harness.createChannel({ base_url: `http://${UPSTREAM_HOST}:${upstream.port}`, models: 'gpt-4o-mini' })
		client = harness.client((await harness.createToken()).key)
		where = [UPSTREAM_HOST, `:${upstream.port}`, '10.1.2.3', 'status.internal.test', 'http']
	})
	afterAll(async () => {
		upstream.stop(true)
		await harness.close()
	})

	test('a relayed call\'s error keeps the upstream\'s explanation and drops its URL, host and addresses', async () => {
		const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
			.then(() => undefined, (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>)
		expect(error?.status).toBe(404)
		expect(error?.message).toContain('The model `gpt-4o-mini` does not exist at ***')
		for (const part of where) expect(error?.message).not.toContain(part)
	})

	test('a channel test tells the admin the same message, scrubbed the same way', async () => {
		const answer = await harness.ferry.call('GET', `/api/channel/test/${channelId}`, { as: harness.root })
		expect(answer.body.success).toBe(false)
		expect(answer.body.message).toContain('upstream answered 404: The model `gpt-4o-mini` does not exist')
		for (const part of where) expect(answer.body.message).not.toContain(part)
	})
})

describe('an error the upstream reports in the middle of a stream', () => {
	const MODEL = 'claude-3-5-sonnet-20240620'
	let harness: RelayHarness
	let bedrock: ReturnType<typeof Bun.serve>

	beforeAll(async () => {
		// Claude on Bedrock: two text events, then an exception frame whose message names where the model runs.
		bedrock = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			fetch: () => new Response(new Blob([concatenate([
				chunkMessage({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: MODEL, usage: { input_tokens: 3, output_tokens: 0 } } }),
				chunkMessage({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
				chunkMessage({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
				exceptionMessage('modelStreamErrorException', 'The model at https://runtime.internal.test/model/x (node 10.4.5.6:443) stopped responding.'),
			]) as Uint8Array<ArrayBuffer>]), { headers: { 'content-type': 'application/vnd.amazon.eventstream' } }),
		})
		harness = await startRelayHarness(databaseTargets()[0]!)
		const { options } = harness.ferry.dependencies
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1 }))
		await harness.createChannel({ type: 33, key: 'AKIAFERRYTEST0000001|ferryTestSecret0000000000|us-east-1', base_url: `http://127.0.0.1:${bedrock.port}`, models: MODEL })
	})
	afterAll(async () => {
		await harness.close()
		bedrock.stop(true)
	})

	test('ends the client\'s stream with the upstream\'s explanation and without its URL or addresses', async () => {
		const client = harness.client((await harness.createToken()).key)
		const stream = await client.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Hi' }] })
		const failure = await (async () => {
			for await (const _ of stream) { /* read to the end */ }
		})().then(() => undefined, (error: unknown) => error as Error)
		expect(failure?.message).toContain('modelStreamErrorException: The model at *** (node ***) stopped responding.')
		for (const part of ['runtime.internal.test', '10.4.5.6', 'https']) expect(failure?.message).not.toContain(part)
	})
})
