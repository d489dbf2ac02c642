/**
 * The scheduled channel health check: a Bun worker ticks, the node holding the lease tests the
 * channels, takes failing or slow ones out and brings recovered ones back.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { startChannelHealthCheck, type HealthSchedule } from '@/api/channels/tools/schedule'
import type { HealthRoundSummary } from '@/api/channels/tools/health'
import { takeLease } from '@/db/lease'
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
