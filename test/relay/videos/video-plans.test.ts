/**
 * A plan may pay a video: the hold of a video whose model a subscription covers is taken from the
 * subscription's windows, settled there when the video completes (the log names the plan) and
 * returned there when it fails; the wallet is not touched. On SQLite and Postgres.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import { databaseTargets } from '../../helpers/database'
import { startVideoHarness, type VideoHarness, videoQuota } from '../../helpers/video-relay'

const HOUR = 3600

for (const target of databaseTargets()) {
	describe(`videos paid by a plan on ${target.dialect}`, () => {
		let videos: VideoHarness
		let subscription: number
		beforeAll(async () => {
			videos = await startVideoHarness(target)
			const { harness, alice } = videos
			const plan = await harness.ferry.call('POST', '/api/plan/', {
				as: harness.root,
				body: { name: 'Studio', price: 1_000, duration_seconds: 30 * 24 * HOUR, models: ['sora-2'], windows: [{ seconds: 24 * HOUR, quota: 1_000_000 }] },
			})
			if (!plan.body.success) throw new Error(plan.body.message)
			const bought = await harness.ferry.call('POST', `/api/plan/${plan.body.data.id}/purchase`, { as: alice })
			if (!bought.body.success) throw new Error(bought.body.message)
			subscription = bought.body.data.id
		})
		afterAll(async () => {
			await videos?.close()
		})

		const windowOf = async () => {
			const answer = await videos.harness.ferry.call('GET', '/api/user/self/subscriptions', { as: videos.alice })
			const { used, held } = answer.body.data[0].windows[0]
			return { used, held }
		}

		test('the subscription holds the video, pays it when it completes and gets a failed one back; the wallet stays as it was', async () => {
			const { alice, upstream } = videos
			const wallet = (await videos.account(alice)).quota
			const video = await alice.client.videos.create({ model: 'sora-2', prompt: 'Paid by the plan', seconds: '8' })
			expect(await windowOf()).toEqual({ used: 0, held: videoQuota('sora-2', 8) })
			upstream.complete(await videos.upstreamIdOf(video.id))
			await videos.poll()
			expect((await alice.client.videos.retrieve(video.id)).status).toBe('completed')
			expect(await windowOf()).toEqual({ used: videoQuota('sora-2', 8), held: 0 })

			const failing = await alice.client.videos.create({ model: 'sora-2', prompt: 'Fails', seconds: '4' })
			upstream.fail(await videos.upstreamIdOf(failing.id))
			await videos.poll()
			expect(await windowOf()).toEqual({ used: videoQuota('sora-2', 8), held: 0 })
			expect((await videos.account(alice)).quota).toBe(wallet)

			const { store } = videos.harness.ferry
			const { logs } = store.tables
			const [consumed] = await store.db.select().from(logs).where(and(eq(logs.userId, alice.userId), eq(logs.type, LOG_TYPE.consume)))
			expect(consumed!.subscriptionId).toBe(subscription)
			expect(JSON.parse(consumed!.other)).toMatchObject({ plan_name: 'Studio', call_ratio: 8 })
			expect(await auditLedger(store)).toEqual([])
		})
	})
}
