import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { openSilentListener, type SilentListener } from '../helpers/canary'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/**
 * An https upstream that accepts the TCP connection and never answers the ClientHello: the
 * connect limit (`UPSTREAM_CONNECT_TIMEOUT_SECONDS`) covers the TLS handshake, so neither a relayed
 * call nor a channel test waits for the (much longer) first-byte limit.
 */
const CONNECT_MS = 500
/**
 * Longer than a test may take: were the handshake left to the first-byte limit, the test would time
 * out, whatever the machine's pace (no elapsed time is compared).
 */
const FIRST_BYTE_MS = 60_000
const TEST_TIMEOUT_MS = 30_000

describe('an upstream whose TLS handshake never finishes', () => {
	let harness: RelayHarness
	let silent: SilentListener
	let client: OpenAI

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!, {
			config: { ...testConfig, upstreamTimeouts: { connectMs: CONNECT_MS, firstByteMs: FIRST_BYTE_MS, idleMs: FIRST_BYTE_MS, firstTokenMs: 0 } },
		})
		silent = openSilentListener()
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		silent.stop()
		await harness.close()
	})

	test('a relayed call moves to the next channel within the connect limit', async () => {
		await harness.ferry.dependencies.options.set('RetryTimes', '1')
		const stalled = await harness.createChannel({ name: 'stalled', base_url: `https://127.0.0.1:${silent.port}`, models: 'gpt-4o-mini', priority: 10 })
		const backup = await harness.createChannel({ name: 'backup', base_url: harness.startUpstream({ name: 'backup' }).url, models: 'gpt-4o-mini', priority: 0 })
		try {
			const value = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
			expect(value.choices[0]!.message.content).toBe('Hello from backup')
			expect(silent.connections).toBeGreaterThan(0)
		} finally {
			for (const id of [stalled, backup]) await harness.ferry.call('DELETE', `/api/channel/${id}`, { as: harness.root })
		}
	}, TEST_TIMEOUT_MS)

	test('with no other channel the call answers an upstream error within the connect limit', async () => {
		await harness.ferry.dependencies.options.set('RetryTimes', '0')
		const stalled = await harness.createChannel({ name: 'stalled', base_url: `https://127.0.0.1:${silent.port}`, models: 'gpt-4o-mini' })
		try {
			const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
				.then(() => undefined, (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>)
			expect(error?.status).toBe(502)
		} finally {
			await harness.ferry.call('DELETE', `/api/channel/${stalled}`, { as: harness.root })
		}
	}, TEST_TIMEOUT_MS)

	test('a channel test answers a connect timeout within the connect limit', async () => {
		const stalled = await harness.createChannel({ name: 'stalled', base_url: `https://127.0.0.1:${silent.port}`, models: 'gpt-4o-mini' })
		try {
			const answer = await harness.ferry.call('GET', `/api/channel/test/${stalled}`, { as: harness.root })
			expect(answer.body.success).toBe(false)
			expect(answer.body.message).toContain('timed out')
		} finally {
			await harness.ferry.call('DELETE', `/api/channel/${stalled}`, { as: harness.root })
		}
	}, TEST_TIMEOUT_MS)
})
