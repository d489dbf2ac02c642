/**
 * A Claude client's `thinking` setting (Claude Code's budget, `adaptive`, `disabled`) on channels
 * that do not speak Claude's API, driven by the official Anthropic SDK: Gemini gets its own
 * thinkingConfig (the budget as asked on 2.5, a level on 3, dynamic for adaptive) and its thoughts
 * come back as a thinking block; DeepSeek gets its thinking switch; OpenAI's reasoning models a
 * `reasoning_effort`, and other OpenAI models nothing. The fakes refuse what the real APIs refuse
 * (a budget outside a Gemini model's range or on Gemini 3, `reasoning_effort` on a model that does
 * not reason).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { FAKE_THOUGHT, startFakeGeminiModel, type FakeGeminiModel } from '../helpers/fake-gemini-model'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const GEMINI = { flash: 'gemini-2.5-flash', pro: 'gemini-2.5-pro', proThree: 'gemini-3-pro-preview', older: 'gemini-2.0-flash' } as const
const DEEPSEEK = 'deepseek-chat'
const OPENAI = { reasoning: 'o3', gpt5: 'gpt-5', plain: 'gpt-4o-mini' } as const

for (const target of databaseTargets()) {
	describe(`a Claude client's thinking setting on Gemini, DeepSeek and OpenAI channels, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let gemini: FakeGeminiModel
		let deepseek: FakeOpenAI
		let openai: FakeOpenAI
		let client: Anthropic

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			gemini = startFakeGeminiModel()
			deepseek = harness.startUpstream({ name: 'deepseek' })
			openai = harness.startUpstream({ name: 'openai' })
			const models = [...Object.values(GEMINI), DEEPSEEK, ...Object.values(OPENAI)]
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...Object.fromEntries(models.map((model) => [model, 1])) }))
			await harness.createChannel({ type: 24, base_url: gemini.url, key: 'gemini-channel-key', models: Object.values(GEMINI).join(',') })
			await harness.createChannel({ type: CHANNEL_TYPE.deepseek, base_url: deepseek.url, key: 'sk-deepseek', models: DEEPSEEK })
			await harness.createChannel({ type: 1, base_url: openai.url, key: 'sk-openai', models: Object.values(OPENAI).join(',') })
			// A timeout of its own: the SDK refuses a large max_tokens unstreamed otherwise.
			client = new Anthropic({ apiKey: (await harness.createToken()).key, baseURL: harness.baseUrl, maxRetries: 0, timeout: 60_000 })
		})
		afterAll(async () => {
			await harness.close()
			await gemini.stop()
		})

		const ask = (model: string, thinking: Anthropic.ThinkingConfigParam | { type: 'adaptive' }, maxTokens = 16000) =>
			client.messages.create({ model, max_tokens: maxTokens, thinking: thinking as Anthropic.ThinkingConfigParam, messages: [{ role: 'user', content: 'Think, then say hello.' }] })
		const sentConfig = () => gemini.requests.at(-1)!.body.generationConfig?.thinkingConfig

		test('on Gemini 2.5 a budget is Gemini\'s budget (within the model\'s range), with the thoughts asked back, which come as a thinking block', async () => {
			const answer = await ask(GEMINI.flash, { type: 'enabled', budget_tokens: 10000 })
			expect(sentConfig()).toEqual({ thinkingBudget: 10000, includeThoughts: true })
			expect(answer.content[0]).toEqual({ type: 'thinking', thinking: FAKE_THOUGHT, signature: '' })
			expect(answer.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from fake-gemini' })
			// Claude Code's "ultrathink" is more than Flash takes: its most.
			await ask(GEMINI.flash, { type: 'enabled', budget_tokens: 31999 }, 64000)
			expect(sentConfig()).toEqual({ thinkingBudget: 24576, includeThoughts: true })
		})

		test('adaptive thinking is Gemini 2.5\'s dynamic budget and Gemini 3\'s default level; disabled turns Flash\'s thinking off and gives Pro its least budget', async () => {
			await ask(GEMINI.pro, { type: 'adaptive' })
			expect(sentConfig()).toEqual({ thinkingBudget: -1, includeThoughts: true })
			const three = await ask(GEMINI.proThree, { type: 'adaptive' })
			expect(sentConfig()).toEqual({ includeThoughts: true })
			expect(three.content[0]).toMatchObject({ type: 'thinking', thinking: FAKE_THOUGHT })
			const off = await ask(GEMINI.flash, { type: 'disabled' })
			expect(sentConfig()).toEqual({ thinkingBudget: 0 })
			expect(off.content.map((block) => block.type)).toEqual(['text'])
			await ask(GEMINI.pro, { type: 'disabled' })
			expect(sentConfig()).toEqual({ thinkingBudget: 128, includeThoughts: true })
		})

		test('on Gemini 3 a budget becomes the level of its effort; a model that does not think gets no thinkingConfig', async () => {
			await ask(GEMINI.proThree, { type: 'enabled', budget_tokens: 4000 })
			// 4000 is medium, which Gemini 3 Pro has as high.
			expect(sentConfig()).toEqual({ thinkingLevel: 'high', includeThoughts: true })
			await ask(GEMINI.proThree, { type: 'enabled', budget_tokens: 1024 })
			expect(sentConfig()).toEqual({ thinkingLevel: 'low', includeThoughts: true })
			const older = await ask(GEMINI.older, { type: 'enabled', budget_tokens: 4000 })
			expect(sentConfig()).toBeUndefined()
			expect(older.content.map((block) => block.type)).toEqual(['text'])
		})

		test('on DeepSeek thinking enabled or adaptive switches its thinking mode on, disabled off; no budget or Claude field goes along', async () => {
			await ask(DEEPSEEK, { type: 'enabled', budget_tokens: 4000 })
			const sent = deepseek.requests.at(-1)!.body as Record<string, unknown>
			expect(sent.thinking).toEqual({ type: 'enabled' })
			expect(JSON.stringify(sent)).not.toContain('budget_tokens')
			await ask(DEEPSEEK, { type: 'adaptive' })
			expect((deepseek.requests.at(-1)!.body as Record<string, unknown>).thinking).toEqual({ type: 'enabled' })
			await ask(DEEPSEEK, { type: 'disabled' })
			expect((deepseek.requests.at(-1)!.body as Record<string, unknown>).thinking).toEqual({ type: 'disabled' })
		})

		test('on OpenAI a budget is reasoning_effort for reasoning models only (low to high); other models, adaptive and disabled get nothing, and every call succeeds', async () => {
			const sent = () => openai.requests.at(-1)!.body as Record<string, unknown>
			await ask(OPENAI.reasoning, { type: 'enabled', budget_tokens: 10000 })
			expect(sent().reasoning_effort).toBe('high')
			await ask(OPENAI.gpt5, { type: 'enabled', budget_tokens: 4000 })
			expect(sent().reasoning_effort).toBe('medium')
			await ask(OPENAI.gpt5, { type: 'enabled', budget_tokens: 31999 }, 64000)
			expect(sent().reasoning_effort).toBe('high')
			await ask(OPENAI.gpt5, { type: 'adaptive' })
			expect(sent()).not.toHaveProperty('reasoning_effort')
			const plain = await ask(OPENAI.plain, { type: 'enabled', budget_tokens: 10000 })
			expect(sent()).not.toHaveProperty('reasoning_effort')
			expect(sent()).not.toHaveProperty('thinking')
			expect(plain.content).toMatchObject([{ type: 'text', text: 'Hello from openai' }])
		})
	})
}
