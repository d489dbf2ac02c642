/**
 * Routing by capability, for every endpoint and every client format (docs/architecture.md#the-relay): a channel serves an
 * endpoint natively (its own format, or OpenAI's) or through a converter; a call whose model only
 * channels lacking the endpoint serve is refused with a 400 in the client's own error shape, before
 * anything is held and before any upstream is called.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../helpers/database'
import { startFixtureUpstream, type FixtureUpstream } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/** Served only by a Jina channel: embeddings and rerank, no chat. */
const EMBEDDER = 'jina-embeddings-v3'
/** Served only by an Anthropic channel: chat, nothing else. */
const CHAT_ONLY = 'claude-sonnet-4-5'
/** Served only by a PaLM channel: chat that cannot stream. */
const UNSTREAMED = 'chat-bison-001'

interface Refusal {
	what: string
	path: string
	body: unknown
	/** Reads the error code or message the client format answers with. */
	error(answer: any): string
}

const openAIError = (answer: any) => answer.error.code
const claudeError = (answer: any) => `${answer.type}:${answer.error.type}:${answer.error.message}`
const geminiError = (answer: any) => `${answer.error.status}:${answer.error.message}`

const REFUSALS: Refusal[] = [
	{ what: 'chat completions on an embedding model', path: '/v1/chat/completions', body: { model: EMBEDDER, messages: [{ role: 'user', content: 'Hi' }] }, error: openAIError },
	{ what: 'streamed chat completions on a model whose channel cannot stream', path: '/v1/chat/completions', body: { model: UNSTREAMED, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, error: openAIError },
	{ what: 'completions on a chat-only model', path: '/v1/completions', body: { model: CHAT_ONLY, prompt: 'Once upon' }, error: openAIError },
	{ what: 'embeddings on a chat-only model', path: '/v1/embeddings', body: { model: CHAT_ONLY, input: 'text' }, error: openAIError },
	{ what: 'rerank on a chat-only model', path: '/v1/rerank', body: { model: CHAT_ONLY, query: 'q', documents: ['a', 'b'] }, error: openAIError },
	{ what: 'Claude messages on an embedding model', path: '/v1/messages', body: { model: EMBEDDER, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }, error: claudeError },
	{ what: 'streamed Claude messages on a model whose channel cannot stream', path: '/v1/messages', body: { model: UNSTREAMED, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, error: claudeError },
	{ what: 'Gemini generateContent on an embedding model', path: `/v1beta/models/${EMBEDDER}:generateContent`, body: { contents: [{ parts: [{ text: 'Hi' }] }] }, error: geminiError },
	{ what: 'Gemini streamGenerateContent on a model whose channel cannot stream', path: `/v1beta/models/${UNSTREAMED}:streamGenerateContent?alt=sse`, body: { contents: [{ parts: [{ text: 'Hi' }] }] }, error: geminiError },
	{ what: 'Gemini embedContent on a chat-only model', path: `/v1beta/models/${CHAT_ONLY}:embedContent`, body: { content: { parts: [{ text: 'Hi' }] } }, error: geminiError },
	{ what: 'Gemini batchEmbedContents on a chat-only model', path: `/v1beta/models/${CHAT_ONLY}:batchEmbedContents`, body: { requests: [{ content: { parts: [{ text: 'Hi' }] } }] }, error: geminiError },
]

for (const target of databaseTargets()) {
	describe(`a call no enabled channel can serve, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FixtureUpstream
		let key: string

		beforeAll(async () => {
			upstream = startFixtureUpstream('jina', { answer: 'rerank.json' })
			harness = await startRelayHarness(target)
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [EMBEDDER]: 1, [CHAT_ONLY]: 1, [UNSTREAMED]: 1 }))
			await harness.createChannel({ type: CHANNEL_TYPE.jina, key: 'jina_api_key', base_url: upstream.url, models: EMBEDDER })
			await harness.createChannel({ type: CHANNEL_TYPE.anthropic, key: 'claude-key', base_url: upstream.url, models: CHAT_ONLY })
			await harness.createChannel({ type: CHANNEL_TYPE.palm, key: 'palm-key', base_url: upstream.url, models: UNSTREAMED })
			// A channel that serves everything but is disabled does not count.
			const disabled = await harness.createChannel({ type: CHANNEL_TYPE.openai, key: 'sk-disabled', base_url: upstream.url, models: `${EMBEDDER},${CHAT_ONLY},${UNSTREAMED}` })
			await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: disabled, status: 2 } })
			key = (await harness.createToken()).key
		})
		afterAll(async () => {
			await harness.close()
			await upstream.stop()
		})

		const holdCount = async () => (await harness.ferry.store.db.select().from(harness.ferry.store.tables.quotaHolds)).length

		for (const refusal of REFUSALS) {
			test(`${refusal.what} is refused with a 400 in the client's format, nothing held and nothing sent`, async () => {
				const holds = await holdCount()
				upstream.requests.length = 0
				const answer = await fetch(`${harness.baseUrl}${refusal.path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key },
					body: JSON.stringify(refusal.body),
				})
				expect(answer.status).toBe(400)
				const error = refusal.error(await answer.json())
				expect(error).toMatch(refusal.error === openAIError ? /^endpoint_not_supported$/ : /no channel serving the model .+ supports/)
				expect(await holdCount()).toBe(holds)
				expect(upstream.requests).toEqual([])
			})
		}
	})
}
