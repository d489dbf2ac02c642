/**
 * OpenAI's Videos API through Ferry with the official `openai` SDK: a video is a call on the one
 * pipeline (priced per second of its requested length, held at submit), then a task polled until
 * it completes (settled) or fails (returned in full). Ferry's own ids only, the caller's own
 * videos only, the content streamed through, the ledger exact.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import OpenAI, { toFile } from 'openai'
import { LOG_TYPE } from '@shared/log'
import { isAllowance } from '@/billing/allowance-statements'
import { auditLedger } from '@/billing/audit'
import { reconcileHolds } from '@/billing/reconciler'
import { nowSeconds } from '@/lib/clock'
import { databaseTargets } from '../../helpers/database'
import { startVideoHarness, type VideoHarness, videoQuota, VIDEO_USER_QUOTA } from '../../helpers/video-relay'
import { startFakeVideos } from '../../fixtures/providers/openai/videos/fake-videos'

const SECONDS_PER_MINUTE = 60

for (const target of databaseTargets()) {
	describe(`OpenAI videos on ${target.dialect}`, () => {
		let videos: VideoHarness
		beforeAll(async () => {
			videos = await startVideoHarness(target)
		})
		afterAll(async () => {
			await videos?.close()
		})

		/** Polls until the video reaches a finished state (bounded). */
		const retrieveUntilDone = async (client: OpenAI, id: string) => {
			for (let round = 0; round < 10; round++) {
				await videos.poll()
				const video = await client.videos.retrieve(id)
				if (video.status === 'completed' || video.status === 'failed') return video
			}
			throw new Error(`the video ${id} never finished`)
		}

		const holdsOf = async (userId: number) => {
			const { store } = videos.harness.ferry
			return store.db.select().from(store.tables.quotaHolds).where(eq(store.tables.quotaHolds.userId, userId))
		}

		test('a 4 s and an 8 s video are created, polled until completed and downloaded; the 8 s one costs twice the 4 s one', async () => {
			const { alice, upstream } = videos
			const before = await videos.account(alice)
			const short = await alice.client.videos.create({ model: 'sora-2', prompt: 'A calico cat playing a piano on stage', seconds: '4' })
			expect(short).toMatchObject({ object: 'video', status: 'queued', model: 'sora-2', seconds: '4', size: '720x1280', prompt: 'A calico cat playing a piano on stage' })
			expect(short.id).toMatch(/^video_/)
			const shortUpstream = await videos.upstreamIdOf(short.id)
			expect(short.id).not.toBe(shortUpstream)
			expect(JSON.stringify(short)).not.toContain(shortUpstream)
			// Held at submit: the price of 4 seconds.
			expect((await videos.account(alice)).quota).toBe(before.quota - videoQuota('sora-2', 4))

			upstream.progress(shortUpstream, 40)
			await videos.poll()
			expect(await alice.client.videos.retrieve(short.id)).toMatchObject({ status: 'in_progress', progress: 40 })

			upstream.complete(shortUpstream)
			const done = await retrieveUntilDone(alice.client, short.id)
			expect(done).toMatchObject({ id: short.id, status: 'completed', progress: 100, error: null })
			const content = await alice.client.videos.downloadContent(short.id)
			expect(content.headers.get('content-type')).toBe('video/mp4')
			expect(new Uint8Array(await content.arrayBuffer())).toEqual(upstream.bytesOf(shortUpstream))
			// A player seeking asks a byte range: the part comes through with its range.
			const part = await fetch(`${videos.harness.baseUrl}/v1/videos/${short.id}/content`, { headers: { authorization: `Bearer ${alice.key}`, range: 'bytes=10-19' } })
			expect(part.status).toBe(206)
			expect(part.headers.get('content-range')).toBe(`bytes 10-19/${upstream.bytesOf(shortUpstream).length}`)
			expect(new Uint8Array(await part.arrayBuffer())).toEqual(upstream.bytesOf(shortUpstream).slice(10, 20))
			const thumbnail = await alice.client.videos.downloadContent(short.id, { variant: 'thumbnail' })
			expect(new Uint8Array(await thumbnail.arrayBuffer())).toEqual(upstream.bytesOf(shortUpstream, 'thumbnail'))
			const afterShort = await videos.account(alice)
			expect(afterShort.used - before.used).toBe(videoQuota('sora-2', 4))

			const long = await alice.client.videos.create({ model: 'sora-2', prompt: 'The same cat, a longer song', seconds: '8' })
			upstream.complete(await videos.upstreamIdOf(long.id))
			expect((await retrieveUntilDone(alice.client, long.id)).status).toBe('completed')
			const afterLong = await videos.account(alice)
			expect(afterLong.used - afterShort.used).toBe(2 * (afterShort.used - before.used))
			expect(afterLong.quota).toBe(before.quota - 3 * videoQuota('sora-2', 4))
			// The consume log names the per-second price and the seconds as the call's multiplier.
			const { store } = videos.harness.ferry
			const { logs } = store.tables
			const consumed = await store.db.select().from(logs).where(and(eq(logs.userId, alice.userId), eq(logs.type, LOG_TYPE.consume)))
			expect(consumed.map((log) => [log.modelName, log.quota])).toEqual([['sora-2', videoQuota('sora-2', 4)], ['sora-2', videoQuota('sora-2', 8)]])
			expect(JSON.parse(consumed[1]!.other)).toMatchObject({ model_price: 0.1, call_ratio: 8 })
			expect(await auditLedger(store)).toEqual([])
		})

		test('a 1080p-class size costs its size factor; seconds and sizes the model does not take are refused with a 400 before any hold', async () => {
			const { alice } = videos
			const before = await videos.account(alice)
			const holds = (await holdsOf(alice.userId)).length
			for (const body of [
				{ model: 'sora-2', prompt: 'x', seconds: '5' },
				{ model: 'sora-2', prompt: 'x', seconds: '4', size: '640x480' },
				{ model: 'sora-2', prompt: '' },
			]) {
				const refused = await alice.client.videos.create(body as never).catch((error) => error)
				expect(refused).toBeInstanceOf(OpenAI.BadRequestError)
				expect(refused.error).toMatchObject({ type: 'invalid_request_error' })
			}
			expect((await holdsOf(alice.userId)).length).toBe(holds)
			expect(await videos.account(alice)).toEqual(before)

			const tall = await alice.client.videos.create({ model: 'sora-2-pro', prompt: 'A tall lighthouse', seconds: '4', size: '1024x1792' })
			expect((await videos.account(alice)).quota).toBe(before.quota - videoQuota('sora-2-pro', 4, 5 / 3))
			videos.upstream.complete(await videos.upstreamIdOf(tall.id))
			await retrieveUntilDone(alice.client, tall.id)
			expect((await videos.account(alice)).used - before.used).toBe(videoQuota('sora-2-pro', 4, 5 / 3))
		})

		test('a video that fails is refunded in full with a log line, and its content is not available', async () => {
			const { alice, upstream } = videos
			const before = await videos.account(alice)
			const video = await alice.client.videos.create({ model: 'sora-2', prompt: 'Something the moderation blocks', seconds: '8' })
			const unfinished = await alice.client.videos.downloadContent(video.id).catch((error) => error)
			expect(unfinished).toBeInstanceOf(OpenAI.ConflictError)
			expect(unfinished.error).toMatchObject({ type: 'invalid_request_error', code: 'video_not_ready' })
			upstream.fail(await videos.upstreamIdOf(video.id))
			const failed = await retrieveUntilDone(alice.client, video.id)
			expect(failed).toMatchObject({ status: 'failed', error: { message: 'Your request was blocked by our moderation system.' } })
			expect(await videos.account(alice)).toEqual(before)
			const { store } = videos.harness.ferry
			const lines = await store.db.select().from(store.tables.logs).where(and(eq(store.tables.logs.userId, alice.userId), eq(store.tables.logs.type, LOG_TYPE.system)))
			expect(lines.at(-1)!.content).toBe(`the task ${video.id} failed (Your request was blocked by our moderation system.); its hold of ${videoQuota('sora-2', 8)} quota was returned`)
			expect(await alice.client.videos.downloadContent(video.id).catch((error) => error)).toBeInstanceOf(OpenAI.ConflictError)
		})

		test('an upstream that refuses the video returns the hold at once; one that never finishes is timed out and refunded', async () => {
			const { alice, upstream } = videos
			const before = await videos.account(alice)
			upstream.refuseNextCreate(400)
			const refused = await alice.client.videos.create({ model: 'sora-2', prompt: 'refused', seconds: '4' }).catch((error) => error)
			expect(refused).toBeInstanceOf(OpenAI.BadRequestError)
			expect(refused.message).toContain('blocked by our moderation system')
			expect(await videos.account(alice)).toEqual(before)

			const { store, dependencies } = videos.harness.ferry
			await dependencies.options.set('TaskTimeoutMinutes', '30')
			const slow = await alice.client.videos.create({ model: 'sora-2', prompt: 'slow', seconds: '4' })
			await store.db.update(store.tables.tasks).set({ submitTime: nowSeconds() - 31 * SECONDS_PER_MINUTE }).where(eq(store.tables.tasks.taskId, slow.id))
			expect(await videos.poll()).toMatchObject({ timedOut: 1 })
			expect(await alice.client.videos.retrieve(slow.id)).toMatchObject({ status: 'failed', error: { message: 'the task did not finish within 30 minutes' } })
			expect(await videos.account(alice)).toEqual(before)
		})

		test('another user\'s video is not found: retrieve, content, delete and remix get 404, and lists show only one\'s own', async () => {
			const { alice, bob, upstream } = videos
			const video = await alice.client.videos.create({ model: 'sora-2', prompt: 'private', seconds: '4' })
			upstream.complete(await videos.upstreamIdOf(video.id))
			await retrieveUntilDone(alice.client, video.id)
			for (const attempt of [
				() => bob.client.videos.retrieve(video.id),
				() => bob.client.videos.downloadContent(video.id),
				() => bob.client.videos.delete(video.id),
				() => bob.client.videos.remix(video.id, { prompt: 'mine now' }),
			]) {
				const error = await attempt().catch((failure) => failure)
				expect(error).toBeInstanceOf(OpenAI.NotFoundError)
				expect(error.message).toContain(`Video with id '${video.id}' not found.`)
			}
			const bobs = await bob.client.videos.list()
			expect(bobs.data.map((entry) => entry.id)).not.toContain(video.id)
			const alices = await alice.client.videos.list({ limit: 100 })
			expect(alices.data.map((entry) => entry.id)).toContain(video.id)
			// The console's task list has it, with no upstream id.
			const own = await videos.harness.ferry.call('GET', `/api/task/self?task_id=${video.id}`, { as: alice })
			expect(own.body.data.items).toEqual([expect.objectContaining({ task_id: video.id, platform: 'video', action: 'GENERATE', status: 'SUCCESS', quota: videoQuota('sora-2', 4) })])
			expect(JSON.stringify(own.body)).not.toContain(await videos.upstreamIdOf(video.id))
		})

		test('a reference image goes upstream as multipart; a remix is billed like its original; a deleted video is gone', async () => {
			const { alice, upstream } = videos
			const image = await toFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]), 'reference.png', { type: 'image/png' })
			const video = await alice.client.videos.create({ model: 'sora-2', prompt: 'From this picture', seconds: '4', input_reference: image })
			const sent = upstream.requests.findLast((request) => request.method === 'POST' && request.path === '/v1/videos')!
			expect(sent.headers['content-type']).toStartWith('multipart/form-data')
			expect(sent.files.input_reference).toEqual({ type: 'image/png', size: 8 })
			expect(sent.body).toMatchObject({ prompt: 'From this picture', seconds: '4', model: 'sora-2' })
			upstream.complete(await videos.upstreamIdOf(video.id))
			await retrieveUntilDone(alice.client, video.id)

			const before = await videos.account(alice)
			const remix = await alice.client.videos.remix(video.id, { prompt: 'The same, at night' })
			expect(remix).toMatchObject({ status: 'queued', seconds: '4', remixed_from_video_id: video.id, prompt: 'The same, at night' })
			const remixSent = upstream.requests.at(-1)!
			expect(remixSent.path).toBe(`/v1/videos/${await videos.upstreamIdOf(video.id)}/remix`)
			expect(remixSent.body).toEqual({ prompt: 'The same, at night' })
			upstream.complete(await videos.upstreamIdOf(remix.id))
			await retrieveUntilDone(alice.client, remix.id)
			expect((await videos.account(alice)).used - before.used).toBe(videoQuota('sora-2', 4))

			expect(await alice.client.videos.delete(remix.id)).toEqual({ id: remix.id, object: 'video.deleted', deleted: true })
			expect(upstream.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/videos/${await videos.upstreamIdOf(remix.id)}` })
			expect(await alice.client.videos.retrieve(remix.id).catch((error) => error)).toBeInstanceOf(OpenAI.NotFoundError)
			expect((await alice.client.videos.list({ limit: 100 })).data.map((entry) => entry.id)).not.toContain(remix.id)
		})

		test('an Azure channel serves videos on its v1 route with its api-key, the deployment named by the mapping', async () => {
			const { alice, upstream } = videos
			const before = await videos.account(alice)
			const video = await alice.client.videos.create({ model: 'azure-sora', prompt: 'Azure sunrise', seconds: '8' } as never)
			const sent = upstream.requests.findLast((request) => request.method === 'POST')!
			expect(sent.path).toBe('/openai/v1/videos')
			expect(sent.headers['api-key']).toBe('sk-video-upstream')
			expect(sent.headers.authorization).toBeUndefined()
			expect(sent.body.model).toBe('sora-2')
			const upstreamId = await videos.upstreamIdOf(video.id)
			upstream.complete(upstreamId)
			expect((await retrieveUntilDone(alice.client, video.id)).status).toBe('completed')
			expect(upstream.requests.some((request) => request.method === 'GET' && request.path === `/openai/v1/videos/${upstreamId}`)).toBe(true)
			const content = await alice.client.videos.downloadContent(video.id)
			expect(new Uint8Array(await content.arrayBuffer())).toEqual(upstream.bytesOf(upstreamId))
			expect((await videos.account(alice)).used - before.used).toBe(videoQuota('azure-sora', 8))
		})

		test('bad input gets a 4xx in OpenAI\'s shape and holds nothing: unknown ids, bad list parameters and variants, a stray file, early deletes and remixes', async () => {
			const { alice } = videos
			const before = await videos.account(alice)
			const holds = (await holdsOf(alice.userId)).length
			const raw = (method: string, path: string, init: RequestInit = {}) => fetch(`${videos.harness.baseUrl}${path}`, { method, ...init, headers: { authorization: `Bearer ${alice.key}`, ...init.headers } })
				.then(async (response) => ({ status: response.status, body: await response.json() as any }))
			expect(await raw('GET', '/v1/videos/video_unknown')).toMatchObject({ status: 404, body: { error: { type: 'invalid_request_error' } } })
			expect(await raw('GET', '/v1/videos?limit=abc')).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('limit') } } })
			expect(await raw('GET', '/v1/videos?order=sideways')).toMatchObject({ status: 400 })
			expect(await raw('GET', '/v1/videos?after=video_unknown')).toMatchObject({ status: 400 })
			expect(await raw('POST', '/v1/videos', { headers: { 'content-type': 'application/json' }, body: '{"model": "sora-2", "prompt": ' })).toMatchObject({ status: 400 })
			expect(await raw('POST', '/v1/videos', { headers: { 'content-type': 'application/json' }, body: '[1, 2]' })).toMatchObject({ status: 400 })
			const stray = new FormData()
			stray.append('model', 'sora-2')
			stray.append('prompt', 'with a stray file')
			stray.append('video', new Blob([new Uint8Array([1, 2, 3])], { type: 'video/mp4' }), 'clip.mp4')
			expect(await raw('POST', '/v1/videos', { body: stray })).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('input_reference') } } })
			expect((await holdsOf(alice.userId)).length).toBe(holds)
			expect(await videos.account(alice)).toEqual(before)

			const running = await alice.client.videos.create({ model: 'sora-2', prompt: 'still rendering', seconds: '4' })
			expect(await raw('GET', `/v1/videos/${running.id}/content?variant=poster`)).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('variant') } } })
			expect(await raw('DELETE', `/v1/videos/${running.id}`)).toMatchObject({ status: 400 })
			expect(await alice.client.videos.remix(running.id, { prompt: 'too early' }).catch((error) => error)).toBeInstanceOf(OpenAI.BadRequestError)
			videos.upstream.complete(await videos.upstreamIdOf(running.id))
			await retrieveUntilDone(alice.client, running.id)

			// An upstream that answers the submit with something that is no video object: a 502, nothing charged.
			const settled = await videos.account(alice)
			videos.upstream.garbleNextCreate()
			const garbled = await alice.client.videos.create({ model: 'sora-2', prompt: 'garbled', seconds: '4' }).catch((error) => error)
			expect(garbled).toBeInstanceOf(OpenAI.APIError)
			expect(garbled.status).toBe(502)
			expect(await videos.account(alice)).toEqual(settled)
		})

		test('with TaskEnabled off a video submit is refused with a 403 before any hold, and one\'s videos stay readable', async () => {
			const { alice } = videos
			const { options } = videos.harness.ferry.dependencies
			const [existing] = (await alice.client.videos.list()).data
			const before = await videos.account(alice)
			await options.set('TaskEnabled', 'false')
			try {
				const refused = await alice.client.videos.create({ model: 'sora-2', prompt: 'off', seconds: '4' }).catch((error) => error)
				expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError)
				expect(refused.error).toMatchObject({ code: 'task_disabled' })
				expect(await videos.account(alice)).toEqual(before)
				expect((await alice.client.videos.retrieve(existing!.id)).id).toBe(existing!.id)
			} finally {
				await options.set('TaskEnabled', 'true')
			}
		})

		test('a live video\'s hold survives the reconciler after its deadline and a restart, and the video is still billed once; a deleted channel fails it with a refund', async () => {
			const { alice, upstream } = videos
			const { store, relay } = videos.harness.ferry
			const { quotaHolds, tasks } = store.tables
			const before = await videos.account(alice)
			const video = await alice.client.videos.create({ model: 'sora-2', prompt: 'patient', seconds: '4' })
			const [row] = await store.db.select().from(tasks).where(eq(tasks.taskId, video.id))
			await store.db.update(quotaHolds).set({ deadline: nowSeconds() - 3600 }).where(eq(quotaHolds.requestId, row!.requestId))
			const restarted = `${relay.nodeInstance.split('/')[0]}/restarted`
			expect(await reconcileHolds(store, restarted)).toBe(0)
			upstream.complete(await videos.upstreamIdOf(video.id))
			await videos.poll()
			const [hold] = await store.db.select().from(quotaHolds).where(eq(quotaHolds.requestId, row!.requestId))
			expect(hold).toMatchObject({ state: 'settled', charged: videoQuota('sora-2', 4) })
			expect((await videos.account(alice)).used - before.used).toBe(videoQuota('sora-2', 4))

			// A channel deleted under a running video: the next round fails it and returns its hold.
			const spare = await videos.harness.createChannel({ name: 'spare-sora', key: 'sk-video-upstream', base_url: upstream.url, models: 'sora-3-preview' })
			await videos.harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3, 'azure-sora': 0.1, 'sora-3-preview': 0.1 }))
			const afterFirst = await videos.account(alice)
			const orphan = await alice.client.videos.create({ model: 'sora-3-preview', prompt: 'orphaned', seconds: '4' } as never)
			expect((await videos.harness.ferry.call('DELETE', `/api/channel/${spare}/`, { as: videos.harness.root })).body.success).toBe(true)
			await videos.poll()
			expect(await alice.client.videos.retrieve(orphan.id)).toMatchObject({ status: 'failed', error: { message: 'the channel that ran the task no longer exists' } })
			expect(await videos.account(alice)).toEqual(afterFirst)
		})

		test('on a pool of keys each video is polled, downloaded and remixed with the key that made it', async () => {
			const keys = ['sk-video-pool-one', 'sk-video-pool-two']
			const pool = startFakeVideos({ keys })
			try {
				await videos.harness.createChannel({ type: 1, name: 'sora-pool', mode: 'multi_key', multi_key_mode: 'polling', key: keys.join('\n'), base_url: pool.url, models: 'sora-2-pool' })
				const { options } = videos.harness.ferry.dependencies
				await options.set('ModelPrice', JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3, 'azure-sora': 0.1, 'sora-3-preview': 0.1, 'sora-2-pool': 0.1 }))
				const { alice } = videos
				const made = [
					await alice.client.videos.create({ model: 'sora-2-pool', prompt: 'first', seconds: '4' } as never),
					await alice.client.videos.create({ model: 'sora-2-pool', prompt: 'second', seconds: '4' } as never),
				]
				expect(new Set(pool.ids.map((id) => pool.ownerOf(id)))).toEqual(new Set(keys))
				for (const id of pool.ids) pool.complete(id)
				await videos.poll()
				for (const video of made) {
					expect((await alice.client.videos.retrieve(video.id)).status).toBe('completed')
					const upstreamId = await videos.upstreamIdOf(video.id)
					expect(new Uint8Array(await (await alice.client.videos.downloadContent(video.id)).arrayBuffer())).toEqual(pool.bytesOf(upstreamId))
				}
				// A remix goes with the key that made the original, whichever key the pool would take next:
				// in reverse order, the pool's next key is the other one each time.
				for (const video of [...made].reverse()) {
					const remix = await alice.client.videos.remix(video.id, { prompt: 'again' })
					expect(pool.ownerOf(await videos.upstreamIdOf(remix.id))).toBe(pool.ownerOf(await videos.upstreamIdOf(video.id)))
				}
			} finally {
				await pool.stop()
			}
		})

		test('a video submit the upstream may have taken (a 5xx) is not sent again to another key, and its hold is returned; a refused key moves it on', async () => {
			const keys = ['sk-video-once-one', 'sk-video-once-two']
			const pool = startFakeVideos({ keys })
			try {
				await videos.harness.createChannel({ type: 1, name: 'sora-once', mode: 'multi_key', multi_key_mode: 'polling', key: keys.join('\n'), base_url: pool.url, models: 'sora-2-once' })
				const { options } = videos.harness.ferry.dependencies
				await options.set('ModelPrice', JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3, 'azure-sora': 0.1, 'sora-3-preview': 0.1, 'sora-2-pool': 0.1, 'sora-2-once': 0.1 }))
				const { alice } = videos
				const before = await videos.account(alice)
				pool.refuseNextCreate(500)
				const failed = await alice.client.videos.create({ model: 'sora-2-once', prompt: 'maybe started', seconds: '4' } as never).catch((error) => error)
				expect(failed).toBeInstanceOf(OpenAI.InternalServerError)
				const creates = () => pool.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos')
				expect(creates()).toHaveLength(1)
				expect((await videos.account(alice)).quota).toBe(before.quota)
				pool.refuseNextCreate(429)
				const moved = await alice.client.videos.create({ model: 'sora-2-once', prompt: 'not taken, so tried again', seconds: '4' } as never)
				expect(moved.status).toBe('queued')
				expect(creates()).toHaveLength(3)
			} finally {
				await pool.stop()
			}
		})

		test('a channel\'s status_code_mapping rewrites a refused video\'s status: a 429 under {"429": "503"} answers 503 in OpenAI\'s shape, and its hold is returned', async () => {
			const pool = startFakeVideos({ key: 'sk-video-mapped' })
			try {
				await videos.harness.createChannel({ type: 1, name: 'sora-mapped', key: 'sk-video-mapped', base_url: pool.url, models: 'sora-2-mapped', status_code_mapping: '{"429": "503"}' })
				const { options } = videos.harness.ferry.dependencies
				await options.set('ModelPrice', JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3, 'azure-sora': 0.1, 'sora-3-preview': 0.1, 'sora-2-pool': 0.1, 'sora-2-once': 0.1, 'sora-2-mapped': 0.1 }))
				const { alice } = videos
				const before = await videos.account(alice)
				pool.refuseNextCreate(429)
				const refused = await alice.client.videos.create({ model: 'sora-2-mapped', prompt: 'too many at once', seconds: '4' } as never).catch((error) => error)
				expect(refused).toBeInstanceOf(OpenAI.InternalServerError)
				expect(refused.status).toBe(503)
				expect(refused.error).toMatchObject({ message: 'Your request was blocked by our moderation system.', type: 'upstream_error', code: 'upstream_503' })
				expect(pool.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos')).toHaveLength(1)
				// Held at submit, returned in full at the refusal (the account shows it: a busy wallet's call is held from its allowance, without a row).
				expect(await videos.account(alice)).toEqual(before)
			} finally {
				await pool.stop()
			}
		})

		test('two pollers at once settle each video once', async () => {
			const { alice, upstream } = videos
			const before = await videos.account(alice)
			const video = await alice.client.videos.create({ model: 'sora-2', prompt: 'raced', seconds: '12' })
			upstream.complete(await videos.upstreamIdOf(video.id))
			await Promise.all([videos.poll(), videos.poll(), videos.poll()])
			expect((await alice.client.videos.retrieve(video.id)).status).toBe('completed')
			expect((await videos.account(alice)).used - before.used).toBe(videoQuota('sora-2', 12))
			const { store } = videos.harness.ferry
			const consumed = await store.db.select().from(store.tables.logs).where(and(eq(store.tables.logs.userId, alice.userId), eq(store.tables.logs.type, LOG_TYPE.consume)))
			expect(consumed.filter((log) => log.content === '' && JSON.parse(log.other).task_id === video.id)).toHaveLength(1)
		})

		test('the ledger is exact after every video', async () => {
			expect(await auditLedger(videos.harness.ferry.store)).toEqual([])
			const { store } = videos.harness.ferry
			const pending = await store.db.select().from(store.tables.quotaHolds).where(eq(store.tables.quotaHolds.state, 'pending'))
			// Only the videos still running hold anything (besides an allowance a busy test left, returned once idle).
			const { tasks } = store.tables
			const running = await store.db.select().from(tasks).where(eq(tasks.platform, 'video'))
			const live = running.filter((row) => row.status !== 'SUCCESS' && row.status !== 'FAILURE').map((row) => row.requestId).sort()
			expect(pending.map((hold) => hold.requestId).filter((requestId) => !isAllowance(requestId)).sort()).toEqual(live)
			expect(VIDEO_USER_QUOTA).toBeGreaterThan(0)
		})
	})
}
