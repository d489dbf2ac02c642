import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

for (const target of databaseTargets()) {
	describe(`a token's IP allow-list behind a trusted reverse proxy on ${target.dialect}`, () => {
		let harness: RelayHarness
		let key: string

		beforeAll(async () => {
			harness = await startRelayHarness(target, { config: { ...testConfig, trustedProxies: ['127.0.0.1', '::1'] } })
			const upstream = harness.startUpstream()
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			key = (await harness.createToken({ name: 'office', allow_ips: '198.51.100.0/24' })).key
		})
		afterAll(() => harness.close())

		const chatFrom = (forwardedFor: string) => new OpenAI({
			apiKey: key, baseURL: `${harness.baseUrl}/v1`, maxRetries: 0, defaultHeaders: { 'x-forwarded-for': forwardedFor },
		}).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })

		test('admits a client the proxy forwards from inside the allow-list', async () => {
			expect((await chatFrom('198.51.100.7')).choices).toHaveLength(1)
		})

		test('refuses a client the proxy forwards from outside it, even when the client wrote an allowed address first', async () => {
			const error = await chatFrom('198.51.100.7, 203.0.113.5').catch((caught: unknown) => caught)
			expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError)
			expect((error as InstanceType<typeof OpenAI.PermissionDeniedError>).code).toBe('ip_not_allowed')
		})

		test('writes the client\'s address, not the proxy\'s, in the call\'s consume log', async () => {
			await chatFrom('198.51.100.42')
			const { logs } = harness.ferry.store.tables
			const [log] = await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume)).orderBy(desc(logs.id)).limit(1)
			expect(log).toMatchObject({ modelName: 'gpt-4o-mini', ip: '198.51.100.42' })
		})
	})
}
