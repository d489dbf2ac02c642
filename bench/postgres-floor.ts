/**
 * `BENCH_DATABASE_URL=… bun bench/postgres-floor.ts`: the least CPU the Postgres server can spend on
 * one billed call in Ferry's schema, whatever Ferry's code does around it. Each statement writes
 * `CALLS_PER_STATEMENT` calls in one transaction, as the wallet batch does at saturation, with
 * `CONCURRENCY` statements in flight:
 * - *log row only*: the call's `logs` row (its three indexes) and one guarded update of each wallet
 *   in the statement — what a call costs when nothing else about it is written;
 * - *plus a settled hold row*: also the call's own `quota_holds` row, as a call charged from an
 *   allowance records it (its request id is what makes a charge count once);
 * - *plus a pending hold*: a hold inserted by one statement and settled by another, as a call held the
 *   guarded way (a limited token, a wallet too small to slice) pays.
 * Prints the `postgres` processes' CPU per call. It is the floor behind docs/performance.md's
 * reasoning on the Postgres node ÷ SQLite node ratio; run it on a quiet machine.
 */
import { openStore, type Store } from '../src/db'
import { postgresCpuSeconds } from './processes'

const CALLS_PER_STATEMENT = 8
const CONCURRENCY = 4
const STATEMENTS = 4_000
const WARM_UP_STATEMENTS = 400
const USER_COUNT = 100

const url = process.env.BENCH_DATABASE_URL
if (!url) throw new Error('set BENCH_DATABASE_URL to a Postgres database this may write a schema into')

const INPUT = `input AS (
	SELECT * FROM json_to_recordset(CAST($1 AS text)::json) AS i(request_id text, user_id bigint, token_id bigint, channel_id bigint,
		quota bigint, username text, token_name text, model_name text, "group" text, channel_name text, ip text, other text)
)`
const WALLETS = `wallets AS (
	UPDATE users SET quota = users.quota - counted.quota, used_quota = users.used_quota + counted.quota, request_count = users.request_count + counted.calls
	FROM (SELECT user_id, SUM(quota) AS quota, COUNT(*) AS calls FROM input GROUP BY user_id) counted
	WHERE users.id = counted.user_id AND users.quota >= counted.quota
)`
const LOGGED = `INSERT INTO logs (user_id, type, quota, token_id, channel_id, request_id, username, token_name, model_name, "group",
	prompt_tokens, completion_tokens, channel_name, ip, other)
SELECT user_id, 2, quota, token_id, channel_id, request_id, username, token_name, model_name, "group", 200, 20, channel_name, ip, other FROM input`
const SETTLED_HOLDS = `recorded AS (
	INSERT INTO quota_holds (request_id, user_id, token_id, amount, charged, state, node, deadline, closed_at)
	SELECT request_id, user_id, token_id, quota, quota, 'settled', 'floor', 0, 0 FROM input
)`
const PENDING_HOLDS = `INSERT INTO quota_holds (request_id, user_id, token_id, amount, node, deadline)
SELECT request_id, user_id, token_id, quota, 'floor', 0 FROM input`
const CLOSED_HOLDS = `closed AS (
	UPDATE quota_holds SET state = 'settled', charged = input.quota, closed_at = 1
	FROM input WHERE quota_holds.request_id = input.request_id AND quota_holds.state = 'pending'
)`

const workloads: { name: string; statements: string[] }[] = [
	{ name: 'log row only', statements: [`WITH ${INPUT}, ${WALLETS} ${LOGGED}`] },
	{ name: 'plus a settled hold row', statements: [`WITH ${INPUT}, ${WALLETS}, ${SETTLED_HOLDS} ${LOGGED}`] },
	{ name: 'plus a pending hold', statements: [`WITH ${INPUT} ${PENDING_HOLDS}`, `WITH ${INPUT}, ${WALLETS}, ${CLOSED_HOLDS} ${LOGGED}`] },
]

let sequence = 0
function batch(): string {
	return JSON.stringify(Array.from({ length: CALLS_PER_STATEMENT }, () => {
		const call = sequence++
		return {
			request_id: `floor-${call}-${Math.random().toString(36).slice(2, 10)}`, user_id: 1 + (call % USER_COUNT), token_id: call % 10_000,
			channel_id: call % 1_000, quota: 1_500, username: `bench-${1 + (call % USER_COUNT)}`, token_name: `bench-${call % 10_000}`,
			model_name: 'gpt-4o-mini', group: 'default', channel_name: `bench-${call % 1_000}`, ip: '127.0.0.1',
			other: '{"model_ratio":1,"completion_ratio":1,"group_ratio":1,"frt":-1000}',
		}
	}))
}

async function run(store: Store, statements: string[], count: number): Promise<void> {
	let next = 0
	await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
		while (next++ < count) {
			const input = batch()
			for (const statement of statements) await store.read(statement, [input])
		}
	}))
}

const schema = `bench_floor_${Date.now().toString(36)}`
const store = await openStore({ databaseUrl: url, dataDir: '', pgSchema: schema })
try {
	await store.read(`INSERT INTO users (id, username, password, aff_code, quota)
		SELECT id, 'bench-' || id, '!', 'floor' || id, 1000000000000000 FROM generate_series(1, ${USER_COUNT}) AS id`)
	console.log(`Postgres CPU a call, ${CALLS_PER_STATEMENT} calls a statement, ${CONCURRENCY} statements in flight:`)
	for (const workload of workloads) {
		await run(store, workload.statements, WARM_UP_STATEMENTS)
		const cpuBefore = postgresCpuSeconds()
		const started = performance.now()
		await run(store, workload.statements, STATEMENTS)
		const seconds = (performance.now() - started) / 1000
		const calls = STATEMENTS * CALLS_PER_STATEMENT
		const microseconds = ((postgresCpuSeconds() - cpuBefore) * 1e6) / calls
		console.log(`- ${workload.name}: ${microseconds.toFixed(1)} µs (${calls} calls in ${seconds.toFixed(1)} s)`)
	}
} finally {
	await store.read(`DROP SCHEMA "${schema}" CASCADE`)
	await store.close()
}
