/**
 * Veo (the Gemini API's predictLongRunning and its operations) and Kling (its text-to-video and
 * image-to-video tasks) behind the same `/v1/videos` as OpenAI's, through the official `openai`
 * SDK: created, polled, finished or failed, priced per second of the requested length with the
 * size factor, refunded in full on failure, on a refusal, and on a success without a video.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import OpenAI, { toFile } from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { auditLedger } from '@/billing/audit'
import { pollTasks } from '@/relay/tasks/polling'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { type FakeVeo, startFakeVeo } from '../../fixtures/providers/gemini/veo/fake-veo'
import { type FakeKling, startFakeKling } from '../../fixtures/providers/kling/fake-kling'

const PRICES = { 'veo-3.0-generate-001': 0.4, 'kling-v2-1': 0.1 } as const
const QUOTA_PER_USD = 500_000
const quotaOf = (model: keyof typeof PRICES, seconds: number, factor = 1) => Math.round(PRICES[model] * seconds * factor * QUOTA_PER_USD)
const USER_QUOTA = 50_000_000

for (const target of databaseTargets()) {
	describe(`Veo and Kling videos on ${target.dialect}`, () => {
		let harness: RelayHarness
		let veo: FakeVeo
		let kling: FakeKling
		let client: OpenAI
		let userId: number

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			veo = startFakeVeo({ key: 'veo-upstream-key' })
			kling = startFakeKling({ accessKey: 'kling-access', secretKey: 'kling-secret' })
			await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify(PRICES))
			await harness.createChannel({ type: CHANNEL_TYPE.gemini, name: 'veo', key: 'veo-upstream-key', base_url: veo.url, models: 'veo-3.0-generate-001' })
			await harness.createChannel({ type: CHANNEL_TYPE.kling, name: 'kling', key: 'kling-access|kling-secret', base_url: kling.url, models: 'kling-v2-1' })
			const user = await harness.ferry.createUser('viewer')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: USER_QUOTA } })
			userId = user.userId
			client = harness.client((await harness.createToken({ name: 'videos', unlimited_quota: true }, user)).key)
		})
		afterAll(async () => {
			await harness?.close()
			await veo?.stop()
			await kling?.stop()
		})

		const poll = () => pollTasks(harness.ferry.dependencies, harness.ferry.relay)
		const account = async () => {
			const { users } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
			return { quota: row!.quota, used: row!.usedQuota }
		}
		const upstreamIdOf = async (videoId: string) => {
			const { tasks } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(tasks).where(and(eq(tasks.taskId, videoId), eq(tasks.userId, userId)))
			return JSON.parse(row!.privateData).upstream_id as string
		}

		test('Veo: an 8 s 1080p video is asked with its aspect ratio, resolution and seconds, polled through its operation, downloaded, and billed per second times the size factor', async () => {
			const before = await account()
			const video = await client.videos.create({ model: 'veo-3.0-generate-001', prompt: 'Waves at dawn', seconds: '8', size: '1920x1080' } as never)
			expect(video).toMatchObject({ object: 'video', status: 'queued', seconds: '8', size: '1920x1080' })
			const operation = veo.operations.at(-1)!
			expect(await upstreamIdOf(video.id)).toBe(operation)
			expect(JSON.stringify(video)).not.toContain('operations/')
			const submitted = veo.requests.findLast((request) => request.method === 'POST')!
			expect(submitted.path).toBe('/v1beta/models/veo-3.0-generate-001:predictLongRunning')
			expect(submitted.body).toEqual({ instances: [{ prompt: 'Waves at dawn' }], parameters: { aspectRatio: '16:9', resolution: '1080p', durationSeconds: 8, sampleCount: 1 } })
			expect((await account()).quota).toBe(before.quota - quotaOf('veo-3.0-generate-001', 8, 5 / 3))

			veo.running(operation)
			await poll()
			expect((await client.videos.retrieve(video.id)).status).toBe('in_progress')
			veo.finish(operation)
			await poll()
			expect(await client.videos.retrieve(video.id)).toMatchObject({ status: 'completed', progress: 100 })
			const content = await client.videos.downloadContent(video.id)
			expect(new Uint8Array(await content.arrayBuffer())).toEqual(veo.bytesOf(operation))
			expect(veo.requests.at(-1)).toMatchObject({ path: expect.stringMatching(/^\/v1beta\/files\/.+:download$/), headers: { 'x-goog-api-key': 'veo-upstream-key' } })
			expect(await client.videos.downloadContent(video.id, { variant: 'thumbnail' }).catch((error) => error)).toBeInstanceOf(OpenAI.BadRequestError)
			expect((await account()).used - before.used).toBe(quotaOf('veo-3.0-generate-001', 8, 5 / 3))
		})

		test('Veo: a reference image goes inline; a failed operation and one done without a video are refunded in full', async () => {
			const before = await account()
			const image = await toFile(new Uint8Array([1, 2, 3, 4, 5]), 'first-frame.png', { type: 'image/png' })
			const fromImage = await client.videos.create({ model: 'veo-3.0-generate-001', prompt: 'Animate it', seconds: '4', size: '720x1280', input_reference: image } as never)
			const submitted = veo.requests.findLast((request) => request.method === 'POST')!
			expect(submitted.body.instances[0].image).toEqual({ bytesBase64Encoded: Buffer.from([1, 2, 3, 4, 5]).toString('base64'), mimeType: 'image/png' })
			expect(submitted.body.parameters).toMatchObject({ aspectRatio: '9:16', resolution: '720p', durationSeconds: 4 })
			veo.fail(await upstreamIdOf(fromImage.id))
			await poll()
			expect(await client.videos.retrieve(fromImage.id)).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('violate the usage guidelines') } })

			const filtered = await client.videos.create({ model: 'veo-3.0-generate-001', prompt: 'Filtered', seconds: '6' } as never)
			veo.filter(await upstreamIdOf(filtered.id))
			await poll()
			expect(await client.videos.retrieve(filtered.id)).toMatchObject({ status: 'failed', error: { message: 'the upstream reported the video finished but gave no video' } })
			expect(await account()).toEqual(before)
		})

		test('Veo takes 4, 6 or 8 seconds: 5 is refused before any hold', async () => {
			const before = await account()
			const refused = await client.videos.create({ model: 'veo-3.0-generate-001', prompt: 'x', seconds: '5' } as never).catch((error) => error)
			expect(refused).toBeInstanceOf(OpenAI.BadRequestError)
			expect(refused.message).toContain('seconds')
			expect(await account()).toEqual(before)
		})

		test('Kling: a 10 s video costs twice a 5 s one; tasks are signed, asked with Kling\'s fields and polled until they succeed', async () => {
			const before = await account()
			const short = await client.videos.create({ model: 'kling-v2-1', prompt: 'A paper boat', seconds: '5', size: '1024x1024' } as never)
			const submitted = kling.requests.findLast((request) => request.method === 'POST')!
			expect(submitted.path).toBe('/v1/videos/text2video')
			expect(submitted.body).toEqual({ model_name: 'kling-v2-1', prompt: 'A paper boat', mode: 'std', duration: '5', aspect_ratio: '1:1' })
			const shortTask = kling.tasks.at(-1)!.id
			expect(await upstreamIdOf(short.id)).toBe(`text2video/${shortTask}`)
			kling.process(shortTask)
			await poll()
			expect((await client.videos.retrieve(short.id)).status).toBe('in_progress')
			kling.succeed(shortTask)
			await poll()
			expect((await client.videos.retrieve(short.id)).status).toBe('completed')
			const content = await client.videos.downloadContent(short.id)
			expect(new Uint8Array(await content.arrayBuffer())).toEqual(kling.bytesOf(shortTask))
			const afterShort = await account()

			const long = await client.videos.create({ model: 'kling-v2-1', prompt: 'A longer voyage', seconds: '10' } as never)
			kling.succeed(kling.tasks.at(-1)!.id)
			await poll()
			expect((await client.videos.retrieve(long.id)).status).toBe('completed')
			const afterLong = await account()
			expect(afterShort.used - before.used).toBe(quotaOf('kling-v2-1', 5))
			expect(afterLong.used - afterShort.used).toBe(2 * (afterShort.used - before.used))
		})

		test('Kling: a reference image makes an image-to-video task, polled under its own path; a failure and a refusal inside a 200 are refunded', async () => {
			const before = await account()
			const dataUrl = `data:image/jpeg;base64,${Buffer.from('jpeg-bytes').toString('base64')}`
			const response = await fetch(`${harness.baseUrl}/v1/videos`, {
				method: 'POST',
				headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'kling-v2-1', prompt: 'Bring the photo to life', seconds: '5', input_reference: { image_url: dataUrl } }),
			})
			expect(response.status).toBe(200)
			const video = await response.json() as { id: string }
			const submitted = kling.requests.findLast((request) => request.method === 'POST')!
			expect(submitted.path).toBe('/v1/videos/image2video')
			expect(submitted.body.image).toBe(Buffer.from('jpeg-bytes').toString('base64'))
			const task = kling.tasks.at(-1)!
			expect(task.kind).toBe('image2video')
			kling.fail(task.id)
			await poll()
			expect(kling.requests.some((request) => request.path === `/v1/videos/image2video/${task.id}`)).toBe(true)
			expect(await client.videos.retrieve(video.id)).toMatchObject({ status: 'failed', error: { message: 'The generated content failed the platform\'s risk review' } })

			kling.refuseNextSubmit()
			const refused = await client.videos.create({ model: 'kling-v2-1', prompt: 'Refused', seconds: '5' } as never)
			expect(refused).toMatchObject({ status: 'failed', error: { message: 'Trigger the content security policy of the platform' } })
			expect(await account()).toEqual(before)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('Kling\'s own clients call its native paths with their Ferry key: the task in Kling\'s envelope under Ferry\'s id, its video through Ferry', async () => {
			const before = await account()
			const callKling = (method: string, path: string, body?: unknown, key = client.apiKey) => fetch(`${harness.baseUrl}/kling/v1/videos${path}`, {
				method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
			}).then(async (response) => ({ status: response.status, body: await response.json() as any }))
			const submitted = await callKling('POST', '/text2video', { model_name: 'kling-v2-1', prompt: 'A kite over the dunes', duration: '10', aspect_ratio: '9:16' })
			expect(submitted.status).toBe(200)
			expect(submitted.body).toMatchObject({ code: 0, message: 'SUCCEED', data: { task_status: 'submitted' } })
			const id = submitted.body.data.task_id as string
			expect(id).toMatch(/^video_/)
			expect(kling.requests.findLast((request) => request.method === 'POST')!.body).toEqual({ model_name: 'kling-v2-1', prompt: 'A kite over the dunes', mode: 'std', duration: '10', aspect_ratio: '9:16' })
			expect((await account()).quota).toBe(before.quota - quotaOf('kling-v2-1', 10))

			kling.succeed(kling.tasks.at(-1)!.id)
			await poll()
			const queried = await callKling('GET', `/text2video/${id}`)
			expect(queried.body).toMatchObject({ code: 0, data: { task_id: id, task_status: 'succeed', task_result: { videos: [{ id, duration: '10' }] } } })
			const url = queried.body.data.task_result.videos[0].url as string
			expect(url).toStartWith(`${harness.baseUrl}/v1/videos/${id}/content?variant=video&signature=`)
			expect(new Uint8Array(await (await fetch(url)).arrayBuffer())).toEqual(kling.bytesOf(kling.tasks.at(-1)!.id))
			expect((await account()).used - before.used).toBe(quotaOf('kling-v2-1', 10))

			// Another user's task is not found, in Kling's shape; a length Kling does not take is refused before any hold.
			const stranger = await harness.ferry.createUser('stranger')
			const strangerKey = (await harness.createToken({ name: 'stranger', unlimited_quota: true }, stranger)).key
			expect(await callKling('GET', `/text2video/${id}`, undefined, strangerKey)).toMatchObject({ status: 404, body: { code: 1203 } })
			const held = await account()
			expect(await callKling('POST', '/text2video', { model_name: 'kling-v2-1', prompt: 'x', duration: '7' })).toMatchObject({ status: 400, body: { code: 1201, message: expect.stringContaining('seconds') } })
			expect(await callKling('POST', '/text2video', { model_name: 'kling-v2-1', prompt: 'x' }, 'sk-not-a-ferry-key')).toMatchObject({ status: 401, body: { code: 1000 } })
			expect(await account()).toEqual(held)

			// image2video with the image as Kling's clients send it: base64 without a prefix.
			const image = Buffer.from('png-bytes').toString('base64')
			const fromImage = await callKling('POST', '/image2video', { model_name: 'kling-v2-1', prompt: 'Wave', image, duration: '5' })
			expect(fromImage.body).toMatchObject({ code: 0, data: { task_status: 'submitted' } })
			const sent = kling.requests.findLast((request) => request.method === 'POST')!
			expect(sent).toMatchObject({ path: '/v1/videos/image2video', body: { image, duration: '5' } })
			kling.fail(kling.tasks.at(-1)!.id)
			await poll()
			expect((await callKling('GET', `/image2video/${fromImage.body.data.task_id}`)).body).toMatchObject({ code: 0, data: { task_status: 'failed', task_status_msg: 'The generated content failed the platform\'s risk review' } })
			expect(await account()).toEqual(held)
		})
	})
}
