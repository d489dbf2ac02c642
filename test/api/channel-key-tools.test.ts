/**
 * The channel tools on a multi-key channel, against a fake OpenAI upstream on loopback that takes
 * every key but key #1 (401, as OpenAI answers a wrong key): testing one key, every key, the plain
 * test, the health round judging key by key, and model lists and balances through a usable key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CHANNEL_MESSAGES, type ChannelKeyTestReport, type ChannelKeyView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { inEnglish, withValues } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { runHealthRound } from '@/api/channels/tools/health'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const KEYS = ['sk-tools-zero-00000000000000000', 'sk-tools-rejected-1111111111111', 'sk-tools-two-222222222222222222']
const REJECTED = KEYS[1]!

/** OpenAI's chat, model list and billing calls, answering 401 `invalid_api_key` to the rejected key (and any key it does not know). */
function fakeProvider() {
	const seen: { path: string; key: string }[] = []
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const path = new URL(request.url).pathname
			const key = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '')
			seen.push({ path, key })
			if (key === REJECTED || !KEYS.includes(key)) {
				return Response.json({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, { status: 401 })
			}
			if (path === '/v1/models') return Response.json({ object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 1, owned_by: 'openai' }] })
			if (path === '/v1/dashboard/billing/subscription') return Response.json({ object: 'billing_subscription', hard_limit_usd: 50 })
			if (path === '/v1/dashboard/billing/usage') return Response.json({ object: 'list', total_usage: 1000 })
			await request.text()
			return Response.json({
				id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o',
				choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
				usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
			})
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) }
}

