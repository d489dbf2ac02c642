/**
 * `bun run bench:affinity`: what session affinity is worth on a key pool (not a test; nothing is
 * asserted). A fake provider with a prompt cache per key (test/helpers/fake-key-pool.ts) sits behind Ferry as
 * an OpenAI channel of 4 keys and a Claude channel of 3; agent sessions of growing turns go through
 * Ferry, half Codex-style (`prompt_cache_key`), half Claude Code-style (`metadata.user_id`). For
 * affinity on and off, and for each again with one key of each channel answering 429 with
 * `Retry-After` from the third turn, it prints the share of later turns whose prefix the provider
 * had cached, what Ferry billed (cached input at `CacheRatio`), the calls that failed, and the calls
 * a rate-limited key received while it had asked to wait (after its first 429, allowing 100 ms for
 * the calls of the same turn already on their way then).
 *
 *   bun run bench:affinity [--sessions 24] [--turns 6]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startFakeKeyPool } from '../test/helpers/fake-key-pool'
import { freePort, stopProcess, waitForStatus } from './processes'

const { values: flags } = parseArgs({ options: { sessions: { type: 'string', default: '24' }, turns: { type: 'string', default: '6' } } })
const SESSIONS = Number(flags.sessions)
const TURNS = Number(flags.turns)
const RETRY_AFTER_SECONDS = 4
/** The pool's models, and the same served by batch channels (one channel per key), the layout before key pools. */
const MODELS = { pool: { openai: 'bench-agent-gpt', claude: 'bench-agent-claude' }, batch: { openai: 'bench-batch-gpt', claude: 'bench-batch-claude' } } as const
type Layout = keyof typeof MODELS
const OPENAI_KEYS = ['sk-pool-openai-1', 'sk-pool-openai-2', 'sk-pool-openai-3', 'sk-pool-openai-4']
const CLAUDE_KEYS = ['sk-ant-pool-1', 'sk-ant-pool-2', 'sk-ant-pool-3']
/** A coding agent's long, fixed instructions: the prefix every turn resends. */
const SYSTEM_PROMPT = 'You are a careful coding agent working in a large repository. '.repeat(60)
const CACHE_RATIO = 0.1
/** Calls already on their way to a key when its first 429 went out are not counted against it. */
const IN_FLIGHT_ALLOWANCE_MS = 100

const upstream = startFakeKeyPool()
const dataDir = mkdtempSync(join(tmpdir(), 'ferry-bench-affinity-'))
const port = freePort()
const base = `http://127.0.0.1:${port}`
const ferry = Bun.spawn(['bun', 'src/main.ts'], {
	cwd: resolve(import.meta.dir, '..'),
	env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' },
	stdout: 'ignore',
	stderr: 'inherit',
})

type Outcome = { ok: boolean; cached: number; status: number }

