/**
 * Key pools with session affinity, through the official SDKs on real HTTP: an OpenAI channel of 4
 * keys and a Claude channel of 3 (both handing out keys in turn) serve Codex-style sessions
 * (`prompt_cache_key`) and Claude Code-style ones (`metadata.user_id`). Each session stays on one
 * key; a key that starts answering 429 with `Retry-After: 4` gets no call for those 4 s, its
 * sessions move once and no call fails; after the cooldown it serves again; calls naming no session
 * spread over every key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { eq } from 'drizzle-orm'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { type FakeKeyPool, type PoolCall, startFakeKeyPool } from '../helpers/fake-key-pool'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const OPENAI_MODEL = 'pool-gpt'
const CLAUDE_MODEL = 'pool-claude'
const OPENAI_KEYS = ['sk-pool-a-0', 'sk-pool-a-1', 'sk-pool-a-2', 'sk-pool-a-3']
const CLAUDE_KEYS = ['sk-ant-pool-b-0', 'sk-ant-pool-b-1', 'sk-ant-pool-b-2']
const SESSIONS_EACH = 12
const RETRY_AFTER_SECONDS = 4

type Session = { id: string; claude: boolean; messages: { role: 'user' | 'assistant'; content: string }[] }

for (const target of databaseTargets()) {
	describe(`key pools with session affinity on ${target.dialect}`, () => {
		let harness: RelayHarness
		let pool: FakeKeyPool
		let openai: OpenAI
		let claude: Anthropic
		const sessions: Session[] = Array.from({ length: 2 * SESSIONS_EACH }, (_, index) => ({ id: `session-${index}-${crypto.randomUUID()}`, claude: index % 2 === 1, messages: [] }))

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			pool = startFakeKeyPool()
			const { options } = harness.ferry.dependencies
			await options.set('ModelRatio', JSON.stringify({ [OPENAI_MODEL]: 1, [CLAUDE_MODEL]: 1 }))
			await harness.createChannel({ type: 1, name: 'openai pool', mode: 'multi_key', multi_key_mode: 'polling', key: OPENAI_KEYS.join('\n'), base_url: pool.url, models: OPENAI_MODEL })
			await harness.createChannel({ type: 14, name: 'claude pool', mode: 'multi_key', multi_key_mode: 'polling', key: CLAUDE_KEYS.join('\n'), base_url: pool.url, models: CLAUDE_MODEL })
			const { key } = await harness.createToken({ unlimited_quota: true })
			openai = harness.client(key)
			claude = new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
		})
		afterAll(async () => {
			pool.stop()
			await harness.close()
		})

		/** One turn of a session through Ferry; throws when the client gets an error. */
		async function turn(session: Session) {
			session.messages.push({ role: 'user', content: `Turn ${session.messages.length / 2 + 1} of ${session.id}` })
			if (session.claude) {
				const message = await claude.messages.create({ model: CLAUDE_MODEL, max_tokens: 64, system: 'You are a coding agent.', messages: session.messages, metadata: { user_id: session.id } })
				session.messages.push({ role: 'assistant', content: (message.content[0] as { text: string }).text })
			} else {
				const completion = await openai.chat.completions.create({ model: OPENAI_MODEL, messages: session.messages, prompt_cache_key: session.id })
				session.messages.push({ role: 'assistant', content: completion.choices[0]!.message.content! })
			}
		}

		const answeredCalls = (session: Session, since = 0) => pool.calls.filter((call) => call.session === session.id && call.status === 200 && call.at >= since)
		const keysOf = (calls: readonly PoolCall[]) => new Set(calls.map((call) => call.key))
		const poolOf = (session: Session) => (session.claude ? CLAUDE_KEYS : OPENAI_KEYS)

		test('each session stays on one key while every key of both pools serves some', async () => {
			for (let round = 0; round < 3; round++) await Promise.all(sessions.map(turn))
			for (const session of sessions) expect(keysOf(answeredCalls(session))).toHaveProperty('size', 1)
			const used = keysOf(pool.calls)
			for (const key of [...OPENAI_KEYS, ...CLAUDE_KEYS]) expect(used.has(key)).toBe(true)
			const { logs } = harness.ferry.store.tables
			const entries = await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))
			const states = entries.map((entry) => (JSON.parse(entry.other) as { affinity?: { state: string } }).affinity?.state)
			expect(states.filter((state) => state === 'new')).toHaveLength(sessions.length)
			expect(states.filter((state) => state === 'hit')).toHaveLength(2 * sessions.length)
		})

		test('a key answering 429 with Retry-After: 4 gets no call for 4 s, its sessions move once without a failed call, and it serves again after', async () => {
			const limited = [OPENAI_KEYS[1]!, CLAUDE_KEYS[1]!]
			const onLimited = sessions.filter((session) => limited.includes([...keysOf(answeredCalls(session))][0]!))
			expect(onLimited.length).toBeGreaterThan(0)
			const started = Date.now()
			for (const key of limited) pool.rateLimit(key, started + RETRY_AFTER_SECONDS * 1000, RETRY_AFTER_SECONDS)
			// One turn at a time, so that the first 429 is answered before the next call is routed.
			for (const session of sessions) await turn(session)
			await Promise.all(sessions.map(turn))
			const movedAt = Date.now()
			for (const key of limited) {
				const during = pool.calls.filter((call) => call.key === key && call.at >= started && call.at < started + RETRY_AFTER_SECONDS * 1000)
				// The call that was told to wait, and none after it.
				expect(during.map((call) => call.status)).toEqual([429])
			}
			const newKeyOf = new Map(onLimited.map((session) => [session.id, keysOf(answeredCalls(session, started))]))
			for (const [, keys] of newKeyOf) {
				expect(keys.size).toBe(1)
				for (const key of limited) expect(keys.has(key)).toBe(false)
			}
			await Bun.sleep(Math.max(0, started + RETRY_AFTER_SECONDS * 1000 - Date.now()))
			// Recovered: calls naming no session reach it again, as every other key. Ferry counts the 4 s from
			// when it met the 429, which a loaded machine reaches a while after `started`: asked until then.
			const everyKey = [...OPENAI_KEYS, ...CLAUDE_KEYS].sort()
			await eventually(async () => {
				const plain = Date.now()
				await Promise.all(Array.from({ length: 2 * OPENAI_KEYS.length }, () => openai.chat.completions.create({ model: OPENAI_MODEL, messages: [{ role: 'user', content: 'no session' }] })))
				await Promise.all(Array.from({ length: 2 * CLAUDE_KEYS.length }, () => claude.messages.create({ model: CLAUDE_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'no session' }] })))
				return [...keysOf(pool.calls.filter((call) => call.at >= plain && call.session === ''))].sort().join() === everyKey.join()
			})
			await Promise.all(sessions.map(turn))
			// Moved once: the later turns stay on the new key, not back on the one that recovered.
			for (const session of onLimited) expect(keysOf(answeredCalls(session, started))).toEqual(newKeyOf.get(session.id)!)
			expect(movedAt).toBeGreaterThan(started)
			const { logs } = harness.ferry.store.tables
			const moved = (await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume)))
				.map((entry) => JSON.parse(entry.other) as { affinity?: { state: string }; admin_info: { attempts: { outcome: unknown }[] } })
				.filter((other) => other.affinity?.state === 'moved')
			expect(moved).toHaveLength(onLimited.length)
			// The session that met the 429 shows both attempts.
			expect(moved.some((other) => other.admin_info.attempts.map((attempt) => attempt.outcome).join(',') === '429,ok')).toBe(true)
		}, 30_000)

		test('calls naming no session spread over every key of the pool', async () => {
			const since = Date.now()
			await Promise.all(Array.from({ length: 3 * OPENAI_KEYS.length }, () => openai.chat.completions.create({ model: OPENAI_MODEL, messages: [{ role: 'user', content: 'spread' }] })))
			const counts = new Map<string, number>()
			for (const call of pool.calls.filter((call) => call.at >= since)) counts.set(call.key, (counts.get(call.key) ?? 0) + 1)
			expect([...counts.keys()].sort()).toEqual([...OPENAI_KEYS].sort())
			for (const key of OPENAI_KEYS) expect(counts.get(key)).toBe(3)
		})
	})
}
