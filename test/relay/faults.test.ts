import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { auditLedger } from '@/billing/audit'
import { countText } from '@/billing/tokenizer'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

for (const target of databaseTargets()) {
	describe(`upstream faults on ${target.dialect}`, () => {
		let harness: RelayHarness
		beforeEach(async () => {
			harness = await startRelayHarness(target)
		})
		afterEach(() => harness.close())

		const chat = (client: OpenAI, content = 'Hi') => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })
		const channelRow = async (id: number) => {
			const { channels } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id))
			return row!
		}

		test('with one of three channels answering 500, every call succeeds through retries to channels not yet tried', async () => {
			await harness.ferry.dependencies.options.set('RetryTimes', '2')
			const broken = harness.startUpstream({ name: 'broken', fault: 'status=500' })
			await harness.createChannel({ name: 'broken', base_url: broken.url, models: 'gpt-4o-mini' })
			for (const name of ['good-1', 'good-2']) await harness.createChannel({ name, base_url: harness.startUpstream({ name }).url, models: 'gpt-4o-mini' })
			const client = harness.client((await harness.createToken()).key)
			const replies = []
			for (let call = 0; call < 20; call++) replies.push((await chat(client)).choices[0]!.message.content)
			expect(replies.every((reply) => reply === 'Hello from good-1' || reply === 'Hello from good-2')).toBe(true)
			expect(broken.requests.length).toBeGreaterThan(0)
			const { logs } = harness.ferry.store.tables
			const retried = (await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume)))
				.map((log) => JSON.parse(log.other).admin_info.use_channel as number[])
				.filter((channels) => channels.length > 1)
			expect(retried.length).toBe(broken.requests.length)
			for (const channels of retried) expect(new Set(channels).size).toBe(channels.length)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('an upstream 401 on an auto-ban channel disables it with its reason and time, and calls move on', async () => {
			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
			await harness.ferry.dependencies.options.set('RetryTimes', '1')
			const revoked = harness.startUpstream({ name: 'revoked', apiKey: 'sk-other-key' })
			const revokedId = await harness.createChannel({ name: 'revoked', base_url: revoked.url, models: 'gpt-4o-mini', priority: 10 })
			await harness.createChannel({ name: 'backup', base_url: harness.startUpstream({ name: 'backup' }).url, models: 'gpt-4o-mini', priority: 0 })
			const client = harness.client((await harness.createToken()).key)
			expect((await chat(client)).choices[0]!.message.content).toBe('Hello from backup')
			const row = await channelRow(revokedId)
			expect(row.status).toBe(CHANNEL_STATUS.autoDisabled)
			const info = JSON.parse(row.otherInfo)
			expect(info.status_reason).toContain('401')
			expect(info.status_time).toBeGreaterThan(0)
			expect(JSON.stringify(info)).not.toContain('sk-upstream-key')
			await chat(client)
			expect(revoked.requests).toHaveLength(1)
		})

		test('an auto-ban channel stays enabled when auto-disable is off', async () => {
			const revoked = harness.startUpstream({ apiKey: 'sk-other-key' })
			const id = await harness.createChannel({ base_url: revoked.url, models: 'gpt-4o-mini' })
			const client = harness.client((await harness.createToken()).key)
			const error = await chat(client).then(() => undefined, (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>)
			expect(error?.status).toBe(502)
			expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.enabled)
		})

		test('a client 400 never disables a channel and is not retried', async () => {
			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
			await harness.ferry.dependencies.options.set('RetryTimes', '3')
			const upstream = harness.startUpstream({ fault: 'status=400' })
			const id = await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			const client = harness.client((await harness.createToken()).key)
			const error = await chat(client).then(() => undefined, (caught: unknown) => caught)
			expect(error).toBeInstanceOf(OpenAI.BadRequestError)
			expect(upstream.requests).toHaveLength(1)
			expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.enabled)
		})

		test('a reset mid-stream ends the client\'s stream with an error event and bills only what was delivered', async () => {
			const upstream = harness.startUpstream({ fault: 'reset-mid-stream=2', reply: 'alpha beta gamma delta epsilon' })
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			const user = await harness.ferry.createUser('streamer')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: 100_000 } })
			const token = await harness.createToken({}, user)
			const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
				method: 'POST',
				headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count' }] }),
			})
			const events = (await response.text()).split('\n\n').filter(Boolean)
			const delivered = events.filter((event) => event.includes('"choices"')).map((event) => JSON.parse(event.slice(6)).choices[0]?.delta?.content ?? '').join('')
			expect(delivered.length).toBeGreaterThan(0)
			expect(delivered).not.toBe('alpha beta gamma delta epsilon')
			expect(JSON.parse(events.at(-1)!.slice(6)).error.code).toBe('upstream_reset')
			const { logs } = harness.ferry.store.tables
			const consumed = (await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))).at(-1)!
			expect(consumed.completionTokens).toBe(await countText(delivered))
			expect(JSON.parse(consumed.other)).toMatchObject({ local_count_tokens: true, stream_end: 'upstream_failed' })
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a client that hangs up mid-stream is billed for what it received and leaves no pending hold', async () => {
			const upstream = harness.startUpstream({ fault: 'slow-chunks=150', reply: 'one two three four five six seven eight' })
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			const token = await harness.createToken()
			const aborter = new AbortController()
			const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
				method: 'POST', signal: aborter.signal,
				headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count' }] }),
			})
			const reader = response.body!.getReader()
			await reader.read()
			aborter.abort()
			await reader.cancel().catch(() => {})
			const { quotaHolds, logs } = harness.ferry.store.tables
			const deadline = Date.now() + 5_000
			let holds = await harness.ferry.store.db.select().from(quotaHolds)
			while (holds.some((hold) => hold.state === 'pending') && Date.now() < deadline) {
				await Bun.sleep(50)
				holds = await harness.ferry.store.db.select().from(quotaHolds)
			}
			expect(holds.map((hold) => hold.state)).toEqual(['settled'])
			const consumed = (await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))).at(-1)!
			expect(JSON.parse(consumed.other).stream_end).toBe('client_closed')
			expect(consumed.completionTokens).toBeLessThan(8)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('a malformed stream event ends the stream with an error event, never a crash', async () => {
			const upstream = harness.startUpstream({ fault: 'malformed-sse=1' })
			await harness.createChannel({ base_url: upstream.url, models: 'gpt-4o-mini' })
			const token = await harness.createToken()
			const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
				method: 'POST',
				headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
			})
			const text = await response.text()
			expect(text).toContain('upstream_malformed')
			const { quotaHolds } = harness.ferry.store.tables
			expect(await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))).toEqual([])
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('an upstream that fails before answering is retried elsewhere and the hold is returned when all fail', async () => {
			await harness.ferry.dependencies.options.set('RetryTimes', '1')
			const user = await harness.ferry.createUser('unlucky')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: 50_000 } })
			for (const name of ['down-1', 'down-2']) await harness.createChannel({ name, base_url: harness.startUpstream({ fault: 'status=503' }).url, models: 'gpt-4o-mini' })
			const client = harness.client((await harness.createToken({}, user)).key)
			const error = await chat(client).then(() => undefined, (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>)
			expect(error?.status).toBe(503)
			const self = await harness.ferry.call('GET', '/api/user/self', { as: user })
			expect(self.body.data.quota).toBe(50_000)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
