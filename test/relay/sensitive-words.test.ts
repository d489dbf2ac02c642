/**
 * The sensitive-word settings at work in the relay (docs/specification/errors.md#sensitive-words, issue 12 item 10): a prompt with a
 * listed word is refused in the client's own error shape before anything is held or sent upstream,
 * in every client format; with answer checking on, a whole answer is refused or masked and a stream
 * is cut before the word (or masked), billed through the ledger with the reason in the log; with the
 * settings off nothing is checked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import type OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { isAllowance } from '@/billing/allowance-statements'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { failureOf, readStream, rerankWith } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const CHAT_MODEL = 'gpt-4o-mini'
const COMPLETION_MODEL = 'gpt-3.5-turbo-instruct'
const EMBEDDING_MODEL = 'text-embedding-3-small'
const RERANK_MODEL = 'bge-reranker-v2-m3'
const FUNDS = 1_000_000
const WORDS = ['forbidden secret', '违禁词', 'Contraband']
/** The fake upstream's reply: one chunk per word, so the listed phrase spans two chunks. */
const REPLY = 'Hello there, forbidden secret and more'
const BEFORE_THE_WORD = 'Hello there, '
const UPSTREAM_COMPLETION_TOKENS = 20
/** The tokens' alternatives when logprobs are asked for: one spells a listed word whole, and one another with the chosen text after it. */
const ALTERNATIVES = { ' more': [' contraband'], ' there,': [' there, forbidden'], Hello: ['Contra'] }
/** What a client receiving any of these texts must never see. */
const LISTED = /forbidden secret|contraband|违禁词/i

