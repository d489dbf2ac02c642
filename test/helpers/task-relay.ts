/**
 * Ferry on loopback in front of a fake midjourney-proxy and a fake Suno API, with two funded users
 * and their API tokens: what the task relay suites drive over real HTTP. `poll()` runs one round
 * of the poller (the schedule's Bun worker only decides when; test/workers covers that).
 */
import { eq } from 'drizzle-orm'
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { AppInput } from '@/app'
import { pollTasks } from '@/relay/tasks/polling'
import type { Caller } from './app'
import type { DatabaseTarget } from './database'
import { startRelayHarness, type RelayHarness } from './relay'
import { type FakeMidjourney, startFakeMidjourney } from '../fixtures/providers/midjourney/fake-midjourney'
import { type FakeSuno, startFakeSuno } from '../fixtures/providers/suno/fake-suno'

export const MJ_KEY = 'mj-upstream-secret'
export const SUNO_KEY = 'suno-upstream-key'
export const USER_QUOTA = 1_000_000
/** Per-call prices at the default ModelPrice, group ratio 1 and 500 000 quota per dollar. */
export const PRICE = { mj_imagine: 50_000, mj_upscale: 25_000, mj_upload: 25_000, suno_music: 50_000, suno_lyrics: 5_000 } as const
export const MJ_MODELS = 'mj_imagine,mj_upscale,mj_variation,mj_reroll,mj_blend,mj_describe,mj_shorten,mj_upload,mj_modal,mj_inpaint,swap_face'

export interface Answer {
	status: number
	body: any
	headers: Headers
}

export interface User extends Caller {
	key: string
	tokenId: number
}

export interface TaskHarness {
	harness: RelayHarness
	midjourney: FakeMidjourney
	suno: FakeSuno
	mjChannelId: number
	sunoChannelId: number
	alice: User
	bob: User
	/** Calls Ferry's relay with `key` as a bearer token (or in `mj-api-secret`, by `headers`). */
	call(method: string, path: string, options?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<Answer>
	poll(): ReturnType<typeof pollTasks>
	account(user: User): Promise<{ quota: number; used: number; remain: number; tokenUsed: number }>
	/** The user's log entries, oldest first. */
	logs(user: User): Promise<{ type: number; quota: number; modelName: string; content: string; requestId: string }[]>
	close(): Promise<void>
}

export async function startTaskHarness(target: Pick<DatabaseTarget, 'open'>, overrides: Partial<Omit<AppInput, 'store'>> = {}): Promise<TaskHarness> {
	const harness = await startRelayHarness(target as DatabaseTarget, overrides)
	const midjourney = startFakeMidjourney({ key: MJ_KEY })
	const suno = startFakeSuno({ key: SUNO_KEY })
	const mjChannelId = await harness.createChannel({ type: CHANNEL_TYPE.midjourney, name: 'drawing-upstream', key: MJ_KEY, base_url: midjourney.url, models: MJ_MODELS })
	const sunoChannelId = await harness.createChannel({ type: CHANNEL_TYPE.suno, name: 'music-upstream', key: SUNO_KEY, base_url: suno.url, models: 'suno_music,suno_lyrics' })
	const user = async (name: string): Promise<User> => {
		const caller = await harness.ferry.createUser(name)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: caller.userId, quota: USER_QUOTA } })
		const token = await harness.createToken({ name: `${name}-token`, unlimited_quota: false, remain_quota: USER_QUOTA }, caller)
		return { ...caller, key: token.key, tokenId: token.id }
	}
	const alice = await user('alice')
	const bob = await user('bob')
	const { store } = harness.ferry
	return {
		harness, midjourney, suno, mjChannelId, sunoChannelId, alice, bob,
		async call(method, path, { key, body, headers = {} } = {}) {
			const response = await fetch(`${harness.baseUrl}${path}`, {
				method,
				headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
				body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
			})
			const text = await response.text()
			let parsed: unknown = text
			try {
				parsed = JSON.parse(text)
			} catch {
				// not JSON: kept as text
			}
			return { status: response.status, body: parsed, headers: response.headers }
		},
		poll: () => pollTasks(harness.ferry.dependencies, harness.ferry.relay),
		async account(owner) {
			const { users, tokens } = store.tables
			const [row] = await store.db.select().from(users).where(eq(users.id, owner.userId))
			const [token] = await store.db.select().from(tokens).where(eq(tokens.id, owner.tokenId))
			return { quota: row!.quota, used: row!.usedQuota, remain: token!.remainQuota, tokenUsed: token!.usedQuota }
		},
		async logs(owner) {
			const { logs } = store.tables
			const rows = await store.db.select().from(logs).where(eq(logs.userId, owner.userId)).orderBy(logs.id)
			return rows.map((row) => ({ type: row.type, quota: row.quota, modelName: row.modelName, content: row.content, requestId: row.requestId }))
		},
		async close() {
			await harness.close()
			await midjourney.stop()
			await suno.stop()
		},
	}
}
