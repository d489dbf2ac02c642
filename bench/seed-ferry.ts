/**
 * Seeds a fresh Ferry SQLite database for the bench, directly through the app's own schema and
 * SecretBox (so key digests and ciphertexts are exactly what Ferry computes), before Ferry starts.
 *
 * Layout: 1 000 channels. The benchmarked model is served by 6 channels that all point at the bench
 * upstream: 4 at priority 10 with weights 10/20/30/40 and 2 fallbacks at priority 0, as an operator
 * with a few keys for a popular model would set it up. The other 994 channels serve 5 models each out
 * of 200 other model names, in groups `default` or `default,vip`, on several priorities, and point at
 * a closed loopback port: if Ferry ever routed the benchmarked model to one of them, calls would fail
 * and the bench would show it. 10 000 tokens belong to 100 users (100 each), half of them with a
 * limited quota, so the per-call token and user lookups and the ledger's updates work on realistic
 * tables. Balances are set directly (no credit log rows), so `ferry audit` would flag these users.
 * The same code seeds a Postgres database (`databaseUrl`) for the Postgres targets; given `keys`,
 * every database gets the same tokens, so one list of keys drives every target. The tokens of
 * user 1 are the first 100 keys (the one-wallet workload).
 */
import { openStore, run } from '../src/db'
import { advanceIdSequences } from '../src/db/id-sequences'
import { createSecretBox, randomString } from '../src/lib/crypto'
import { BENCH_MODEL } from './workload'

export interface SeedInput {
	dataDir: string
	cryptoSecret: string
	sessionSecret: string
	upstreamUrl: string
	/** A Postgres database to seed instead of `<dataDir>/ferry.db`. */
	databaseUrl?: string
	/** The token keys, without `sk-` (USER_COUNT × TOKENS_PER_USER of them); generated when absent. */
	keys?: string[]
}

export const USER_COUNT = 100
export const TOKENS_PER_USER = 100

/** Fresh token keys for `seedFerry`, without `sk-`. */
export function tokenKeys(): string[] {
	return Array.from({ length: USER_COUNT * TOKENS_PER_USER }, () => randomString(48))
}

const CHANNEL_COUNT = 1_000
const OTHER_MODELS = Array.from({ length: 200 }, (_, index) => `bench-model-${String(index).padStart(3, '0')}`)
/** Nothing listens on the discard port; a call routed there fails at once. */
const DEAD_UPSTREAM = 'http://127.0.0.1:9'

type ChannelPlan = { id: number; baseUrl: string; models: string[]; groups: string[]; priority: number; weight: number }

function channelPlans(upstreamUrl: string): ChannelPlan[] {
	const plans: ChannelPlan[] = []
	for (const weight of [10, 20, 30, 40]) plans.push({ id: plans.length + 1, baseUrl: upstreamUrl, models: [BENCH_MODEL, 'gpt-4o'], groups: ['default', 'vip'], priority: 10, weight })
	for (let index = 0; index < 2; index++) plans.push({ id: plans.length + 1, baseUrl: upstreamUrl, models: [BENCH_MODEL], groups: ['default', 'vip'], priority: 0, weight: 50 })
	while (plans.length < CHANNEL_COUNT) {
		const id = plans.length + 1
		const models = Array.from({ length: 5 }, (_, offset) => OTHER_MODELS[(id * 7 + offset * 41) % OTHER_MODELS.length]!)
		plans.push({ id, baseUrl: DEAD_UPSTREAM, models, groups: id % 3 === 0 ? ['default', 'vip'] : ['default'], priority: id % 3, weight: 1 + (id % 100) })
	}
	return plans
}

function chunks<Item>(items: Item[], size: number): Item[][] {
	return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size))
}

/** Returns the token keys as clients present them (`sk-…`). */
export async function seedFerry(input: SeedInput): Promise<string[]> {
	const secrets = createSecretBox(input.cryptoSecret, input.sessionSecret)
	const store = await openStore({ databaseUrl: input.databaseUrl ?? '', dataDir: input.dataDir })
	const plans = channelPlans(input.upstreamUrl)
	const keys = input.keys ?? tokenKeys()
	try {
		await store.transaction(function* (tx, { users, tokens, channels, abilities, options }) {
			yield* run(tx.insert(options).values([
				{ key: 'PrivateUpstreamsEnabled', value: 'true' },
				{ key: 'PrivateUpstreamHosts', value: '127.0.0.1' },
			]).onConflictDoNothing())
			const userRows = Array.from({ length: USER_COUNT }, (_, index) => ({
				id: index + 1, username: `bench-${index + 1}`, password: '!', affCode: randomString(8), quota: 2_000_000_000,
			}))
			yield* run(tx.insert(users).values(userRows))
			const tokenRows = keys.map((key, index) => ({
				userId: Math.floor(index / TOKENS_PER_USER) + 1,
				keyHash: secrets.digest(key),
				keyCipher: secrets.encrypt(key),
				name: `bench-${index + 1}`,
				unlimitedQuota: index % 2 === 0,
				remainQuota: index % 2 === 0 ? 0 : 1_000_000_000,
			}))
			for (const batch of chunks(tokenRows, 500)) yield* run(tx.insert(tokens).values(batch))
			const channelRows = plans.map((plan) => ({
				id: plan.id, type: 1, key: secrets.encrypt(`sk-bench-upstream-${plan.id}`), name: `bench-${plan.id}`, baseUrl: plan.baseUrl,
				models: plan.models.join(','), group: plan.groups.join(','), priority: plan.priority, weight: plan.weight, testModel: plan.models[0]!,
			}))
			for (const batch of chunks(channelRows, 200)) yield* run(tx.insert(channels).values(batch))
			const abilityRows = plans.flatMap((plan) => plan.groups.flatMap((group) => plan.models.map((model) => ({
				group, model, channelId: plan.id, enabled: true, priority: plan.priority, weight: plan.weight,
			}))))
			for (const batch of chunks(abilityRows, 500)) yield* run(tx.insert(abilities).values(batch))
		})
		await advanceIdSequences(store, ['users', 'channels'])
	} finally {
		await store.close()
	}
	return keys.map((key) => `sk-${key}`)
}