async function main() {
	await waitForStatus(base, ferry)
	const login = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: '123456' }) })
	const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
	const rootId = (await login.json() as { data: { id: number } }).data.id
	const admin = async (method: string, path: string, body?: unknown) => {
		const answer = await fetch(`${base}${path}`, { method, headers: { cookie, 'new-api-user': String(rootId), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
		const json = await answer.json() as { success: boolean; message: string; data?: any }
		if (!json.success) throw new Error(`${method} ${path}: ${json.message}`)
		return json.data
	}
	const option = (key: string, value: unknown) => admin('PUT', '/api/option/', { key, value: typeof value === 'string' ? value : JSON.stringify(value) })
	await option('PrivateUpstreamsEnabled', 'true')
	const models = [MODELS.pool, MODELS.batch]
	await option('ModelRatio', Object.fromEntries(models.flatMap((pair) => [[pair.openai, 1.25], [pair.claude, 1.5]])))
	await option('CacheRatio', Object.fromEntries(models.flatMap((pair) => [[pair.openai, CACHE_RATIO], [pair.claude, CACHE_RATIO]])))
	await option('CompletionRatio', Object.fromEntries(models.flatMap((pair) => [[pair.openai, 8], [pair.claude, 5]])))
	for (const layout of ['pool', 'batch'] as const) {
		const mode = layout === 'pool' ? 'multi_key' : 'batch'
		await admin('POST', '/api/channel/', { type: 1, name: `openai ${layout}`, mode, key: OPENAI_KEYS.join('\n'), base_url: upstream.url, models: MODELS[layout].openai, group: 'default' })
		await admin('POST', '/api/channel/', { type: 14, name: `claude ${layout}`, mode, key: CLAUDE_KEYS.join('\n'), base_url: upstream.url, models: MODELS[layout].claude, group: 'default' })
	}
	await admin('PUT', '/api/user/', { id: rootId, quota: 1_000_000_000_000 })
	const [token] = await admin('POST', '/api/token/', { name: 'agents', unlimited_quota: true })
	const key = token.key as string

	async function openAITurn(layout: Layout, session: string, messages: { role: string; content: string }[]): Promise<Outcome> {
		const answer = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODELS[layout].openai, messages, prompt_cache_key: session }) })
		if (!answer.ok) return { ok: false, cached: 0, status: answer.status }
		const body = await answer.json() as { choices: { message: { content: string } }[]; usage: { prompt_tokens_details?: { cached_tokens?: number } } }
		messages.push({ role: 'assistant', content: body.choices[0]!.message.content })
		return { ok: true, cached: body.usage.prompt_tokens_details?.cached_tokens ?? 0, status: 200 }
	}

	async function claudeTurn(layout: Layout, session: string, messages: { role: string; content: string }[]): Promise<Outcome> {
		const answer = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: MODELS[layout].claude, max_tokens: 256, system: SYSTEM_PROMPT, messages, metadata: { user_id: `user_bench_account_bench_session_${session}` } }) })
		if (!answer.ok) return { ok: false, cached: 0, status: answer.status }
		const body = await answer.json() as { content: { text: string }[]; usage: { cache_read_input_tokens?: number } }
		messages.push({ role: 'assistant', content: body.content[0]!.text })
		return { ok: true, cached: body.usage.cache_read_input_tokens ?? 0, status: 200 }
	}

	async function scenario(name: string, layout: Layout, affinity: boolean, rateLimitKeys: boolean) {
		await option('AffinityEnabled', String(affinity))
		const before = (await admin('GET', '/api/user/self')).used_quota as number
		const outcomes: { turn: number; outcome: Outcome }[] = []
		const callsBefore = upstream.calls.length
		let limited = false
		const sessions = Array.from({ length: SESSIONS }, (_, index) => ({ id: `${name}-${index}-${crypto.randomUUID()}`, claude: index % 2 === 1 }))
		for (let turn = 1; turn <= TURNS; turn++) {
			if (rateLimitKeys && turn === 3 && !limited) {
				limited = true
				const until = Date.now() + RETRY_AFTER_SECONDS * 1000
				upstream.rateLimit(OPENAI_KEYS[1]!, until, RETRY_AFTER_SECONDS)
				upstream.rateLimit(CLAUDE_KEYS[1]!, until, RETRY_AFTER_SECONDS)
			}
			await Promise.all(sessions.map(async (session) => {
				const conversation = ((session as { messages?: { role: string; content: string }[] }).messages ??= session.claude ? [] : [{ role: 'system', content: SYSTEM_PROMPT }])
				conversation.push({ role: 'user', content: `Turn ${turn} of ${session.id}: change the next file and run the tests.` })
				const outcome = await (session.claude ? claudeTurn : openAITurn)(layout, session.id, conversation)
				if (!outcome.ok) conversation.pop()
				outcomes.push({ turn, outcome })
			}))
		}
		const later = outcomes.filter(({ turn, outcome }) => turn > 1 && outcome.ok)
		const hits = later.filter(({ outcome }) => outcome.cached > 0).length
		const billed = (await admin('GET', '/api/user/self')).used_quota as number - before
		const failed = outcomes.filter(({ outcome }) => !outcome.ok).length
		// Calls a limited key got after its first 429 had told it to wait (allowing 100 ms for calls already on their way then).
		const limitedKeys = [OPENAI_KEYS[1]!, CLAUDE_KEYS[1]!]
		const scenarioCalls = upstream.calls.slice(callsBefore)
		const duringRetryAfter = limitedKeys.reduce((sum, limitedKey) => {
			const told = scenarioCalls.find((call) => call.key === limitedKey && call.status === 429)
			if (!told) return sum
			return sum + scenarioCalls.filter((call) => call.key === limitedKey && call.at > told.at + IN_FLIGHT_ALLOWANCE_MS && call.at < told.at + RETRY_AFTER_SECONDS * 1000).length
		}, 0)
		return { name, hitRate: later.length ? hits / later.length : 0, billed, failed, duringRetryAfter, calls: outcomes.length }
	}

	const rows = []
	const scenarios = [
		['key pools, affinity on', 'pool', true, false],
		['key pools, affinity off', 'pool', false, false],
		['batch channels (one per key), affinity on', 'batch', true, false],
		['batch channels (one per key), affinity off', 'batch', false, false],
		['key pools, affinity on, one key 429', 'pool', true, true],
		['key pools, affinity off, one key 429', 'pool', false, true],
		['batch channels, affinity on, one key 429', 'batch', true, true],
		['batch channels, affinity off, one key 429', 'batch', false, true],
	] as const
	for (const [name, layout, affinity, limited] of scenarios) {
		rows.push({ ...await scenario(name.replaceAll(/\W+/g, '-'), layout, affinity, limited), name })
		// Let the rate-limited keys' windows pass before the next scenario.
		if (limited) await Bun.sleep(RETRY_AFTER_SECONDS * 1000 + 500)
	}
	const cost = (billed: number) => `$${(billed / 500_000).toFixed(4)}`
	console.log(`\n${SESSIONS} sessions × ${TURNS} turns (half Codex-style, half Claude Code-style) through ${OPENAI_KEYS.length} + ${CLAUDE_KEYS.length} keys; CacheRatio ${CACHE_RATIO}\n`)
	console.log('| scenario | later turns cached | billed | failed calls | calls to a key after its 429, within its Retry-After |')
	console.log('|---|---|---|---|---|')
	for (const row of rows) console.log(`| ${row.name} | ${(row.hitRate * 100).toFixed(1)}% | ${cost(row.billed)} | ${row.failed} of ${row.calls} | ${row.duringRetryAfter} |`)
	console.log(`\ncalls per key: ${[...upstream.callsByKey].map(([name, count]) => `${name} ${count}`).join(', ')}`)
}

try {
	await main()
} finally {
	await stopProcess(ferry)
	upstream.stop()
	rmSync(dataDir, { recursive: true, force: true })
}
