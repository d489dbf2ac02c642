import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { openCanary, type Canary } from '../helpers/canary'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/**
 * Channel base URLs are set by admins, but a channel may still not reach private, loopback or
 * metadata addresses unless the super admin allows private upstreams (docs/operations/security.md#outbound-requests).
 */
describe('channel base URLs and the SSRF guard', () => {
	let harness: RelayHarness
	let canary: Canary
	let client: OpenAI
	let redirector: ReturnType<typeof Bun.serve>
	let redirectorHits = 0

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		canary = openCanary()
		// A second loopback address, so the allow-list can admit the redirector and not the canary.
		redirector = Bun.serve({ port: 0, hostname: '127.0.0.2', fetch: () => {
			redirectorHits++
			return Response.redirect(`${canary.origin}/v1/chat/completions`, 307)
		} })
		client = harness.client((await harness.createToken()).key)
	})
	afterAll(async () => {
		canary.stop()
		redirector.stop(true)
		await harness.close()
	})

	const chatThrough = async (baseUrl: string) => {
		const id = await harness.createChannel({ base_url: baseUrl, models: 'probe-model', name: baseUrl.slice(0, 40) })
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ ...harness.ferry.dependencies.options.get('ModelRatio'), 'probe-model': 1 }))
		try {
			return await client.chat.completions.create({ model: 'probe-model', messages: [{ role: 'user', content: 'Hi' }] })
				.then(() => 'answered', (error: unknown) => (error as InstanceType<typeof OpenAI.APIError>).status)
		} finally {
			await harness.ferry.call('DELETE', `/api/channel/${id}`, { as: harness.root })
		}
	}

	test.each([
		['loopback by address', (canary: Canary) => `http://127.0.0.1:${canary.port}`],
		['loopback by name', (canary: Canary) => `http://localhost:${canary.port}`],
		['the unspecified address', (canary: Canary) => `http://0.0.0.0:${canary.port}`],
		['loopback as a decimal number', (canary: Canary) => `http://2130706433:${canary.port}`],
		['loopback as IPv4-mapped IPv6', (canary: Canary) => `http://[::ffff:127.0.0.1]:${canary.port}`],
		['the cloud metadata address', () => 'http://169.254.169.254'],
	])('refuses %s while private upstreams are off, and the canary sees nothing', async (_, url) => {
		await harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'false')
		canary.reset()
		expect(await chatThrough(url(canary))).toBe(502)
		expect(canary.connections).toBe(0)
	})

	test('refuses a redirect from an allowed upstream to a private address', async () => {
		await harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		await harness.ferry.dependencies.options.set('PrivateUpstreamHosts', '127.0.0.2')
		redirectorHits = 0
		canary.reset()
		expect(await chatThrough(`http://127.0.0.2:${redirector.port}`)).toBe(502)
		expect(redirectorHits).toBeGreaterThan(0)
		expect(canary.connections).toBe(0)
	})

	test('reaches a private upstream once the super admin allows it', async () => {
		await harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		await harness.ferry.dependencies.options.set('PrivateUpstreamHosts', '')
		canary.reset()
		await chatThrough(`http://127.0.0.1:${canary.port}`)
		expect(canary.requests.length).toBeGreaterThan(0)
	})

	test('never reaches the metadata address, even with private upstreams allowed', async () => {
		await harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
		expect(await chatThrough('http://169.254.169.254')).toBe(502)
	})
})
