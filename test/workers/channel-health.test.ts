/**
 * The scheduled channel health check: a Bun worker ticks, the node holding the lease tests the
 * channels, takes failing or slow ones out and brings recovered ones back. Then the rounds one at a
 * time: failures counted in a row before a channel goes, on one node or two, and channels that opted
 * out of the schedule.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { startChannelHealthCheck, type HealthSchedule } from '@/api/channels/tools/schedule'
import { runHealthRound, type HealthRoundSummary } from '@/api/channels/tools/health'
import { takeLease } from '@/db/lease'
import { createTestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const WORKER_URL = new URL('../../src/workers/schedule-clock.ts', import.meta.url)
const INTERVAL_MS = 400
const TICK_MS = 40
const SPARK_FRAMES = `${import.meta.dir}/../fixtures/providers/xunfei/chat-frames.json`
const SPARK_KEY = 'ferry01a|ZmVycnktdGVzdC1hcGktc2VjcmV0LTAwMDAw|ferrytestapikey00000000000000000'

/**
 * A fake iFlytek Spark upstream (its chat is a WebSocket): answers each request frame with the
 * fixture's frames and closes, or refuses the upgrade with a status while `refusing` is set.
 */
function startFakeSpark(frames: unknown[]) {
	const state = { refusing: 0 as number, handshakes: 0 }
	const server = Bun.serve<undefined>({
		hostname: '127.0.0.1',
		port: 0,
		fetch(request, server) {
			state.handshakes++
			if (state.refusing) return Response.json({ message: 'HMAC signature cannot be verified' }, { status: state.refusing })
			return server.upgrade(request, { data: undefined }) ? undefined : new Response('upgrade expected', { status: 400 })
		},
		websocket: {
			message(socket) {
				for (const frame of frames) socket.send(JSON.stringify(frame))
				socket.close(1000)
			},
		},
	})
	return { state, url: `ws://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

for (const target of databaseTargets()) {
	describe(`the scheduled channel health check on ${target.dialect}`, () => {
		let harness: RelayHarness
		const schedules: HealthSchedule[] = []
		const start = (holder: string, rounds: HealthRoundSummary[] = []) => {
			const schedule = startChannelHealthCheck(harness.ferry.dependencies, {
				workerUrl: WORKER_URL, holder, intervalMs: INTERVAL_MS, tickMs: TICK_MS, onRun: (summary) => rounds.push(summary),
			})
			schedules.push(schedule)
			return rounds
		}
		const channel = async (id: number) => {
			const { channels } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id))
			return row!
		}
		const abilityEnabled = async (id: number) => {
			const { abilities } = harness.ferry.store.tables
			const rows = await harness.ferry.store.db.select({ enabled: abilities.enabled }).from(abilities).where(eq(abilities.channelId, id))
			return rows.every((row) => Boolean(row.enabled))
		}

		beforeEach(async () => {
			harness = await startRelayHarness(target)
			const { options } = harness.ferry.dependencies
			await options.set('AutomaticDisableChannelEnabled', 'true')
			await options.set('AutomaticEnableChannelEnabled', 'true')
		})
		afterEach(async () => {
			await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()))
			await harness.close()
		})

		test('a failing channel is disabled, and enabled again once its upstream recovers', async () => {
			const upstream = harness.startUpstream({ fault: 'status=503' })
			const id = await harness.createChannel({ name: 'flaky', base_url: upstream.url, models: 'gpt-4o-mini' })
			const healthy = harness.startUpstream()
			const steady = await harness.createChannel({ name: 'steady', base_url: healthy.url, models: 'gpt-4o-mini' })
			start('node-a/1')

			const disabled = await eventually(async () => {
				const row = await channel(id)
				return row.status === CHANNEL_STATUS.autoDisabled && row
			})
			expect(JSON.parse(disabled.otherInfo).status_reason).toContain('upstream answered 503')
			expect(await abilityEnabled(id)).toBe(false)
			expect((await channel(steady)).status).toBe(CHANNEL_STATUS.enabled)

			upstream.setMode('none')
			const enabled = await eventually(async () => {
				const row = await channel(id)
				return row.status === CHANNEL_STATUS.enabled && row
			})
			expect(enabled.otherInfo).toBe('')
			expect(await abilityEnabled(id)).toBe(true)
		})

		test('a channel slower than ChannelDisableThreshold is disabled', async () => {
			await harness.ferry.dependencies.options.set('ChannelDisableThreshold', '0.1')
			const upstream = harness.startUpstream({ fault: 'slow-first-byte=300' })
			const id = await harness.createChannel({ name: 'slow', base_url: upstream.url, models: 'gpt-4o-mini' })
			start('node-a/1')
			const row = await eventually(async () => {
				const found = await channel(id)
				return found.status === CHANNEL_STATUS.autoDisabled && found
			})
			expect(JSON.parse(row.otherInfo).status_reason).toContain('more than the 0.1 s threshold')
		})

		test('leaves alone channels disabled by hand, channels without auto-ban, and everything when auto-disable is off', async () => {
			const failing = harness.startUpstream({ fault: 'status=500' })
			const manual = await harness.createChannel({ name: 'manual', base_url: failing.url, models: 'gpt-4o-mini', status: CHANNEL_STATUS.manuallyDisabled })
			const unbanned = await harness.createChannel({ name: 'no-ban', base_url: failing.url, models: 'gpt-4o-mini', auto_ban: 0 })
			const rounds = start('node-a/1')
			await eventually(async () => rounds.length >= 1)
			expect((await channel(manual)).status).toBe(CHANNEL_STATUS.manuallyDisabled)
			expect((await channel(unbanned)).status).toBe(CHANNEL_STATUS.enabled)
			expect((await channel(manual)).testTime).toBe(0)
			expect(rounds[0]).toMatchObject({ tested: 1, failed: 1, disabled: [] })

			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'false')
			const plain = await harness.createChannel({ name: 'plain', base_url: failing.url, models: 'gpt-4o-mini' })
			await eventually(async () => rounds.length >= 2)
			expect((await channel(plain)).status).toBe(CHANNEL_STATUS.enabled)
		})

		test('only the node holding the lease runs rounds', async () => {
			const healthy = harness.startUpstream()
			await harness.createChannel({ name: 'leased', base_url: healthy.url, models: 'gpt-4o-mini' })
			const first = start('node-a/1')
			const second = start('node-b/1')
			await eventually(async () => first.length + second.length >= 3)
			// Whoever took the lease first keeps renewing it; the other never runs a round.
			expect(first.length === 0 || second.length === 0).toBe(true)
			const holder = first.length > 0 ? 'node-a/1' : 'node-b/1'
			const other = holder === 'node-a/1' ? 'node-b/1' : 'node-a/1'
			expect(await takeLease(harness.ferry.store, 'channel-health', other, 60)).toBe(false)
			expect(await takeLease(harness.ferry.store, 'channel-health', holder, 60)).toBe(true)
		})

		test('an iFlytek Spark channel, whose chat is a WebSocket, is tested like any other: taken out while Spark refuses it, enabled again once Spark answers', async () => {
			const spark = startFakeSpark(JSON.parse(await Bun.file(SPARK_FRAMES).text()))
			try {
				spark.state.refusing = 401
				const id = await harness.createChannel({ type: 18, name: 'spark', key: SPARK_KEY, base_url: spark.url, models: 'spark-chat' })
				start('node-a/1')
				const disabled = await eventually(async () => {
					const row = await channel(id)
					return row.status === CHANNEL_STATUS.autoDisabled && row
				})
				expect(JSON.parse(disabled.otherInfo).status_reason).toContain('401')

				spark.state.refusing = 0
				await eventually(async () => (await channel(id)).status === CHANNEL_STATUS.enabled)
				expect(await abilityEnabled(id)).toBe(true)

				const tested = await harness.ferry.call('GET', `/api/channel/test/${id}`, { as: harness.root })
				expect(tested.body.success).toBe(true)
				expect(spark.state.handshakes).toBeGreaterThanOrEqual(3)
			} finally {
				await spark.stop()
			}
		})

		test('does nothing while ChannelTestIntervalMinutes is 0', async () => {
			const failing = harness.startUpstream({ fault: 'status=500' })
			const id = await harness.createChannel({ name: 'off', base_url: failing.url, models: 'gpt-4o-mini' })
			const schedule = startChannelHealthCheck(harness.ferry.dependencies, { workerUrl: WORKER_URL, holder: 'node-a/1', tickMs: TICK_MS })
			schedules.push(schedule)
			await Bun.sleep(3 * TICK_MS)
			expect(failing.requests).toEqual([])
			expect((await channel(id)).status).toBe(CHANNEL_STATUS.enabled)
		})
	})
}

for (const target of databaseTargets()) {
	describe(`health rounds one at a time on ${target.dialect}`, () => {
		let harness: RelayHarness
		const get = (path: string, language = 'en') => harness.ferry.call('GET', path, { as: harness.root, headers: { 'accept-language': language } })
		const view = async (id: number, language = 'en') => (await get(`/api/channel/${id}`, language)).body.data
		const setOption = async (key: string, value: string) => {
			const answer = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key, value } })
			expect(answer.body.success).toBe(true)
		}

		beforeEach(async () => {
			harness = await startRelayHarness(target)
			await setOption('AutomaticDisableChannelEnabled', 'true')
			await setOption('AutomaticEnableChannelEnabled', 'true')
		})
		afterEach(() => harness.close())

		test('with ChannelTestFailuresToDisable 3 a channel stays in through two failed checks, a pass starts the count again, and the third failure in a row takes it out', async () => {
			await setOption('ChannelTestFailuresToDisable', '3')
			const upstream = harness.startUpstream({ fault: 'status=503' })
			const id = await harness.createChannel({ name: 'counted', base_url: upstream.url, models: 'gpt-4o-mini' })
			const rounds = async (count: number) => {
				let summary: HealthRoundSummary | undefined
				for (let round = 0; round < count; round++) summary = await runHealthRound(harness.ferry.dependencies)
				return summary!
			}
			expect(await rounds(2)).toMatchObject({ tested: 1, failed: 1, disabled: [] })
			expect(await view(id)).toMatchObject({ status: CHANNEL_STATUS.enabled, health_failures: 2 })

			upstream.setMode('none')
			await rounds(1)
			expect(await view(id)).toMatchObject({ status: CHANNEL_STATUS.enabled, health_failures: 0 })

			upstream.setMode('status=503')
			await rounds(2)
			expect(await view(id)).toMatchObject({ status: CHANNEL_STATUS.enabled, health_failures: 2 })
			expect(await rounds(1)).toMatchObject({ disabled: [id] })
			const disabled = await view(id)
			expect(disabled).toMatchObject({ status: CHANNEL_STATUS.autoDisabled, health_failures: 0 })
			expect(JSON.parse(disabled.other_info).status_reason)
				.toBe('3 health checks in a row did not pass, the last: channel test failed: upstream answered 503: The engine is currently overloaded, please try again later.')
			expect(JSON.parse((await view(id, 'zh-CN')).other_info).status_reason).toStartWith('连续 3 次健康检查未通过，最后一次：渠道测试失败：')

			upstream.setMode('none')
			expect(await rounds(1)).toMatchObject({ enabled: [id] })
		})

		test('a test slower than ChannelDisableThreshold counts as a failure the same way', async () => {
			await setOption('ChannelTestFailuresToDisable', '2')
			await setOption('ChannelDisableThreshold', '0.1')
			const upstream = harness.startUpstream({ fault: 'slow-first-byte=300' })
			const id = await harness.createChannel({ name: 'slow', base_url: upstream.url, models: 'gpt-4o-mini' })
			await runHealthRound(harness.ferry.dependencies)
			expect(await view(id)).toMatchObject({ status: CHANNEL_STATUS.enabled, health_failures: 1 })
			await runHealthRound(harness.ferry.dependencies)
			const disabled = await view(id)
			expect(disabled.status).toBe(CHANNEL_STATUS.autoDisabled)
			expect(JSON.parse(disabled.other_info).status_reason).toMatch(/^2 health checks in a row did not pass, the last: channel test took [\d.]+ s, more than the 0.1 s threshold$/)
		})

		test('the count is kept in the database: two nodes taking turns at the check disable the channel after the failures of both', async () => {
			const [first, second] = await target.openTwo()
			try {
				const nodes = [await createTestApp({ open: async () => first }), await createTestApp({ open: async () => second })]
				for (const node of nodes) {
					for (const [key, value] of [['PrivateUpstreamsEnabled', 'true'], ['AutomaticDisableChannelEnabled', 'true'], ['ChannelTestFailuresToDisable', '2']]) {
						await node.dependencies.options.set(key!, value!)
					}
				}
				const upstream = harness.startUpstream({ fault: 'status=500' })
				const root = await nodes[0]!.loginRoot()
				const created = await nodes[0]!.call('POST', '/api/channel/', { as: root, body: { type: 1, name: 'shared', key: 'sk-upstream-key', base_url: upstream.url, models: 'gpt-4o-mini' } })
				const id: number = created.body.data[0].id
				const status = async () => (await nodes[1]!.call('GET', `/api/channel/${id}`, { as: root })).body.data
				expect(await runHealthRound(nodes[0]!.dependencies)).toMatchObject({ failed: 1, disabled: [] })
				expect(await status()).toMatchObject({ status: CHANNEL_STATUS.enabled, health_failures: 1 })
				expect(await runHealthRound(nodes[1]!.dependencies)).toMatchObject({ failed: 1, disabled: [id] })
				expect(await status()).toMatchObject({ status: CHANNEL_STATUS.autoDisabled, health_failures: 0 })
			} finally {
				await first.close()
			}
		})

		test('the scheduled check skips a channel that opted out; testing it by hand and "test all" still test and judge it', async () => {
			const upstream = harness.startUpstream({ fault: 'status=500' })
			const id = await harness.createChannel({ name: 'opted-out', base_url: upstream.url, models: 'gpt-4o-mini', scheduled_test_enabled: false })
			expect(await view(id)).toMatchObject({ scheduled_test_enabled: false })
			const summary = await runHealthRound(harness.ferry.dependencies)
			expect(summary).toMatchObject({ tested: 0, skipped: 1, disabled: [] })
			expect(upstream.requests).toEqual([])
			expect(await view(id)).toMatchObject({ status: CHANNEL_STATUS.enabled, test_time: 0 })

			const tested = await get(`/api/channel/test/${id}`)
			expect(tested.body).toMatchObject({ success: false, message: 'upstream answered 500: The server had an error while processing your request.' })
			expect(upstream.requests).toHaveLength(1)

			expect((await get('/api/channel/test')).body.success).toBe(true)
			await eventually(async () => (await view(id)).status === CHANNEL_STATUS.autoDisabled)
			expect(upstream.requests).toHaveLength(2)
		})
	})
}
