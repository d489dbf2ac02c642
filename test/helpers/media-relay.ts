/**
 * The image, audio and moderation suites' common ground: Ferry on loopback in front of a fake media
 * upstream (fake-media.ts), a funded user whose limited token the `openai` SDK uses, and the exact
 * charge of each call read from the user's and the token's balances.
 */
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { DatabaseTarget } from './database'
import { startFakeMedia, type FakeMedia, type FakeMediaOptions } from './fake-media'
import { startRelayHarness, type RelayHarness } from './relay'

const USER_QUOTA = 100_000_000
const TOKEN_QUOTA = 50_000_000

export interface MediaSuite {
	harness: RelayHarness
	upstream: FakeMedia
	client: OpenAI
	key: string
	/** Runs `call` and answers its result with what it cost the user, checking the token paid the same. */
	charged<T>(call: () => Promise<T>): Promise<{ result: T; charge: number }>
	/** The user's quota, used quota and the token's remaining quota. */
	balances(): Promise<{ quota: number; used: number; remain: number }>
	lastConsumeLog(): Promise<Record<string, any> | undefined>
	/** Holds still pending (none once every call has ended). */
	pendingHolds(): Promise<unknown[]>
	close(): Promise<void>
}

export async function startMediaSuite(
	target: DatabaseTarget,
	setup: { options?: Record<string, unknown>; channels: (upstreamUrl: string) => Record<string, unknown>[]; upstream?: FakeMediaOptions },
): Promise<MediaSuite> {
	const upstream = startFakeMedia(setup.upstream)
	const harness = await startRelayHarness(target)
	const options = harness.ferry.dependencies.options
	await options.set('RetryTimes', '0')
	for (const [name, value] of Object.entries(setup.options ?? {})) {
		const current = options.get(name as never) as unknown
		await options.set(name as never, typeof value === 'string' ? value : JSON.stringify(typeof current === 'object' && current !== null ? { ...current, ...value as object } : value))
	}
	for (const channel of setup.channels(upstream.url)) await harness.createChannel(channel)
	const user = await harness.ferry.createUser('media')
	await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: USER_QUOTA } })
	const token = await harness.createToken({ name: 'media', unlimited_quota: false, remain_quota: TOKEN_QUOTA }, user)
	const { users, tokens, quotaHolds } = harness.ferry.store.tables
	const db = harness.ferry.store.db

	const suite: MediaSuite = {
		harness,
		upstream,
		client: harness.client(token.key),
		key: token.key,
		async balances() {
			const [row] = await db.select().from(users).where(eq(users.id, user.userId))
			const [tokenRow] = await db.select().from(tokens).where(eq(tokens.id, token.id))
			return { quota: row!.quota, used: row!.usedQuota, remain: tokenRow!.remainQuota }
		},
		async charged(call) {
			const before = await suite.balances()
			const result = await call()
			const after = await suite.balances()
			const charge = after.used - before.used
			if (before.quota - after.quota !== charge || before.remain - after.remain !== charge) {
				throw new Error(`the user and the token paid differently: ${JSON.stringify({ before, after })}`)
			}
			return { result, charge }
		},
		async lastConsumeLog() {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=100', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)
		},
		pendingHolds: () => db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending')),
		async close() {
			await harness.close()
			await upstream.stop()
		},
	}
	return suite
}
