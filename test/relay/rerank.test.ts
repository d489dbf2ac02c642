import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { auditLedger } from '@/billing/audit'
import { databaseTargets } from '../helpers/database'
import { failureOf, RERANK_DOCUMENTS, RERANK_QUERY, rerankWith, startFixtureUpstream, type FixtureUpstream } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const RERANKER = 'jina-reranker-v2-base-multilingual'
const EMBEDDER = 'jina-embeddings-v3'
/** Served only by a Claude channel, which cannot rerank. */
const CHAT_ONLY = 'claude-sonnet-4-5'
/** Served by an OpenAI channel, whose upstream (another gateway, say) offers /v1/rerank. */
const RELAYED_RERANKER = 'bge-reranker-v2-m3'
// Ratio 2: rerank.json reports 38 total tokens, so each rerank costs 76.
const RERANK_COST = 76

for (const target of databaseTargets()) {
	describe(`POST /v1/rerank on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FixtureUpstream
		let client: OpenAI
		let rootKey: string
		let claudeChannel: number
		let userId: number
		let tokenId: number

		beforeAll(async () => {
			upstream = startFixtureUpstream('jina', { answer: 'rerank.json' })
			harness = await startRelayHarness(target)
			const options = harness.ferry.dependencies.options
			await options.set('RetryTimes', '0')
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [RERANKER]: 2, [EMBEDDER]: 1, [CHAT_ONLY]: 1, [RELAYED_RERANKER]: 1 }))
			// The Claude channel comes first by priority for the reranker: routing must pass it by.
			claudeChannel = await harness.createChannel({ type: CHANNEL_TYPE.anthropic, key: 'claude-key', base_url: upstream.url, models: `${RERANKER},${EMBEDDER},${CHAT_ONLY}`, priority: 10 })
			await harness.createChannel({ type: CHANNEL_TYPE.jina, key: 'jina_api_key', base_url: upstream.url, models: `${RERANKER},${EMBEDDER}`, priority: 0 })
			await harness.createChannel({ type: CHANNEL_TYPE.openai, key: 'sk-relay-key', base_url: upstream.url, models: RELAYED_RERANKER })
			const user = await harness.ferry.createUser('reranker')
			userId = user.userId
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: userId, quota: 1_000_000 } })
			const token = await harness.createToken({ name: 'rerank', unlimited_quota: false, remain_quota: 500_000 }, user)
			tokenId = token.id
			client = harness.client(token.key)
			rootKey = (await harness.createToken()).key
		})
		beforeEach(() => {
			upstream.requests.length = 0
			upstream.answerWith('rerank.json')
		})
		afterAll(async () => {
			await harness.close()
			await upstream.stop()
		})

		const balances = async () => {
			const { users, tokens } = harness.ferry.store.tables
			const [user] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
			const [token] = await harness.ferry.store.db.select().from(tokens).where(eq(tokens.id, tokenId))
			return { quota: user!.quota, used: user!.usedQuota, remain: token!.remainQuota }
		}
		const rerank = (model: string, sdk = client) => rerankWith(sdk, { model, query: RERANK_QUERY, documents: RERANK_DOCUMENTS, top_n: 2, return_documents: true })

		test('answers the canonical rerank shape and charges its tokens to the user and the token through the hold', async () => {
			const before = await balances()
			const answer = await rerank(RERANKER)
			expect(answer.results.map((result) => [result.index, result.document?.text])).toEqual([[0, 'Ferry is a self-hosted gateway for LLM APIs.'], [2, 'A ferry carries passengers across a river.']])
			expect(answer.usage).toEqual({ prompt_tokens: 38, total_tokens: 38 })
			expect(await balances()).toEqual({ quota: before.quota - RERANK_COST, used: before.used + RERANK_COST, remain: before.remain - RERANK_COST })
		})

		test('routes a rerank only to channels whose type serves it, past a higher-priority channel that cannot', async () => {
			for (let call = 0; call < 4; call++) await rerank(RERANKER)
			expect(upstream.requests.map((request) => [request.path, request.headers.authorization])).toEqual(Array(4).fill(['/v1/rerank', 'Bearer jina_api_key']))
		})

		test('routes embeddings the same way: only to channels whose type embeds', async () => {
			upstream.answerWith('embeddings.json')
			for (let call = 0; call < 4; call++) await client.embeddings.create({ model: EMBEDDER, input: 'text' })
			expect(upstream.requests.map((request) => request.path)).toEqual(Array(4).fill('/v1/embeddings'))
		})

		test('passes a rerank through an OpenAI channel to its upstream\'s /v1/rerank', async () => {
			await rerank(RELAYED_RERANKER)
			const sent = upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/rerank')
			expect(sent.headers.authorization).toBe('Bearer sk-relay-key')
			expect(sent.body).toEqual({ model: RELAYED_RERANKER, query: RERANK_QUERY, documents: RERANK_DOCUMENTS, top_n: 2, return_documents: true })
		})

		test('a model whose channels cannot rerank is a clear client error in OpenAI\'s shape, and nothing is charged', async () => {
			const before = await balances()
			const failure = await failureOf(rerank(CHAT_ONLY))
			expect(failure).toBeInstanceOf(OpenAI.BadRequestError)
			expect(failure!.code).toBe('endpoint_not_supported')
			expect(failure!.message).toContain(`no channel serving the model ${CHAT_ONLY} supports rerank`)
			expect((failure!.error as { type?: string }).type).toBe('invalid_request_error')
			expect(upstream.requests).toHaveLength(0)
			expect(await balances()).toEqual(before)
		})

		test('a channel pinned by an admin whose type cannot rerank says that its type does not support rerank', async () => {
			const failure = await failureOf(rerank(RERANKER, harness.client(`${rootKey}-${claudeChannel}`)))
			expect(failure?.status).toBe(400)
			expect(failure?.message).toContain('this channel type does not support rerank')
			expect(upstream.requests).toHaveLength(0)
		})

		test('refuses a malformed rerank request with a message naming the field, before anything is sent', async () => {
			const cases: [Record<string, unknown>, string][] = [
				[{ documents: ['one'] }, 'query:'],
				[{ query: RERANK_QUERY, documents: [] }, 'documents:'],
				[{ query: RERANK_QUERY, documents: ['one', 7] }, 'documents.1:'],
				[{ query: RERANK_QUERY, documents: [{ title: 'no text' }] }, 'documents.0:'],
				[{ query: RERANK_QUERY, documents: ['one'], top_n: 0 }, 'top_n:'],
				[{ query: RERANK_QUERY, documents: ['one'], return_documents: 'yes' }, 'return_documents:'],
			]
			for (const [body, field] of cases) {
				const failure = await failureOf(rerankWith(client, { model: RERANKER, ...body }))
				expect(failure?.status).toBe(400)
				expect(failure?.message).toStartWith(`400 ${field}`)
			}
			expect(upstream.requests).toHaveLength(0)
		})

		test('keeps the ledger invariant after all of these calls', async () => {
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
