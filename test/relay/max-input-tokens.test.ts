/**
 * A channel's `max_input_tokens` (src/relay/stages/prompt-fit.ts): a channel is not chosen for a
 * prompt longer than its limit, and a call no channel can take is refused with a 400 in the
 * client's format before anything is held. Driven with the official OpenAI and Anthropic SDKs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { countPrompt } from '@/billing/tokenizer'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const LIMIT = 64
const SHORT = 'Say hello'
/** Far more than LIMIT tokens however it is counted. */
const LONG = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ')

for (const target of databaseTargets()) {
	describe(`channels' max_input_tokens on ${target.dialect}`, () => {
		let harness: RelayHarness
		let small: FakeOpenAI
		let large: FakeOpenAI
		let client: OpenAI
		let key: string
		let userId: number
		let smallId: number

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			small = harness.startUpstream({ name: 'small' })
			large = harness.startUpstream({ name: 'large' })
			// The small channel goes first by priority; the large one sets no limit.
			smallId = await harness.createChannel({ name: 'small', base_url: small.url, models: 'gpt-4o-mini,gpt-4o', priority: 10, max_input_tokens: LIMIT })
			await harness.createChannel({ name: 'large', base_url: large.url, models: 'gpt-4o-mini', priority: 0, max_input_tokens: 0 })
			const user = await harness.ferry.createUser('prompter')
			userId = user.userId
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: userId, quota: 1_000_000 } })
			key = (await harness.createToken({ name: 'fit', unlimited_quota: true }, user)).key
			client = harness.client(key)
		})
		afterAll(() => harness.close())

		const quota = async () => {
			const { users } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select({ quota: users.quota }).from(users).where(eq(users.id, userId))
			return row!.quota
		}

		test('a prompt within the limit goes to the channel with the limit, as routing prefers', async () => {
			const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: SHORT }] })
			expect(answer.choices[0]!.message.content).toBe('Hello from small')
		})

		test('a longer prompt skips that channel and goes to one without a limit, streaming too', async () => {
			expect(await countPrompt({ endpoint: 'chat', messages: [{ role: 'user', content: LONG }] })).toBeGreaterThan(LIMIT)
			const smallCalls = small.requests.length
			const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: LONG }] })
			expect(answer.choices[0]!.message.content).toBe('Hello from large')
			const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: LONG }], stream: true })
			let text = ''
			for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
			expect(text).toBe('Hello from large')
			expect(small.requests.length).toBe(smallCalls)
		})

		test('a prompt too long for every channel of the model is a 400 in OpenAI\'s shape, and nothing is charged', async () => {
			const before = await quota()
			const upstreamCalls = small.requests.length + large.requests.length
			const error = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: LONG }] }).catch((failure: unknown) => failure)
			expect(error).toBeInstanceOf(OpenAI.BadRequestError)
			const refused = error as InstanceType<typeof OpenAI.BadRequestError>
			expect(refused.code).toBe('context_length_exceeded')
			expect(refused.message).toContain(`more than any available channel for the model gpt-4o accepts (at most ${LIMIT})`)
			expect(small.requests.length + large.requests.length).toBe(upstreamCalls)
			expect(await quota()).toBe(before)
		})

		test('the same refusal reaches a Claude client in Claude\'s error shape', async () => {
			const claude = new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
			const error = await claude.messages.create({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: LONG }] }).catch((failure: unknown) => failure)
			expect(error).toBeInstanceOf(Anthropic.BadRequestError)
			const refused = error as InstanceType<typeof Anthropic.BadRequestError>
			expect(refused.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
			expect(refused.message).toContain('more than any available channel for the model gpt-4o accepts')
		})

		test('a token pinned to the channel with the limit gets the 400 for a longer prompt, not another channel', async () => {
			const { key: rootKey } = await harness.createToken({ name: 'pinned' })
			const pinned = harness.client(`${rootKey}-${smallId}`)
			const upstreamCalls = small.requests.length + large.requests.length
			const error = await pinned.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: LONG }] }).catch((failure: unknown) => failure)
			expect(error).toBeInstanceOf(OpenAI.BadRequestError)
			expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('context_length_exceeded')
			expect(small.requests.length + large.requests.length).toBe(upstreamCalls)
			const answer = await pinned.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: SHORT }] })
			expect(answer.choices[0]!.message.content).toBe('Hello from small')
		})

		test('a short prompt on that model is still served', async () => {
			const answer = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: SHORT }] })
			expect(answer.choices[0]!.message.content).toBe('Hello from small')
		})
	})
}
