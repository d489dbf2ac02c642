/**
 * Veo on Vertex AI behind `/v1/videos`: the service account's token, predictLongRunning under the
 * channel's project and region, fetchPredictOperation until done, the video the operation carries
 * inline downloaded through Ferry, billed per second.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { clearAccessTokens } from '@/relay/providers/vertex/access-token'
import { pollTasks } from '@/relay/tasks/polling'
import { databaseTargets } from '../../helpers/database'
import { startRelayHarness, type RelayHarness } from '../../helpers/relay'
import { type FakeVertexVeo, startFakeVertexVeo } from '../../fixtures/providers/vertex/veo/fake-vertex-veo'

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })

describe('Veo on Vertex AI', () => {
	let harness: RelayHarness
	let upstream: FakeVertexVeo
	let client: OpenAI
	let userId: number

	beforeAll(async () => {
		clearAccessTokens()
		harness = await startRelayHarness(databaseTargets()[0]!)
		upstream = startFakeVertexVeo()
		await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify({ 'veo-3.0-generate-001': 0.4 }))
		const key = JSON.stringify({
			type: 'service_account', project_id: 'ferry-project', private_key_id: 'key-1', private_key: privateKey,
			client_email: 'relay@ferry-project.iam.gserviceaccount.com', token_uri: `${upstream.url}/token`,
		})
		await harness.createChannel({ type: CHANNEL_TYPE.vertex, key, base_url: upstream.url, models: 'veo-3.0-generate-001', other: 'us-central1' })
		const user = await harness.ferry.createUser('veoviewer')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: 10_000_000 } })
		userId = user.userId
		client = harness.client((await harness.createToken({ name: 'videos', unlimited_quota: true }, user)).key)
	})
	afterAll(async () => {
		await harness?.close()
		await upstream?.stop()
	})

	test('a video is submitted and polled under the project and region with the exchanged token, and its inline bytes download through Ferry', async () => {
		const video = await client.videos.create({ model: 'veo-3.0-generate-001', prompt: 'Rain on a tin roof', seconds: '6', size: '720x1280' } as never)
		const submit = upstream.requests.findLast((request) => request.path.endsWith(':predictLongRunning'))!
		expect(submit.path).toBe('/v1/projects/ferry-project/locations/us-central1/publishers/google/models/veo-3.0-generate-001:predictLongRunning')
		expect(submit.body).toEqual({ instances: [{ prompt: 'Rain on a tin roof' }], parameters: { aspectRatio: '9:16', resolution: '720p', durationSeconds: 6, sampleCount: 1 } })
		await pollTasks(harness.ferry.dependencies, harness.ferry.relay)
		expect((await client.videos.retrieve(video.id)).status).toBe('in_progress')
		const poll = upstream.requests.findLast((request) => request.path.endsWith(':fetchPredictOperation'))!
		expect(poll.body).toEqual({ operationName: upstream.operations[0] })
		upstream.finish(upstream.operations[0]!)
		await pollTasks(harness.ferry.dependencies, harness.ferry.relay)
		expect((await client.videos.retrieve(video.id)).status).toBe('completed')
		const content = await client.videos.downloadContent(video.id)
		expect(content.headers.get('content-type')).toBe('video/mp4')
		expect(Buffer.from(await content.arrayBuffer()).toString('base64')).toBe('AAAAIGZ0eXBpc29t')
		const { users } = harness.ferry.store.tables
		const [row] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
		expect(row!.usedQuota).toBe(Math.round(0.4 * 6 * 500_000))
	})
})
