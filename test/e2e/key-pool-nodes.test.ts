/**
 * Two Ferry nodes on one Postgres and one Redis agree, within a second, on a key's cooldown and on
 * a session's key: a key that told one node to wait gets no call from the other, and a session
 * pinned (or moved) on one node is served by the same key on the other.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { DEFAULT_ROOT_PASSWORD } from '@shared/user'
import { startCluster, type Cluster, type ClusterNode } from '../helpers/cluster'
import { type FakeKeyPool, startFakeKeyPool } from '../helpers/fake-key-pool'
import { uniquePrefix } from '../helpers/redis'
import { postgresUrl, redisUrl } from '../helpers/services'

const databaseUrl = postgresUrl()
const redis = redisUrl()
const MODEL = 'pool-gpt'
const KEYS = ['sk-nodes-0', 'sk-nodes-1', 'sk-nodes-2']
/** The bound for the nodes to agree. */
const AGREEMENT_MS = 1_000
const RETRY_AFTER_SECONDS = 10
const STEP_TIMEOUT_MS = 30_000

async function call(node: ClusterNode, method: string, path: string, body: unknown, session: { cookie: string; userId: number }) {
	const answer = await fetch(`${node.url}${path}`, { method, headers: { 'content-type': 'application/json', cookie: session.cookie, 'new-api-user': String(session.userId) }, body: JSON.stringify(body) })
	const json = await answer.json() as { success: boolean; message: string; data?: any }
	if (!json.success) throw new Error(`${method} ${path} on ${node.name}: ${json.message}`)
	return json.data
}

describe.skipIf(!databaseUrl || !redis)('two nodes sharing a key pool', () => {
	let cluster: Cluster
	let pool: FakeKeyPool
	let nodeA: ClusterNode
	let nodeB: ClusterNode
	let key: string
	const client = (node: ClusterNode) => new OpenAI({ apiKey: key, baseURL: `${node.url}/v1`, maxRetries: 0 })
	const ask = (node: ClusterNode, session?: string) =>
		client(node).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: `hello ${session ?? ''}` }], ...(session ? { prompt_cache_key: session } : {}) })

	beforeAll(async () => {
		pool = startFakeKeyPool()
		cluster = await startCluster({ nodes: 2, databaseUrl: databaseUrl!, redisUrl: redis!, redisKeyPrefix: uniquePrefix('key-pool-nodes') })
		;[nodeA, nodeB] = cluster.nodes as [ClusterNode, ClusterNode]
		const login = await fetch(`${nodeA.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: DEFAULT_ROOT_PASSWORD }) })
		const root = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, userId: (await login.json() as { data: { id: number } }).data.id }
		await call(nodeA, 'PUT', '/api/option/', { key: 'PrivateUpstreamsEnabled', value: 'true' }, root)
		await call(nodeA, 'PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1 }) }, root)
		await call(nodeA, 'POST', '/api/channel/', { type: 1, name: 'pool', mode: 'multi_key', multi_key_mode: 'polling', key: KEYS.join('\n'), base_url: pool.url, models: MODEL, group: 'default' }, root)
		const [token] = await call(nodeA, 'POST', '/api/token/', { name: 'nodes', unlimited_quota: true }, root)
		key = token.key
		// Both nodes route to the pool before the checks start.
		for (const node of cluster.nodes) {
			for (let attempt = 0; attempt < 50; attempt++) {
				if (await ask(node).then(() => true, () => false)) break
				await Bun.sleep(100)
			}
		}
	}, 90_000)

	afterAll(async () => {
		await cluster?.stop()
		pool?.stop()
	}, 30_000)

	test('a key that told one node to wait gets no call from the other a second later', async () => {
		const limited = KEYS[0]!
		pool.rateLimit(limited, Date.now() + RETRY_AFTER_SECONDS * 1000, RETRY_AFTER_SECONDS)
		// Node A meets the 429 (its keys are handed out in turn) and cools the key.
		let told: number | undefined
		for (let attempt = 0; attempt < 2 * KEYS.length && told === undefined; attempt++) {
			const mark = pool.calls.length
			await ask(nodeA)
			told = pool.calls.slice(mark).find((entry) => entry.key === limited && entry.status === 429)?.at
		}
		expect(told).toBeDefined()
		await Bun.sleep(Math.max(0, told! + AGREEMENT_MS - Date.now()))
		const since = Date.now()
		const answers = await Promise.all(Array.from({ length: 3 * KEYS.length }, () => ask(nodeB).then(() => 'ok', (error: Error) => error.message)))
		expect(answers.every((answer) => answer === 'ok')).toBe(true)
		expect(pool.calls.filter((entry) => entry.key === limited && entry.at >= since)).toEqual([])
	}, STEP_TIMEOUT_MS)

	test('a session pinned on one node is served by the same key on the other, and moved there too once its key must wait', async () => {
		const session = `nodes-session-${crypto.randomUUID()}`
		await ask(nodeA, session)
		const keyOf = () => pool.calls.filter((entry) => entry.session === session && entry.status === 200).at(-1)!.key
		const pinned = keyOf()
		await ask(nodeB, session)
		expect(keyOf()).toBe(pinned)
		pool.rateLimit(pinned, Date.now() + RETRY_AFTER_SECONDS * 1000, RETRY_AFTER_SECONDS)
		await ask(nodeA, session)
		const moved = keyOf()
		expect(moved).not.toBe(pinned)
		// At once: the pin lives in Redis, which both nodes read.
		await ask(nodeB, session)
		expect(keyOf()).toBe(moved)
	}, STEP_TIMEOUT_MS)
})
