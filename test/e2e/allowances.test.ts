/**
 * Allowances across nodes (docs/architecture.md#allowances): two real Ferry processes on one
 * Postgres and Redis serve one busy wallet each from a slice of it; the slices go back within a
 * second of the last call; a node killed with its allowance outstanding has it returned by the
 * other once its lease ran out, exactly once; the audit is exact throughout.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { DEFAULT_ROOT_PASSWORD } from '@shared/user'
import { ALLOWANCE } from '@/billing/allowances'
import { startCluster, timeUntil, type Cluster, type ClusterNode } from '../helpers/cluster'
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai'
import { uniquePrefix } from '../helpers/redis'
import { postgresUrl, redisUrl } from '../helpers/services'

const databaseUrl = postgresUrl()
const redis = redisUrl()
const BALANCE = 500_000_000

type Session = { cookie: string; userId: number }

async function call(node: ClusterNode, method: string, path: string, body: unknown, as?: Session) {
	const headers: Record<string, string> = { 'content-type': 'application/json' }
	if (as) Object.assign(headers, { cookie: as.cookie, 'new-api-user': String(as.userId) })
	const response = await fetch(`${node.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
	const answer = await response.json() as { success: boolean; message: string; data: any }
	if (!answer.success) throw new Error(`${method} ${path} on ${node.name} failed: ${answer.message}`)
	return { answer, cookie: response.headers.get('set-cookie')?.split(';')[0] ?? '' }
}

describe.skipIf(!databaseUrl || !redis)('one busy wallet on two Ferry nodes with allowances', () => {
	let cluster: Cluster
	let upstream: FakeOpenAI
	let root: Session

	beforeAll(async () => {
		upstream = startFakeOpenAI({ name: 'allowance-upstream', chunkDelayMs: 100 })
		cluster = await startCluster({ nodes: 2, databaseUrl: databaseUrl!, redisUrl: redis!, redisKeyPrefix: uniquePrefix('allowances') })
		const [first] = cluster.nodes as [ClusterNode]
		const login = await call(first, 'POST', '/api/user/login', { username: 'root', password: DEFAULT_ROOT_PASSWORD })
		root = { cookie: login.cookie, userId: login.answer.data.id }
		await call(first, 'PUT', '/api/option/', { key: 'PrivateUpstreamsEnabled', value: 'true' }, root)
		await call(first, 'POST', '/api/channel/', { type: 1, name: 'upstream', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' }, root)
	}, 90_000)

	afterAll(async () => {
		await cluster?.stop()
		await upstream?.stop()
	}, 30_000)

	/** A user with a large balance and a token, ready on every node. */
	async function team(name: string) {
		const [first] = cluster.nodes as [ClusterNode]
		const created = (await call(first, 'POST', '/api/user/', { username: name, password: `${name}-password`, display_name: name }, root)).answer.data
		await call(first, 'PUT', '/api/user/', { id: created.id, username: name, display_name: name, quota: BALANCE }, root)
		const login = await call(first, 'POST', '/api/user/login', { username: name, password: `${name}-password` })
		const owner = { cookie: login.cookie, userId: login.answer.data.id }
		const key = (await call(first, 'POST', '/api/token/', { name: `${name}-token`, remain_quota: 0, unlimited_quota: true }, owner)).answer.data[0].key as string
		for (const node of cluster.nodes) {
			const ready = await timeUntil(async () => (await fetch(`${node.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).ok, 10_000)
			expect(ready).toBeDefined()
		}
		return { userId: owner.userId as number, key }
	}

	const stream = (node: ClusterNode, key: string, content: string) => new OpenAI({ apiKey: key, baseURL: `${node.url}/v1`, maxRetries: 0 }).chat.completions.create({
		model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content }],
	}).then(async (chunks) => {
		let text = ''
		for await (const chunk of chunks) text += chunk.choices[0]?.delta?.content ?? ''
		return text
	})

	const wallet = async (userId: number) => {
		const [row] = await cluster.sql<{ quota: string; used: string }[]>`SELECT quota::text AS quota, used_quota::text AS used FROM users WHERE id = ${userId}`
		return { quota: Number(row!.quota), used: Number(row!.used) }
	}
	const allowances = (userId: number, state = 'pending') => cluster.sql<{ node: string; amount: string; reason: string }[]>`
		SELECT node, amount::text AS amount, reason FROM quota_holds WHERE user_id = ${userId} AND request_id LIKE 'allowance/%' AND state = ${state}`

	test('each node serves the busy wallet from its own slice, and within a second of the last call both slices are back and the audit is exact', async () => {
		const { userId, key } = await team('agents')
		const calls = Array.from({ length: 96 }, (_, index) => stream(cluster.nodes[index % 2]!, key, `agent ${index}`))
		const sliced = await timeUntil(async () => new Set((await allowances(userId)).map((row) => row.node.split('/')[0])).size === 2, 10_000)
		expect(sliced).toBeDefined()
		expect((await wallet(userId)).quota).toBeGreaterThan(0)
		for (const text of await Promise.all(calls)) expect(text).toBe('Hello from allowance-upstream')
		const returned = await timeUntil(async () => (await allowances(userId)).length === 0, 5_000)
		expect(returned).toBeDefined()
		expect(returned!).toBeLessThan(ALLOWANCE.idleReturnMs + 4 * ALLOWANCE.sweepEveryMs + 500)
		const { quota, used } = await wallet(userId)
		expect(used).toBeGreaterThan(0)
		expect(quota).toBe(BALANCE - used)
		const audit = await cluster.audit()
		expect(audit.output).toContain('ledger audit: no differences')
	}, 60_000)

	test('a node killed mid-stream with its allowance outstanding: the other serves on and returns it once the lease ran out, exactly once, and nothing is lost', async () => {
		const { userId, key } = await team('crew')
		const [victim, survivor] = cluster.nodes as [ClusterNode, ClusterNode]
		const onVictim = Array.from({ length: 40 }, (_, index) => stream(victim, key, `slow ${index} [fake-fault:slow-chunks=400]`).then(() => 'finished', () => 'broken'))
		const onSurvivor = Array.from({ length: 40 }, (_, index) => stream(survivor, key, `slow ${index} [fake-fault:slow-chunks=100]`))
		const held = await timeUntil(async () => (await allowances(userId)).some((row) => row.node.startsWith(`${victim.name}/`)), 10_000)
		expect(held).toBeDefined()
		await victim.kill()
		expect((await Promise.all(onVictim)).every((outcome) => outcome === 'broken')).toBe(true)
		for (const text of await Promise.all(onSurvivor)) expect(text).toBe('Hello from allowance-upstream')
		// The survivor keeps serving the same wallet while the dead node's slice waits for its lease.
		expect(await stream(survivor, key, 'still there?')).toBe('Hello from allowance-upstream')

		// A survivor's reconciler returns the slice once the lease has run out (10 s, looked at every 2 s).
		const reclaimed = await timeUntil(async () => !(await allowances(userId)).some((row) => row.node.startsWith(`${victim.name}/`)), (ALLOWANCE.leaseSeconds + 8) * 1000)
		expect(reclaimed).toBeDefined()
		const voided = (await allowances(userId, 'voided')).filter((row) => row.node.startsWith(`${victim.name}/`))
		expect(voided.length).toBeGreaterThanOrEqual(1)
		expect(voided.every((row) => row.reason === 'interrupted')).toBe(true)
		// The victim's calls held in rows of their own come back when it restarts; then nothing is pending.
		await victim.restart()
		expect(await timeUntil(async () => (await cluster.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM quota_holds WHERE user_id = ${userId} AND state = 'pending'`)[0]!.count === 0, 15_000)).toBeDefined()
		const { quota, used } = await wallet(userId)
		expect(quota).toBe(BALANCE - used)
		const audit = await cluster.audit()
		expect(audit.output).toContain('ledger audit: no differences')
		expect(audit.exitCode).toBe(0)
	}, 90_000)
})