for (const target of databaseTargets()) {
	describe(`sensitive words in the relay on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let alice: Caller
		let key: string

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream({ reply: REPLY, promptTokens: 100, completionTokens: UPSTREAM_COMPLETION_TOKENS, logprobAlternatives: ALTERNATIVES })
			const { options } = harness.ferry.dependencies
			await options.set('ModelRatio', JSON.stringify({ [CHAT_MODEL]: 1, [COMPLETION_MODEL]: 1, [EMBEDDING_MODEL]: 1, [RERANK_MODEL]: 1 }))
			await harness.createChannel({ base_url: upstream.url, models: [CHAT_MODEL, COMPLETION_MODEL, EMBEDDING_MODEL, RERANK_MODEL].join(',') })
			alice = await harness.ferry.createUser('alice')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: FUNDS } })
			key = (await harness.createToken({ name: 'alice-token' }, alice)).key
		})
		afterAll(() => harness.close())

		const options = () => harness.ferry.dependencies.options
		async function configure(settings: Record<string, string | boolean>) {
			for (const [name, value] of Object.entries(settings)) await options().set(name, String(value))
		}
		beforeEach(async () => {
			upstream.requests.length = 0
			await configure({ CheckSensitiveEnabled: true, CheckSensitiveOnPromptEnabled: true, CheckSensitiveOnCompletionEnabled: false, StopOnSensitiveEnabled: true, SensitiveWords: WORDS.join('\n') })
		})

		const openai = () => harness.client(key)
		const anthropic = () => new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
		const gemini = () => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.baseUrl } })

		async function ledgerState() {
			const { users, quotaHolds } = harness.ferry.store.tables
			const [user] = await harness.ferry.store.db.select().from(users).where(eq(users.id, alice.userId))
			const holds = await harness.ferry.store.db.select().from(quotaHolds)
			// Calls of a busy wallet may be held from the node's slice of it (docs/architecture.md#allowances): that slice is still alice's.
			const allowances = holds.filter((hold) => isAllowance(hold.requestId))
			const inAllowances = allowances.filter((hold) => hold.state === 'pending').reduce((sum, hold) => sum + hold.amount, 0)
			return { quota: user!.quota + inAllowances, holds: holds.length - allowances.length }
		}
		async function consumeLogs() {
			const { logs } = harness.ferry.store.tables
			const rows = await harness.ferry.store.db.select().from(logs).where(eq(logs.userId, alice.userId))
			return rows.filter((row) => row.type === LOG_TYPE.consume).map((row) => ({ ...row, other: JSON.parse(row.other || '{}') as Record<string, any> }))
		}
		/** The one consume log written by the call `run` makes. */
		async function loggedCall<Result>(run: () => Promise<Result>) {
			const before = (await consumeLogs()).length
			const result = await run()
			const logs = await eventually(async () => {
				const found = await consumeLogs()
				return found.length > before && found
			})
			return { result, log: logs.at(-1)! }
		}

		/** Runs a call that must be refused, and checks nothing was held, charged or sent upstream. */
		async function refusedUntouched(call: () => Promise<Response>) {
			const before = await ledgerState()
			const response = await call()
			expect(upstream.requests).toHaveLength(0)
			expect(await ledgerState()).toEqual(before)
			return { status: response.status, body: await response.json() as Record<string, any> }
		}
		const post = (path: string, body: unknown, headers: Record<string, string>) => fetch(`${harness.baseUrl}${path}`, {
			method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
		})
		const bearer = () => ({ authorization: `Bearer ${key}` })

		describe('a prompt with a listed word', () => {
			test('is refused on chat completions in OpenAI\'s error shape, naming the word, whatever its case', async () => {
				const before = await ledgerState()
				const failure = await failureOf(openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'Tell me the FORBIDDEN Secret' }] }] }))
				expect(failure?.status).toBe(400)
				expect(failure?.error).toEqual({ message: 'sensitive words detected: forbidden secret', type: 'invalid_request_error', param: null, code: 'sensitive_words_detected' })
				expect(upstream.requests).toHaveLength(0)
				expect(await ledgerState()).toEqual(before)
			})

			test('is refused on completions, embeddings and rerank, Chinese words alike', async () => {
				const before = await ledgerState()
				const completion = await failureOf(openai().completions.create({ model: COMPLETION_MODEL, prompt: ['fine', '这是违禁词吗'] }))
				const embedding = await failureOf(openai().embeddings.create({ model: EMBEDDING_MODEL, input: 'carrying contraband' }))
				const rerank = await failureOf(rerankWith(openai(), { model: RERANK_MODEL, query: 'Which?', documents: ['fine', { text: 'a forbidden secret' }] }))
				expect([completion, embedding, rerank].map((error) => [error?.status, error?.code, error?.message])).toEqual([
					[400, 'sensitive_words_detected', '400 sensitive words detected: 违禁词'],
					[400, 'sensitive_words_detected', '400 sensitive words detected: Contraband'],
					[400, 'sensitive_words_detected', '400 sensitive words detected: forbidden secret'],
				])
				expect(upstream.requests).toHaveLength(0)
				expect(await ledgerState()).toEqual(before)
			})

			test('is refused on Claude\'s /v1/messages in Claude\'s error shape, in the system prompt too', async () => {
				const before = await ledgerState()
				const failure = await failureOf(anthropic().messages.create({ model: CHAT_MODEL, max_tokens: 100, system: 'You know the forbidden secret.', messages: [{ role: 'user', content: 'Hi' }] }))
				expect((failure as unknown as InstanceType<typeof Anthropic.APIError>)?.status).toBe(400)
				expect((failure as unknown as InstanceType<typeof Anthropic.APIError>)?.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'sensitive words detected: forbidden secret' } })
				const streamed = await refusedUntouched(() => post('/v1/messages', { model: CHAT_MODEL, max_tokens: 100, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: '违禁词' }] }] }, { 'x-api-key': key }))
				expect(streamed).toEqual({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'sensitive words detected: 违禁词' } } })
				expect(upstream.requests).toHaveLength(0)
				expect(await ledgerState()).toEqual(before)
			})

			test('is refused on Gemini\'s generateContent and streamGenerateContent in Gemini\'s error shape', async () => {
				const before = await ledgerState()
				const failure = await failureOf(gemini().models.generateContent({ model: CHAT_MODEL, contents: 'What is contraband?' }))
				expect((failure as unknown as { status: number })?.status).toBe(400)
				const streamed = await refusedUntouched(() => post(`/v1beta/models/${CHAT_MODEL}:streamGenerateContent?alt=sse`, {
					contents: [{ role: 'user', parts: [{ text: 'fine' }] }], systemInstruction: { parts: [{ text: 'The Forbidden Secret' }] },
				}, { 'x-goog-api-key': key }))
				expect(streamed).toEqual({ status: 400, body: { error: { code: 400, message: 'sensitive words detected: forbidden secret', status: 'INVALID_ARGUMENT' } } })
				expect(await ledgerState()).toEqual(before)
			})

			test('is refused in the console\'s playground', async () => {
				const refused = await refusedUntouched(() => post('/pg/chat/completions', { model: CHAT_MODEL, stream: true, messages: [{ role: 'user', content: 'contraband' }] }, {
					cookie: alice.cookie!, 'new-api-user': String(alice.userId),
				}))
				expect(refused.status).toBe(400)
				expect(refused.body.error).toMatchObject({ code: 'sensitive_words_detected', message: 'sensitive words detected: Contraband' })
			})

			test('names every word found, and a prompt without one goes through', async () => {
				const refused = await refusedUntouched(() => post('/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'contraband and a forbidden secret, 违禁词' }] }, bearer()))
				expect(refused.body.error.message).toBe('sensitive words detected: Contraband, forbidden secret, 违禁词')
				const answer = await openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'a forbidden thing, a secret' }] })
				expect(answer.choices[0]!.message.content).toBe(REPLY)
				expect(upstream.requests).toHaveLength(1)
			})

			test('is found split across two text parts of a message, or across two adjacent messages, Chinese words alike', async () => {
				for (const messages of [
					[{ role: 'user', content: [{ type: 'text', text: 'Tell me the forbid' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }, { type: 'text', text: 'den secret' }] }],
					[{ role: 'user', content: 'Remember: forbidden se' }, { role: 'user', content: 'cret is what I meant' }],
					[{ role: 'user', content: '这是违禁' }, { role: 'assistant', content: '词吗？' }],
				]) {
					const refused = await refusedUntouched(() => post('/v1/chat/completions', { model: CHAT_MODEL, messages }, bearer()))
					expect(refused).toMatchObject({ status: 400, body: { error: { code: 'sensitive_words_detected' } } })
				}
				const fromClaude = await refusedUntouched(() => post('/v1/messages', { model: CHAT_MODEL, max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'contra' }, { type: 'text', text: 'band' }] }] }, { 'x-api-key': key }))
				expect(fromClaude).toMatchObject({ status: 400, body: { type: 'error', error: { message: 'sensitive words detected: Contraband' } } })
				// Gemini's parts, and its system instruction's, which reach an OpenAI upstream one per line.
				for (const body of [
					{ contents: [{ role: 'user', parts: [{ text: 'contra' }, { text: 'band' }] }] },
					{ systemInstruction: { parts: [{ text: 'forbid' }, { text: 'den secret' }] }, contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
				]) {
					const fromGemini = await refusedUntouched(() => post(`/v1beta/models/${CHAT_MODEL}:generateContent`, body, { 'x-goog-api-key': key }))
					expect(fromGemini.status).toBe(400)
				}
			})

			test('is found in a message\'s name, a tool\'s description and the descriptions of its parameters', async () => {
				const lookup = (description: string, parameter = 'What to look up') => ({ type: 'function', function: { name: 'lookup', description, parameters: { type: 'object', properties: { query: { type: 'string', description: parameter } } } } })
				for (const body of [
					{ messages: [{ role: 'user', name: 'contraband', content: 'Hi' }] },
					{ messages: [{ role: 'user', content: 'Hi' }], tools: [lookup('Finds the forbidden secret')] },
					{ messages: [{ role: 'user', content: 'Hi' }], tools: [lookup('Finds things', 'a 违禁词')] },
				]) {
					const refused = await refusedUntouched(() => post('/v1/chat/completions', { model: CHAT_MODEL, ...body }, bearer()))
					expect(refused).toMatchObject({ status: 400, body: { error: { code: 'sensitive_words_detected' } } })
				}
				const claudeTool = await failureOf(anthropic().messages.create({
					model: CHAT_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }],
					tools: [{ name: 'lookup', description: 'Deals in contraband', input_schema: { type: 'object', properties: {} } }],
				}))
				expect((claudeTool as unknown as InstanceType<typeof Anthropic.APIError>)?.status).toBe(400)
				expect(upstream.requests).toHaveLength(0)
			})

			test('is not made up from texts of different kinds, nor from messages that are not adjacent', async () => {
				const lookup = (description: string) => ({ type: 'function', function: { name: 'lookup', description, parameters: { type: 'object', properties: {} } } })
				for (const body of [
					// A name and the content after it, two tools' descriptions, messages with another between them.
					{ messages: [{ role: 'user', name: 'contra', content: 'band' }] },
					{ messages: [{ role: 'user', content: 'Hi' }], tools: [lookup('forbidden'), lookup(' secret')] },
					{ messages: [{ role: 'user', content: 'forbidden' }, { role: 'assistant', content: 'OK' }, { role: 'user', content: ' secret' }] },
				]) {
					const answer = await post('/v1/chat/completions', { model: CHAT_MODEL, ...body }, bearer())
					expect(answer.status).toBe(200)
				}
				expect(upstream.requests).toHaveLength(3)
			})

			test('follows the word list as soon as it is changed', async () => {
				await configure({ SensitiveWords: 'kraken' })
				const passed = await openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'contraband' }] })
				expect(passed.choices[0]!.message.content).toBe(REPLY)
				const refused = await failureOf(openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'the KRAKEN' }] }))
				expect(refused?.code).toBe('sensitive_words_detected')
				expect(upstream.requests).toHaveLength(1)
			})
		})

		describe('with the settings off', () => {
			test('nothing is checked while the filter is off, whatever the other switches say, and all of it once it is on', async () => {
				await configure({ CheckSensitiveEnabled: false, CheckSensitiveOnCompletionEnabled: true })
				const whole = await openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'the forbidden secret' }] })
				expect(whole.choices[0]!.message.content).toBe(REPLY)
				const streamed = await readStream(await openai().chat.completions.create({ model: CHAT_MODEL, stream: true, messages: [{ role: 'user', content: 'contraband' }] }))
				expect(streamed.text).toBe(REPLY)
				expect(upstream.requests.map((request) => request.body.messages[0].content)).toEqual(['the forbidden secret', 'contraband'])

				await configure({ CheckSensitiveEnabled: true })
				expect((await failureOf(openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'contraband' }] })))?.code).toBe('sensitive_words_detected')
				const checked = await readStream(await openai().chat.completions.create({ model: CHAT_MODEL, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }))
				expect(checked.text).toBe(BEFORE_THE_WORD)
			})

			test('prompts are not checked while prompt checking is off, nor answers while answer checking is', async () => {
				await configure({ CheckSensitiveOnPromptEnabled: false })
				const answer = await openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'the forbidden secret' }] })
				expect(answer.choices[0]!.message.content).toBe(REPLY)
				expect(upstream.requests).toHaveLength(1)

				await configure({ CheckSensitiveOnPromptEnabled: true })
				expect((await failureOf(openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'the forbidden secret' }] })))?.code).toBe('sensitive_words_detected')
				expect(upstream.requests).toHaveLength(1)
			})
		})

		describe('with answer checking on', () => {
			beforeEach(() => configure({ CheckSensitiveOnCompletionEnabled: true }))

			test('refuses a whole answer with a listed word, billed for what the upstream produced and logged with the reason', async () => {
				const before = await ledgerState()
				const { result: failure, log } = await loggedCall(() => failureOf(openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say hello' }] })))
				expect(failure?.status).toBe(400)
				expect(failure?.error).toMatchObject({ code: 'sensitive_words_detected', message: 'sensitive words detected in the answer; the answer was withheld' })
				expect(upstream.requests).toHaveLength(1)
				expect(log).toMatchObject({ promptTokens: 100, completionTokens: UPSTREAM_COMPLETION_TOKENS, content: 'sensitive words in the answer (the answer was refused)' })
				expect(log.other).toMatchObject({ admin_info: { sensitive_words: ['forbidden secret'] }, sensitive_action: 'refused' })
				expect(log.quota).toBeGreaterThan(0)
				expect(await ledgerState()).toEqual({ quota: before.quota - log.quota, holds: before.holds + 1 })
			})

			test('refuses a whole answer to a Gemini client in Gemini\'s error shape', async () => {
				const response = await post(`/v1beta/models/${CHAT_MODEL}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }, { 'x-goog-api-key': key })
				expect(response.status).toBe(400)
				expect(await response.json()).toEqual({ error: { code: 400, message: 'sensitive words detected in the answer; the answer was withheld', status: 'INVALID_ARGUMENT' } })
			})

			test('a refused whole answer names no listed word, in any client\'s error nor in the caller\'s own log; the admins\' log does', async () => {
				const answers = [
					await post('/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say hello' }] }, bearer()),
					await post('/v1/completions', { model: COMPLETION_MODEL, prompt: 'Say hello' }, bearer()),
					await post('/v1/messages', { model: CHAT_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Say hello' }] }, { 'x-api-key': key }),
					await post(`/v1beta/models/${CHAT_MODEL}:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }, { 'x-goog-api-key': key }),
				]
				for (const answer of answers) {
					expect(answer.status).toBe(400)
					const text = await answer.text()
					expect(text).toContain('sensitive words detected in the answer')
					expect(text.toLowerCase()).not.toContain('forbidden')
					expect(text.toLowerCase()).not.toContain('secret')
				}
				const own = await harness.ferry.call('GET', '/api/log/self?page_size=4', { as: alice })
				const entries = own.body.data.items as Record<string, unknown>[]
				expect(entries).toHaveLength(4)
				for (const entry of entries) {
					expect(entry).toMatchObject({ content: 'sensitive words in the answer (the answer was refused)', other: { sensitive_action: 'refused' } })
					expect(JSON.stringify(entry).toLowerCase()).not.toContain('forbidden')
				}
				const admins = await harness.ferry.call('GET', `/api/log/?page_size=4&username=alice`, { as: harness.root })
				for (const entry of admins.body.data.items as Record<string, any>[]) expect(entry.other.admin_info.sensitive_words).toEqual(['forbidden secret'])
			})

			test('masks the words of a whole answer when it is not to stop, billed as usual', async () => {
				await configure({ StopOnSensitiveEnabled: false })
				const { result: answer, log } = await loggedCall(() => openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say hello' }] }))
				expect(answer.choices[0]!.message.content).toBe('Hello there, **###** and more')
				expect(answer.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: UPSTREAM_COMPLETION_TOKENS })
				expect(log.other).toMatchObject({ admin_info: { sensitive_words: ['forbidden secret'] }, sensitive_action: 'masked' })
				const completion = await openai().completions.create({ model: COMPLETION_MODEL, prompt: 'Say hello' })
				expect(completion.choices[0]!.text).toBe('Hello there, **###** and more')
			})

			test('cuts a stream before a word that spans two chunks, ends it properly with the usage billed, and logs why', async () => {
				const before = await ledgerState()
				const { result: streamed, log } = await loggedCall(async () => readStream(await openai().chat.completions.create({
					model: CHAT_MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hello' }],
				})))
				expect(streamed.text).toBe(BEFORE_THE_WORD)
				expect(streamed.finishReasons.at(-1)).toBe('content_filter')
				expect(upstream.requests).toHaveLength(1)
				// Billed by counting what the upstream sent up to the word (its own usage comes only at the end).
				expect(streamed.usage).toEqual({ prompt_tokens: log.promptTokens, completion_tokens: log.completionTokens, total_tokens: log.promptTokens + log.completionTokens })
				expect(log.completionTokens).toBeGreaterThan(0)
				expect(log.completionTokens).toBeLessThan(UPSTREAM_COMPLETION_TOKENS)
				expect(log).toMatchObject({ isStream: true, content: 'sensitive words in the answer (the stream was cut before the word)' })
				expect(log.other).toMatchObject({ stream_end: 'sensitive_words', admin_info: { sensitive_words: ['forbidden secret'] }, sensitive_action: 'cut', local_count_tokens: true })
				expect(await ledgerState()).toEqual({ quota: before.quota - log.quota, holds: before.holds + 1 })
			})

			test('cuts a Claude client\'s stream the same way, ending with the refusal stop reason and the usage', async () => {
				const { result: message, log } = await loggedCall(() => anthropic().messages.stream({ model: CHAT_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Say hello' }] }).finalMessage())
				expect(message.content.map((block) => block.type === 'text' ? block.text : block.type)).toEqual([BEFORE_THE_WORD])
				expect(message.stop_reason).toBe('refusal')
				expect(message.usage).toMatchObject({ input_tokens: log.promptTokens, output_tokens: log.completionTokens })
				expect(log.other).toMatchObject({ stream_end: 'sensitive_words', sensitive_action: 'cut' })
			})

			test('masks the words of a stream when it is not to stop, whole even across chunks, billed with the upstream\'s usage', async () => {
				await configure({ StopOnSensitiveEnabled: false })
				const { result: streamed, log } = await loggedCall(async () => readStream(await openai().chat.completions.create({
					model: CHAT_MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hello' }],
				})))
				expect(streamed.text).toBe('Hello there, **###** and more')
				expect(streamed.finishReasons.at(-1)).toBe('stop')
				expect(streamed.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: UPSTREAM_COMPLETION_TOKENS })
				expect(log).toMatchObject({ promptTokens: 100, completionTokens: UPSTREAM_COMPLETION_TOKENS })
				expect(log.other).toMatchObject({ admin_info: { sensitive_words: ['forbidden secret'] }, sensitive_action: 'masked' })
				expect(log.other.stream_end).toBeUndefined()
			})

			describe('and logprobs asked for', () => {
				type Token = { token: string; bytes: number[] | null; top_logprobs: { token: string; bytes: number[] | null }[] }
				const chat = { model: CHAT_MODEL, logprobs: true, top_logprobs: 3, messages: [{ role: 'user' as const, content: 'Say hello' }] }
				const tokensOf = (entries: Token[]) => entries.map((entry) => entry.token).join('')
				const bytesOf = (entries: Token[]) => new TextDecoder().decode(Uint8Array.from(entries.flatMap((entry) => entry.bytes ?? [])))
				/** Every token, byte string and alternative the client got, as one text per kind. */
				const seen = (entries: Token[]) => [tokensOf(entries), bytesOf(entries), ...entries.flatMap((entry) => entry.top_logprobs.map((alternative) => alternative.token))]
				async function streamedTokens(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
					const entries: Token[] = []
					let text = ''
					const finishes: (string | null)[] = []
					for await (const chunk of stream) {
						const choice = chunk.choices[0]
						if (!choice) continue
						text += choice.delta?.content ?? ''
						finishes.push(choice.finish_reason)
						entries.push(...((choice.logprobs?.content ?? []) as Token[]))
					}
					return { text, entries, finishes }
				}

				test('masks the listed words in a whole answer\'s logprobs tokens, their bytes and their alternatives, split across tokens or whole', async () => {
					await configure({ StopOnSensitiveEnabled: false })
					const answer = await openai().chat.completions.create(chat)
					expect(answer.choices[0]!.message.content).toBe('Hello there, **###** and more')
					const entries = answer.choices[0]!.logprobs!.content as Token[]
					expect(tokensOf(entries)).toBe('Hello there, **###** and more')
					expect(bytesOf(entries)).toBe('Hello there, **###** and more')
					for (const text of seen(entries)) expect(text).not.toMatch(LISTED)
					expect(entries.at(-1)!.top_logprobs.map((alternative) => alternative.token)).toEqual([' more', '**###**'])
				})

				test('masks them in a stream\'s logprobs across chunks, and the bytes tell the same text as the content', async () => {
					await configure({ StopOnSensitiveEnabled: false })
					const { text, entries } = await streamedTokens(await openai().chat.completions.create({ ...chat, stream: true }))
					expect(text).toBe('Hello there, **###** and more')
					expect(tokensOf(entries)).toBe(text)
					expect(bytesOf(entries)).toBe(text)
					for (const seenText of seen(entries)) expect(seenText).not.toMatch(LISTED)
				})

				test('cut at the word, a stream sends none of its tokens nor any alternative spelling a listed word', async () => {
					const { text, entries, finishes } = await streamedTokens(await openai().chat.completions.create({ ...chat, stream: true }))
					expect(text).toBe(BEFORE_THE_WORD)
					expect(finishes.at(-1)).toBe('content_filter')
					for (const seenText of seen(entries)) expect(seenText).not.toMatch(LISTED)
					expect(tokensOf(entries)).toBe(BEFORE_THE_WORD.slice(0, tokensOf(entries).length))
				})

				test('masks them in the legacy completions logprobs, whole and streamed', async () => {
					await configure({ StopOnSensitiveEnabled: false })
					const whole = await openai().completions.create({ model: COMPLETION_MODEL, prompt: 'Say hello', logprobs: 2 })
					const logprobs = whole.choices[0]!.logprobs!
					expect(logprobs.tokens!.join('')).toBe('Hello there, **###** and more')
					expect(JSON.stringify(logprobs)).not.toMatch(LISTED)
					const streamed = await openai().completions.create({ model: COMPLETION_MODEL, prompt: 'Say hello', logprobs: 2, stream: true })
					const tokens: string[] = []
					const alternatives: string[] = []
					for await (const chunk of streamed) {
						const choice = chunk.choices[0]
						tokens.push(...(choice?.logprobs?.tokens ?? []))
						for (const top of choice?.logprobs?.top_logprobs ?? []) alternatives.push(...Object.keys(top ?? {}))
					}
					expect(tokens.join('')).toBe('Hello there, **###** and more')
					for (const alternative of alternatives) expect(alternative).not.toMatch(LISTED)
				})
			})

			test('leaves an answer without a listed word as the upstream sent it, and follows the word list as it changes', async () => {
				await configure({ SensitiveWords: 'kraken' })
				const streamed = await readStream(await openai().chat.completions.create({ model: CHAT_MODEL, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }))
				expect(streamed.text).toBe(REPLY)
				const whole = await openai().chat.completions.create({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
				expect(whole.choices[0]!.message.content).toBe(REPLY)

				await configure({ SensitiveWords: 'kraken\nMORE' })
				const cut = await readStream(await openai().chat.completions.create({ model: CHAT_MODEL, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }))
				expect(cut.text).toBe('Hello there, forbidden secret and ')
			})
		})
	})
}
