/**
 * A channel's extra setting as the relay applies it (src/relay/upstream/channel-setting.ts): the
 * system prompt, forced OpenAI format, the client's body passed through, and reasoning written as
 * `<think>` text, driven through the official OpenAI SDK against fake upstreams on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const PROMPT = 'You answer in one sentence.'
const REASONING = 'The user greets me, so I greet back.'

for (const target of databaseTargets()) {
	describe(`a channel's extra setting on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let reasoner: FakeOpenAI
		let client: OpenAI
		let claude: Anthropic
		let anthropic: FakeClaudeModel
		/** The bodies the SDK sent, as bytes. */
		const sentBodies: string[] = []

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			await harness.ferry.dependencies.options.set('SelfUseModeEnabled', 'true')
			upstream = harness.startUpstream()
			reasoner = harness.startUpstream({ reasoning: REASONING })
			const channel = (models: string, setting: object, fields: Record<string, unknown> = {}) =>
				harness.createChannel({ name: models, base_url: upstream.url, models, setting: JSON.stringify(setting), ...fields })
			await channel('plain', {})
			await channel('prompted', { system_prompt: PROMPT })
			await channel('overriding', { system_prompt: PROMPT, system_prompt_override: true })
			await channel('strict', { force_format: true })
			await channel('passing', { pass_through_body_enabled: true, system_prompt: PROMPT }, { model_mapping: '{"passing":"passing-2025"}' })
			await harness.createChannel({ name: 'thinking', base_url: reasoner.url, models: 'thinking', setting: '{"thinking_to_content": true}' })
			await harness.createChannel({ name: 'reasoning', base_url: reasoner.url, models: 'reasoning', setting: '{}' })
			anthropic = startFakeClaudeModel()
			await harness.createChannel({ name: 'claude-prompted', type: CHANNEL_TYPE.anthropic, base_url: anthropic.url, models: 'claude-prompted', setting: JSON.stringify({ system_prompt: PROMPT }) })
			await harness.createChannel({ name: 'claude-plain', type: CHANNEL_TYPE.anthropic, base_url: anthropic.url, models: 'claude-plain', setting: '{}' })
			await harness.createChannel({
				name: 'claude-passing', type: CHANNEL_TYPE.anthropic, base_url: anthropic.url, models: 'claude-passing',
				model_mapping: '{"claude-passing":"claude-sonnet-4-5"}', setting: '{"pass_through_body_enabled": true}',
			})
			const { key } = await harness.createToken()
			claude = new Anthropic({
				apiKey: key, baseURL: harness.baseUrl, maxRetries: 0,
				fetch: async (url, init) => {
					if (typeof init?.body === 'string') sentBodies.push(init.body)
					return fetch(url, init)
				},
			})
			client = new OpenAI({
				apiKey: key, baseURL: `${harness.baseUrl}/v1`, maxRetries: 0,
				fetch: async (url, init) => {
					if (typeof init?.body === 'string') sentBodies.push(init.body)
					return fetch(url, init)
				},
			})
		})
		afterAll(async () => {
			await harness.close()
			await anthropic.stop()
		})

		const lastSent = (fake: FakeOpenAI) => fake.requests.at(-1)!

		describe('system_prompt', () => {
			test('is added as the first message of a request that has no system message', async () => {
				await client.chat.completions.create({ model: 'prompted', messages: [{ role: 'user', content: 'Hi' }] })
				expect(lastSent(upstream).body.messages).toEqual([{ role: 'system', content: PROMPT }, { role: 'user', content: 'Hi' }])
			})

			test('leaves a request\'s own system message alone without system_prompt_override', async () => {
				await client.chat.completions.create({ model: 'prompted', messages: [{ role: 'system', content: 'Be formal.' }, { role: 'user', content: 'Hi' }] })
				expect(lastSent(upstream).body.messages).toEqual([{ role: 'system', content: 'Be formal.' }, { role: 'user', content: 'Hi' }])
			})

			test('goes before the request\'s own system message with system_prompt_override, streaming too', async () => {
				const stream = await client.chat.completions.create({ model: 'overriding', messages: [{ role: 'developer', content: 'Be formal.' }, { role: 'user', content: 'Hi' }], stream: true })
				let text = ''
				for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
				expect(text).toBe('Hello from fake-openai')
				expect(lastSent(upstream).body.messages).toEqual([{ role: 'developer', content: `${PROMPT}\n\nBe formal.` }, { role: 'user', content: 'Hi' }])
			})

			test('is not added by a channel without it', async () => {
				await client.chat.completions.create({ model: 'plain', messages: [{ role: 'user', content: 'Hi' }] })
				expect(lastSent(upstream).body.messages).toEqual([{ role: 'user', content: 'Hi' }])
			})
		})

		describe('on a channel of the client\'s own format', () => {
			test('a Claude request is converted so the channel\'s system prompt reaches the upstream', async () => {
				const answer = await claude.messages.create({ model: 'claude-prompted', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
				expect(answer.content[0]).toMatchObject({ type: 'text', text: 'Hello from fake-claude' })
				expect(JSON.stringify(anthropic.requests.at(-1)!.body.system)).toContain(PROMPT)
			})

			test('with pass_through_body_enabled a Claude request goes as its bytes, the model not mapped', async () => {
				await claude.messages.create({ model: 'claude-passing', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
				const sent = anthropic.requests.at(-1)!.body
				expect(JSON.stringify(sent)).toBe(JSON.stringify(JSON.parse(sentBodies.at(-1)!)))
				expect(sent.model).toBe('claude-passing')
			})

			test('a Claude request passes through unchanged to a channel without a setting', async () => {
				await claude.messages.create({ model: 'claude-plain', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
				const sent = anthropic.requests.at(-1)!.body
				expect(sent.system).toBeUndefined()
				expect(sent).toEqual({ model: 'claude-plain', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
			})
		})

		describe('force_format', () => {
			// Fields OpenAI does not document, as clients of other OpenAI-compatible servers send them.
			const vendorFields = { top_k: 20, enable_thinking: false, repetition_penalty: 1.1 }
			const messages = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello', reasoning_content: 'thought' }, { role: 'user', content: 'Again' }]

			test('sends only the fields OpenAI documents, in the request and its messages', async () => {
				await client.chat.completions.create({ model: 'strict', messages, temperature: 0.5, ...vendorFields } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
				const sent = lastSent(upstream).body
				expect(sent).toEqual({ model: 'strict', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Again' }], temperature: 0.5 })
			})

			test('is what keeps those fields from a channel without it', async () => {
				await client.chat.completions.create({ model: 'plain', messages, ...vendorFields } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
				expect(lastSent(upstream).body).toMatchObject({ ...vendorFields, messages })
			})
		})

		describe('pass_through_body_enabled', () => {
			test('sends the client\'s bytes as they are: no model mapping, no usage asked for, no system prompt', async () => {
				const stream = await client.chat.completions.create({ model: 'passing', messages: [{ role: 'user', content: 'Hi' }], stream: true })
				let text = ''
				for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
				expect(text).toBe('Hello from fake-openai')
				const sent = lastSent(upstream)
				expect(sent.rawBody).toBe(sentBodies.at(-1)!)
				expect(sent.body.model).toBe('passing')
				expect(sent.body.stream_options).toBeUndefined()
				expect(sent.body.messages).toEqual([{ role: 'user', content: 'Hi' }])
			})

			test('still bills a streamed answer that reports no usage, by counting it', async () => {
				await client.chat.completions.create({ model: 'passing', messages: [{ role: 'user', content: 'Hi' }], stream: true }).then(async (stream) => {
					for await (const _ of stream);
				})
				const logs = await harness.ferry.call('GET', '/api/log/?p=1&page_size=1', { as: harness.root })
				expect(logs.body.data.items[0]).toMatchObject({ model_name: 'passing' })
				expect(logs.body.data.items[0].completion_tokens).toBeGreaterThan(0)
			})
		})

		describe('thinking_to_content', () => {
			test('writes a whole answer\'s reasoning as <think> text before the reply', async () => {
				const answer = await client.chat.completions.create({ model: 'thinking', messages: [{ role: 'user', content: 'Hi' }] })
				const message = answer.choices[0]!.message as unknown as Record<string, unknown>
				expect(message.content).toBe(`<think>${REASONING}</think>Hello from fake-openai`)
				expect(message).not.toHaveProperty('reasoning_content')
			})

			test('writes a stream\'s reasoning deltas as <think> text, closed before the first reply delta', async () => {
				const stream = await client.chat.completions.create({ model: 'thinking', messages: [{ role: 'user', content: 'Hi' }], stream: true })
				let text = ''
				for await (const chunk of stream) {
					expect(chunk.choices[0]?.delta ?? {}).not.toHaveProperty('reasoning_content')
					text += chunk.choices[0]?.delta?.content ?? ''
				}
				expect(text).toBe(`<think>${REASONING}</think>Hello from fake-openai`)
			})

			test('leaves reasoning in its own field on a channel without it', async () => {
				const answer = await client.chat.completions.create({ model: 'reasoning', messages: [{ role: 'user', content: 'Hi' }] })
				const message = answer.choices[0]!.message as unknown as Record<string, unknown>
				expect(message).toMatchObject({ content: 'Hello from fake-openai', reasoning_content: REASONING })
			})
		})
	})
}
