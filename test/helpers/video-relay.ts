/**
 * Ferry on loopback in front of a fake OpenAI Videos API (an OpenAI channel and an Azure one), with
 * two funded users and their API tokens and per-second prices: what the video suites drive with the
 * official `openai` SDK over real HTTP. `poll()` runs one round of the task poller.
 */
import { eq } from 'drizzle-orm'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { AppInput } from '@/app'
import { pollTasks } from '@/relay/tasks/polling'
import type { Caller } from './app'
import type { DatabaseTarget } from './database'
import { startRelayHarness, type RelayHarness } from './relay'
import { type FakeVideos, startFakeVideos } from '../fixtures/providers/openai/videos/fake-videos'

export const VIDEO_KEY = 'sk-video-upstream'
export const VIDEO_USER_QUOTA = 20_000_000
/** USD per second of video. */
export const VIDEO_PRICES = { 'sora-2': 0.1, 'sora-2-pro': 0.3, 'azure-sora': 0.1 } as const
const QUOTA_PER_USD = 500_000
/** What a video costs at the harness's prices, group ratio 1. */
export const videoQuota = (model: keyof typeof VIDEO_PRICES, seconds: number, factor = 1) => Math.round(VIDEO_PRICES[model] * seconds * factor * QUOTA_PER_USD)

export interface VideoUser extends Caller {
	key: string
	tokenId: number
	client: OpenAI
}

export interface VideoHarness {
	harness: RelayHarness
	upstream: FakeVideos
	openAIChannelId: number
	azureChannelId: number
	alice: VideoUser
	bob: VideoUser
	poll(): ReturnType<typeof pollTasks>
	account(user: VideoUser): Promise<{ quota: number; used: number; remain: number }>
	/** The upstream id Ferry keeps for one of its videos. */
	upstreamIdOf(videoId: string): Promise<string>
	close(): Promise<void>
}

export async function startVideoHarness(target: Pick<DatabaseTarget, 'open'>, overrides: Partial<Omit<AppInput, 'store'>> = {}): Promise<VideoHarness> {
	const harness = await startRelayHarness(target as DatabaseTarget, overrides)
	const upstream = startFakeVideos({ key: VIDEO_KEY })
	await harness.ferry.dependencies.options.set('ModelPrice', JSON.stringify(VIDEO_PRICES))
	const openAIChannelId = await harness.createChannel({ type: CHANNEL_TYPE.openai, name: 'sora-upstream', key: VIDEO_KEY, base_url: upstream.url, models: 'sora-2,sora-2-pro' })
	const azureChannelId = await harness.createChannel({ type: CHANNEL_TYPE.azure, name: 'azure-sora', key: VIDEO_KEY, base_url: upstream.url, models: 'azure-sora', model_mapping: JSON.stringify({ 'azure-sora': 'sora-2' }), other: '2025-04-01-preview' })
	const user = async (name: string): Promise<VideoUser> => {
		const caller = await harness.ferry.createUser(name)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: caller.userId, quota: VIDEO_USER_QUOTA } })
		const token = await harness.createToken({ name: `${name}-token`, unlimited_quota: true }, caller)
		return { ...caller, key: token.key, tokenId: token.id, client: harness.client(token.key) }
	}
	const alice = await user('alice')
	const bob = await user('bob')
	const { store } = harness.ferry
	return {
		harness, upstream, openAIChannelId, azureChannelId, alice, bob,
		poll: () => pollTasks(harness.ferry.dependencies, harness.ferry.relay),
		async account(owner) {
			const { users, tokens } = store.tables
			const [row] = await store.db.select().from(users).where(eq(users.id, owner.userId))
			const [token] = await store.db.select().from(tokens).where(eq(tokens.id, owner.tokenId))
			return { quota: row!.quota, used: row!.usedQuota, remain: token!.remainQuota }
		},
		async upstreamIdOf(videoId) {
			const { tasks } = store.tables
			const [row] = await store.db.select().from(tasks).where(eq(tasks.taskId, videoId))
			return JSON.parse(row!.privateData).upstream_id
		},
		async close() {
			await harness.close()
			await upstream.stop()
		},
	}
}
