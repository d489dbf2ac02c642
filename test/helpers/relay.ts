/**
 * Ferry listening on loopback with fake upstreams behind it, for tests that drive the relay with
 * the official SDKs over real HTTP.
 */
import { eq } from 'drizzle-orm'
import OpenAI from 'openai'
import type { AppInput } from '@/app'
import { createTestApp, type Caller, type TestApp } from './app'
import type { DatabaseTarget } from './database'
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from './fake-openai'
import type { Certificate } from './tls'

export interface RelayHarness {
	ferry: TestApp
	root: Caller
	baseUrl: string
	upstreams: FakeOpenAI[]
	startUpstream(options?: FakeOpenAIOptions): FakeOpenAI
	createChannel(fields: Record<string, unknown>): Promise<number>
	/** Creates a token as `owner` (root by default) and answers its `sk-` key and id. */
	createToken(fields?: Record<string, unknown>, owner?: Caller): Promise<{ key: string; id: number }>
	client(key: string): OpenAI
	/** A user's wallet and one of its tokens as stored: balance, used quota, a limited token's remaining quota. */
	account(userId: number, tokenId: number): Promise<{ quota: number; used: number; remain: number; tokenUsed: number }>
	close(): Promise<void>
}

/** `tls`: Ferry listens with this certificate (`baseUrl` is https), for clients that speak only TLS. */
export async function startRelayHarness(target: DatabaseTarget, overrides: Partial<Omit<AppInput, 'store'>> = {}, { tls }: { tls?: Certificate } = {}): Promise<RelayHarness> {
	const ferry = await createTestApp(target, overrides)
	const root = await ferry.loginRoot()
	// The fake upstreams listen on loopback: a private address the super admin must allow.
	await ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
	ferry.app.listen({ port: 0, hostname: '127.0.0.1', ...(tls ? { tls } : {}) })
	const baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${ferry.app.server!.port}`
	const upstreams: FakeOpenAI[] = []
	return {
		ferry, root, baseUrl, upstreams,
		startUpstream(options) {
			const upstream = startFakeOpenAI(options)
			upstreams.push(upstream)
			return upstream
		},
		async createChannel(fields) {
			const answer = await ferry.call('POST', '/api/channel/', { as: root, body: { type: 1, name: 'channel', key: 'sk-upstream-key', group: 'default', ...fields } })
			if (!answer.body.success) throw new Error(`creating a channel failed: ${answer.body.message}`)
			return answer.body.data[0].id
		},
		async createToken(fields = {}, owner = root) {
			const answer = await ferry.call('POST', '/api/token/', { as: owner, body: { name: 'test', remain_quota: 0, unlimited_quota: true, ...fields } })
			if (!answer.body.success) throw new Error(`creating a token failed: ${answer.body.message}`)
			return { key: answer.body.data[0].key, id: answer.body.data[0].id }
		},
		client: (key) => new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 }),
		async account(userId, tokenId) {
			const { users, tokens } = ferry.store.tables
			const [user] = await ferry.store.db.select().from(users).where(eq(users.id, userId))
			const [token] = await ferry.store.db.select().from(tokens).where(eq(tokens.id, tokenId))
			return { quota: user!.quota, used: user!.usedQuota, remain: token!.remainQuota, tokenUsed: token!.usedQuota }
		},
		async close() {
			await ferry.app.stop(true)
			await Promise.all(upstreams.map((upstream) => upstream.stop()))
			await ferry.close()
		},
	}
}
