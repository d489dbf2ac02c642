import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import type { Config } from '@/config'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const FIRST_TOKEN_MS = 300

describe('the first-content timeout of a streamed answer', () => {
	let harness: RelayHarness
	afterEach(() => harness.close())

	async function start(timeouts: Partial<Config['upstreamTimeouts']>) {
		harness = await startRelayHarness(databaseTargets()[0]!, { config: { ...testConfig, upstreamTimeouts: { ...testConfig.upstreamTimeouts, ...timeouts } } })
		await harness.ferry.dependencies.options.set('RetryTimes', '1')
	}

	/** A user with a wallet of 100 000 and a token of theirs. */
	async function payer() {
		const user = await harness.ferry.createUser('streamer')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: 100_000 } })
		return { user, token: await harness.createToken({}, user) }
	}

	const consumeLogs = async () => {
		const { logs } = harness.ferry.store.tables
		return await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume)).orderBy(logs.id)
	}

	const pendingHolds = async () => {
		const { quotaHolds } = harness.ferry.store.tables
		return await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))
	}

	/** The stream's text through the official SDK, with usage asked for. */
	async function streamedText(key: string) {
		const stream = await harness.client(key).chat.completions.create({
			model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }],
		})
		let text = ''
		let usageChunks = 0
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta?.content ?? ''
			if (chunk.usage) usageChunks++
		}
		return { text, usageChunks }
	}

	/** Waits (bounded) until the upstream saw every request to it go away. */
	async function allAborted(upstream: { requests: { aborted: boolean }[] }) {
		const deadline = Date.now() + 5_000
		while (!upstream.requests.every((request) => request.aborted) && Date.now() < deadline) await Bun.sleep(20)
		return upstream.requests.map((request) => request.aborted)
	}

	test('a stream that sends only a role chunk and keep-alives fails over to a healthy channel: the client gets one clean answer, billed once', async () => {
		await start({ firstTokenMs: FIRST_TOKEN_MS })
		const stalling = harness.startUpstream({ name: 'stalling', fault: 'stall-after=1,keep-alive' })
		const stallingId = await harness.createChannel({ name: 'stalling', base_url: stalling.url, models: 'gpt-4o-mini', priority: 10 })
		const healthyId = await harness.createChannel({ name: 'healthy', base_url: harness.startUpstream({ name: 'healthy' }).url, models: 'gpt-4o-mini' })
		const { user, token } = await payer()

		const { text, usageChunks } = await streamedText(token.key)
		expect(text).toBe('Hello from healthy')
		expect(usageChunks).toBe(1)
		// The stalled attempt was given up: its connection closed, not left to the idle timeout.
		expect(await allAborted(stalling)).toEqual([true])

		const logs = await consumeLogs()
		expect(logs).toHaveLength(1)
		expect(logs[0]!.channelId).toBe(healthyId)
		expect(JSON.parse(logs[0]!.other).admin_info.use_channel).toEqual([stallingId, healthyId])
		const account = await harness.account(user.userId, token.id)
		expect(account.quota).toBe(100_000 - logs[0]!.quota)
		expect(logs[0]!.quota).toBeGreaterThan(0)
		expect(await pendingHolds()).toEqual([])
		expect(await auditLedger(harness.ferry.store)).toEqual([])
	})

	test('a channel\'s first_token_timeout_seconds applies where the server sets none, and a healthy stream on it is untouched', async () => {
		await start({ firstTokenMs: 0 })
		const stalling = harness.startUpstream({ name: 'stalling', fault: 'stall-after=0' })
		await harness.createChannel({ name: 'stalling', base_url: stalling.url, models: 'gpt-4o-mini', priority: 10, setting: JSON.stringify({ first_token_timeout_seconds: FIRST_TOKEN_MS / 1000 }) })
		const healthy = harness.startUpstream({ name: 'healthy' })
		await harness.createChannel({ name: 'healthy', base_url: healthy.url, models: 'gpt-4o-mini', setting: JSON.stringify({ first_token_timeout_seconds: FIRST_TOKEN_MS / 1000 }) })
		const { token } = await payer()

		expect((await streamedText(token.key)).text).toBe('Hello from healthy')
		expect(await allAborted(stalling)).toEqual([true])
		expect(healthy.requests.map((request) => request.aborted)).toEqual([false])
	})

	test('with nowhere else to go, a stream without content answers the client an error and returns the hold', async () => {
		await start({ firstTokenMs: FIRST_TOKEN_MS })
		await harness.ferry.dependencies.options.set('RetryTimes', '0')
		const stalling = harness.startUpstream({ name: 'stalling', fault: 'stall-after=1,keep-alive' })
		await harness.createChannel({ name: 'stalling', base_url: stalling.url, models: 'gpt-4o-mini' })
		const { user, token } = await payer()

		const failure = await streamedText(token.key).then(() => undefined, (error: unknown) => error as { status?: number; code?: string })
		expect(failure).toMatchObject({ status: 502, code: 'bad_gateway' })
		expect(await allAborted(stalling)).toEqual([true])
		expect((await harness.account(user.userId, token.id)).quota).toBe(100_000)
		expect(await consumeLogs()).toEqual([])
		expect(await pendingHolds()).toEqual([])
		expect(await auditLedger(harness.ferry.store)).toEqual([])
	})

	test('a stream that stalls after its content began is not moved: it ends at the idle limit with an error event, billed for what was delivered', async () => {
		await start({ firstTokenMs: FIRST_TOKEN_MS, idleMs: 600 })
		const stalling = harness.startUpstream({ name: 'stalling', fault: 'stall-after=3' })
		const stallingId = await harness.createChannel({ name: 'stalling', base_url: stalling.url, models: 'gpt-4o-mini', priority: 10 })
		const other = harness.startUpstream({ name: 'other' })
		await harness.createChannel({ name: 'other', base_url: other.url, models: 'gpt-4o-mini' })
		const { token } = await payer()

		const response = await fetch(`${harness.baseUrl}/v1/chat/completions`, {
			method: 'POST', headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
		})
		const events = (await response.text()).split('\n\n').filter(Boolean).map((event) => JSON.parse(event.slice('data: '.length)))
		expect(events.slice(0, -1).map((event) => event.choices[0].delta.content).join('')).toBe('Hello from')
		expect(events.at(-1).error.code).toBe('upstream_reset')
		expect(other.requests).toEqual([])

		const logs = await consumeLogs()
		expect(logs).toHaveLength(1)
		expect(logs[0]!.channelId).toBe(stallingId)
		expect(JSON.parse(logs[0]!.other)).toMatchObject({ local_count_tokens: true, stream_end: 'upstream_failed' })
		expect(await pendingHolds()).toEqual([])
		expect(await auditLedger(harness.ferry.store)).toEqual([])
	})
})