for (const target of databaseTargets()) {
	describe(`the tools of a multi-key channel on ${target.dialect}`, () => {
		let harness: RelayHarness
		let provider: ReturnType<typeof fakeProvider>
		const get = (path: string) => harness.ferry.call('GET', path, { as: harness.root })
		const keysOf = async (id: number): Promise<ChannelKeyView[]> => (await get(`/api/channel/${id}`)).body.data.keys
		const createPool = (fields: Record<string, unknown> = {}) =>
			harness.createChannel({ name: 'pool', mode: 'multi_key', key: KEYS.join('\n'), base_url: provider.url, models: 'gpt-4o', ...fields })
		const setKey = (id: number, index: number, status: number) => harness.ferry.call('PUT', `/api/channel/${id}/keys/${index}`, { as: harness.root, body: { status } })
		const lastKeySent = () => provider.seen.at(-1)!.key

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			provider = fakeProvider()
		})
		afterAll(async () => {
			provider.stop()
			await harness.close()
		})

		test('tests one key by its index and records the outcome on that key, the key never in the answer', async () => {
			const id = await createPool()
			const rejected = await get(`/api/channel/test/${id}?key=1`)
			expect(rejected.body).toMatchObject({ success: false, message: 'upstream answered 401: Incorrect API key provided: ***.', data: { key: 1 } })
			expect(lastKeySent()).toBe(REJECTED)
			expect(JSON.stringify(rejected.body)).not.toContain(REJECTED)
			const passed = await get(`/api/channel/test/${id}?key=2`)
			expect(passed.body).toMatchObject({ success: true, message: '', data: { key: 2 } })
			expect(lastKeySent()).toBe(KEYS[2]!)
			const keys = await keysOf(id)
			expect(keys[1]).toMatchObject({ last_error: 'upstream answered 401: Incorrect API key provided: ***.' })
			expect(keys[1]!.test_time).toBeGreaterThan(0)
			expect(keys[2]).toMatchObject({ last_error: '', response_time: passed.body.data.time })
			expect(keys[2]!.test_time).toBeGreaterThan(0)
			expect(keys[0]!.test_time).toBe(0)
			expect(JSON.stringify(keys)).not.toContain(REJECTED)
			// Testing shows, it does not judge: the rejected key stays enabled until the health check or the router says otherwise.
			expect(keys[1]!.status).toBe(CHANNEL_STATUS.enabled)
			const zh = await harness.ferry.call('GET', `/api/channel/${id}`, { as: harness.root, headers: { 'accept-language': 'zh-CN' } })
			expect(zh.body.data.keys[1].last_error).toBe('上游返回 401：Incorrect API key provided: ***.')
		})

		test('tests every key and answers each outcome in index order', async () => {
			const id = await createPool()
			const answer = await get(`/api/channel/test/${id}?keys=all`)
			expect(answer.body.success).toBe(true)
			const report = answer.body.data as ChannelKeyTestReport
			expect({ ...report, outcomes: report.outcomes.map(({ index, success, message }) => ({ index, success, message })) }).toEqual({
				tested: 3, failed: 1, pending: 0, outcomes: [
					{ index: 0, success: true, message: '' },
					{ index: 1, success: false, message: 'upstream answered 401: Incorrect API key provided: ***.' },
					{ index: 2, success: true, message: '' },
				],
			})
			expect(JSON.stringify(answer.body)).not.toContain(REJECTED)
			expect((await keysOf(id)).map((key) => key.test_time > 0)).toEqual([true, true, true])
		})

		test('the plain test of a multi-key channel uses its first enabled key', async () => {
			const id = await createPool()
			await setKey(id, 0, CHANNEL_STATUS.manuallyDisabled)
			const answer = await get(`/api/channel/test/${id}`)
			expect(answer.body).toMatchObject({ success: false, data: { key: 1 } })
			expect(lastKeySent()).toBe(REJECTED)
		})

		test('a single-key channel is tested with its own key whatever its status, as index 0', async () => {
			const id = await harness.createChannel({ name: 'single', key: KEYS[2], base_url: provider.url, models: 'gpt-4o', status: CHANNEL_STATUS.manuallyDisabled })
			expect((await get(`/api/channel/test/${id}`)).body).toMatchObject({ success: true, data: { key: 0 } })
			expect((await get(`/api/channel/test/${id}?key=0`)).body).toMatchObject({ success: true, data: { key: 0 } })
			expect(lastKeySent()).toBe(KEYS[2]!)
			expect((await get(`/api/channel/test/${id}?key=1`)).body.message).toBe(inEnglish(withValues(CHANNEL_MESSAGES.keyNotFound, { index: 1 })))
		})

		test('answers clearly for an unknown key, a wrong keys value and a key index that is no number', async () => {
			const id = await createPool()
			expect((await get(`/api/channel/test/${id}?key=5`)).body).toEqual({ success: false, message: inEnglish(withValues(CHANNEL_MESSAGES.keyNotFound, { index: 5 })) })
			const wrongAll = await get(`/api/channel/test/${id}?keys=some`)
			expect(wrongAll.status).toBe(400)
			expect(wrongAll.body).toMatchObject({ success: false, message: inEnglish(CHANNEL_TOOL_MESSAGES.testKeysInvalid) })
			const notNumber = await get(`/api/channel/test/${id}?key=abc`)
			expect(notNumber.status).toBe(400)
			expect(notNumber.body.message).toBe(inEnglish(CHANNEL_MESSAGES.keyIndexInvalid))
		})

		test('lists upstream models and reads the balance with a usable key, never one disabled by hand', async () => {
			const id = await createPool()
			await setKey(id, 0, CHANNEL_STATUS.manuallyDisabled)
			await harness.ferry.call('PUT', `/api/channel/${id}/keys/1`, { as: harness.root, body: { status: CHANNEL_STATUS.manuallyDisabled } })
			expect((await get(`/api/channel/fetch_models/${id}`)).body).toEqual({ success: true, message: '', data: ['gpt-4o'] })
			expect(lastKeySent()).toBe(KEYS[2]!)
			const balance = await get(`/api/channel/update_balance/${id}/`)
			expect(balance.body).toEqual({ success: true, message: '', data: 40 })
			expect(provider.seen.filter((request) => request.path.startsWith('/v1/dashboard')).map((request) => request.key)).toEqual([KEYS[2]!, KEYS[2]!])
		})

		test('the health round judges the key it tested: a rejected key is auto-disabled, the channel keeps serving', async () => {
			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
			const id = await createPool({ name: 'health' })
			await setKey(id, 0, CHANNEL_STATUS.manuallyDisabled)
			const summary = await runHealthRound(harness.ferry.dependencies)
			expect(summary.disabled).not.toContain(id)
			const keys = await keysOf(id)
			expect(keys.map((key) => key.status)).toEqual([CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.enabled])
			expect(keys[1]!.status_reason).toBe('channel test failed: upstream answered 401: Incorrect API key provided: ***.')
			const { channels } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select({ status: channels.status }).from(channels).where(eq(channels.id, id))
			expect(row!.status).toBe(CHANNEL_STATUS.enabled)
		})

		test('with ChannelTestFailuresToDisable 2 a failing key goes at its second failed round in a row, and the next key has a count of its own', async () => {
			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
			await harness.ferry.dependencies.options.set('ChannelTestFailuresToDisable', '2')
			try {
				const id = await harness.createChannel({ name: 'counted', mode: 'multi_key', key: [REJECTED, 'sk-tools-unknown-33333333333333', KEYS[2]].join('\n'), base_url: provider.url, models: 'gpt-4o' })
				const statuses = async () => (await keysOf(id)).map((key) => key.status)
				const failures = async () => (await get(`/api/channel/${id}`)).body.data.health_failures
				await runHealthRound(harness.ferry.dependencies)
				expect(await statuses()).toEqual([CHANNEL_STATUS.enabled, CHANNEL_STATUS.enabled, CHANNEL_STATUS.enabled])
				expect(await failures()).toBe(1)
				await runHealthRound(harness.ferry.dependencies)
				expect(await statuses()).toEqual([CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.enabled, CHANNEL_STATUS.enabled])
				expect((await keysOf(id))[0]!.status_reason).toBe('2 health checks in a row did not pass, the last: channel test failed: upstream answered 401: Incorrect API key provided: ***.')
				expect(await failures()).toBe(0)
				await runHealthRound(harness.ferry.dependencies)
				expect(await statuses()).toEqual([CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.enabled, CHANNEL_STATUS.enabled])
				await runHealthRound(harness.ferry.dependencies)
				expect(await statuses()).toEqual([CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.enabled])
				await runHealthRound(harness.ferry.dependencies)
				expect(await failures()).toBe(0)
				expect((await get(`/api/channel/${id}`)).body.data.status).toBe(CHANNEL_STATUS.enabled)
			} finally {
				await harness.ferry.dependencies.options.set('ChannelTestFailuresToDisable', '1')
			}
		})
	})
}
