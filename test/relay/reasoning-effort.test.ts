/**
 * OpenAI clients' reasoning effort on Claude and Gemini channels, driven by the official openai SDK
 * (chat's `reasoning_effort`, the Responses API's `reasoning.effort` through the bridge): the
 * upstream gets its own thinking setting (Claude's budget or adaptive thinking, with room in
 * `max_tokens` and no sampling settings thinking refuses; Gemini's budget or level, with its thoughts
 * asked back), and the thinking that comes back reaches the client as `reasoning_content` or a
 * `reasoning` item, whole and streamed, billed as output. The fakes refuse what the real APIs refuse
 * (a budget outside Claude's rules, temperature while thinking, a level a Gemini model lacks).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import { FAKE_SIGNATURE, FAKE_THINKING, startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'
import { FAKE_THOUGHT, FAKE_THOUGHT_TOKENS, startFakeGeminiModel, type FakeGeminiModel } from '../helpers/fake-gemini-model'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const CLAUDE = {
	/** Thinks by budget. */
	budget: 'claude-sonnet-4-5',
	/** Thinks adaptively only (a budget is refused). */
	adaptive: 'claude-opus-4-7',
	/** Does not think. */
	older: 'claude-3-5-haiku-latest',
} as const
const GEMINI = {
	flash: 'gemini-2.5-flash',
	pro: 'gemini-2.5-pro',
	proThree: 'gemini-3-pro-preview',
	flashThree: 'gemini-3-flash-preview',
} as const
const COMPLETION_RATIO = 4
const THINKING = FAKE_THINKING.join('')
/** The fakes' answer text is three pieces, one output token each. */
const ANSWER_TOKENS = 3

type ReasoningMessage = OpenAI.ChatCompletionMessage & { reasoning_content?: string }
type ReasoningDelta = OpenAI.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string }

for (const target of databaseTargets()) {
	describe(`reasoning effort on Claude and Gemini channels, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let claude: FakeClaudeModel
		let gemini: FakeGeminiModel
		let client: OpenAI

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			// A tool offered is called: the tool loops below need the model to call one unforced.
			claude = startFakeClaudeModel({ toolCalls: true })
			gemini = startFakeGeminiModel()
			const models = [...Object.values(CLAUDE), ...Object.values(GEMINI)]
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...Object.fromEntries(models.map((model) => [model, 1])) }))
			await options.set('CompletionRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, COMPLETION_RATIO]))))
			await harness.createChannel({ type: 14, base_url: claude.url, key: 'sk-ant-channel', models: Object.values(CLAUDE).join(',') })
			await harness.createChannel({ type: 24, base_url: gemini.url, key: 'gemini-channel-key', models: Object.values(GEMINI).join(',') })
			client = harness.client((await harness.createToken()).key)
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([claude.stop(), gemini.stop()])
		})

		const consumeLog = async () => {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=5', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)!
		}
		/** The last call was billed for its prompt and for `completion` output tokens at the completion ratio. */
		const expectBilled = async (prompt: number, completion: number) => {
			expect(await consumeLog()).toMatchObject({ prompt_tokens: prompt, completion_tokens: completion, quota: prompt + completion * COMPLETION_RATIO })
		}
		const chat = (body: Record<string, unknown>) => client.chat.completions.create({ messages: [{ role: 'user', content: 'Think, then say hello.' }], ...body } as never) as Promise<OpenAI.ChatCompletion>
		const chatStream = async (body: Record<string, unknown>) => {
			const stream = await client.chat.completions.create({ messages: [{ role: 'user', content: 'Think, then say hello.' }], stream: true, stream_options: { include_usage: true }, ...body } as never) as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>
			let reasoning = ''
			let content = ''
			let usage: OpenAI.CompletionUsage | undefined
			for await (const chunk of stream) {
				const delta = chunk.choices[0]?.delta as ReasoningDelta | undefined
				reasoning += delta?.reasoning_content ?? ''
				content += delta?.content ?? ''
				if (chunk.usage) usage = chunk.usage
			}
			return { reasoning, content, usage: usage! }
		}

		test('chat reasoning_effort high on a Claude budget model: thinking with a 24576 budget, max_tokens raised above it, temperature left out; the thinking comes back as reasoning_content, billed as output', async () => {
			const answer = await chat({ model: CLAUDE.budget, reasoning_effort: 'high', temperature: 0.3, top_p: 0.5 })
			const sent = claude.requests.at(-1)!.body
			expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 })
			expect(sent.max_tokens).toBe(24576 + 4096)
			expect(sent).not.toHaveProperty('temperature')
			expect(sent).not.toHaveProperty('top_p')
			const message = answer.choices[0]!.message as ReasoningMessage
			expect(message.reasoning_content).toBe(THINKING)
			expect(message.content).toBe('Hello from fake-claude')
			expect(answer.usage!.completion_tokens).toBe(ANSWER_TOKENS + FAKE_THINKING.length)
			await expectBilled(answer.usage!.prompt_tokens, ANSWER_TOKENS + FAKE_THINKING.length)
		})

		test('a streamed chat call with its own max_tokens keeps that limit and fits the budget below it; minimal effort and a limit too small for Claude\'s least budget ask no thinking', async () => {
			const streamed = await chatStream({ model: CLAUDE.budget, reasoning_effort: 'medium', max_tokens: 2000 })
			expect(claude.requests.at(-1)!.body).toMatchObject({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1999 } })
			expect(streamed.reasoning).toBe(THINKING)
			expect(streamed.content).toBe('Hello from fake-claude')
			expect(streamed.usage.completion_tokens).toBe(ANSWER_TOKENS + FAKE_THINKING.length)
			await expectBilled(streamed.usage.prompt_tokens, ANSWER_TOKENS + FAKE_THINKING.length)

			await chat({ model: CLAUDE.budget, reasoning_effort: 'minimal', temperature: 0.3 })
			expect(claude.requests.at(-1)!.body).toMatchObject({ max_tokens: 4096, temperature: 0.3 })
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
			await chat({ model: CLAUDE.budget, reasoning_effort: 'low', max_tokens: 1024 })
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
		})

		test('Claude 4.7 thinks adaptively: thinking adaptive with output_config.effort (xhigh as max), never a budget', async () => {
			const answer = await chat({ model: CLAUDE.adaptive, reasoning_effort: 'xhigh', temperature: 0.7 })
			const sent = claude.requests.at(-1)!.body
			expect(sent.thinking).toEqual({ type: 'adaptive' })
			expect(sent.output_config).toEqual({ effort: 'max' })
			expect(sent).not.toHaveProperty('temperature')
			expect((answer.choices[0]!.message as ReasoningMessage).reasoning_content).toBe(THINKING)
			// Adaptive thinking takes a forced tool.
			const tool = { type: 'function', function: { name: 'greet', parameters: { type: 'object', properties: { name: { type: 'string' } } } } }
			await chat({ model: CLAUDE.adaptive, reasoning_effort: 'low', tools: [tool], tool_choice: 'required' })
			expect(claude.requests.at(-1)!.body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' }, tool_choice: { type: 'any' } })
		})

		test('a model that does not think and a forced tool on a budget model get no thinking from the effort, and their calls still succeed', async () => {
			const older = await chat({ model: CLAUDE.older, reasoning_effort: 'high' })
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
			expect(older.choices[0]!.message.content).toBe('Hello from fake-claude')
			const tool = { type: 'function', function: { name: 'greet', parameters: { type: 'object', properties: { name: { type: 'string' } } } } }
			const forced = await chat({ model: CLAUDE.budget, reasoning_effort: 'high', tools: [tool], tool_choice: 'required' })
			expect(claude.requests.at(-1)!.body).toMatchObject({ tool_choice: { type: 'any' } })
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
			expect(forced.choices[0]!.message.tool_calls).toHaveLength(1)
			// Unforced, the same call thinks.
			await chat({ model: CLAUDE.budget, reasoning_effort: 'high', tools: [tool], tool_choice: 'auto' })
			expect(claude.requests.at(-1)!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 })
		})

		test('a tool loop whose thinking does not come back (a Responses client that did not ask for encrypted_content) is sent without thinking, which Claude would refuse; a chat client sending the thinking back keeps thinking', async () => {
			const parameters = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false }
			const tool = { type: 'function' as const, name: 'greet', parameters, strict: true }
			const first = await client.responses.create({ model: CLAUDE.budget, input: 'Greet Ann.', tools: [tool], reasoning: { effort: 'high' } })
			expect(claude.requests.at(-1)!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 })
			expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call'])
			const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall
			const second = await client.responses.create({
				model: CLAUDE.budget, tools: [tool], reasoning: { effort: 'high' },
				input: [{ role: 'user', content: 'Greet Ann.' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: 'greeted' }],
			})
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
			expect(second.status).toBe('completed')

			const chatTool = { type: 'function', function: { name: 'greet', parameters } }
			const question = { role: 'user', content: 'Greet Ann.' }
			const answer = await chat({ model: CLAUDE.budget, reasoning_effort: 'high', tools: [chatTool], messages: [question] })
			const message = answer.choices[0]!.message
			await chat({ model: CLAUDE.budget, reasoning_effort: 'high', tools: [chatTool], messages: [question, message, { role: 'tool', tool_call_id: message.tool_calls![0]!.id, content: 'greeted' }] })
			const sent = claude.requests.at(-1)!.body
			expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 })
			expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: THINKING, signature: FAKE_SIGNATURE })
		})

		test('a Responses request\'s reasoning.effort reaches Claude as thinking and its thinking comes back as a reasoning item, billed as output', async () => {
			const response = await client.responses.create({ model: CLAUDE.budget, input: 'Think, then say hello.', reasoning: { effort: 'medium' } })
			expect(claude.requests.at(-1)!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 }, max_tokens: 8192 + 4096 })
			expect(response.output[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: THINKING }], status: 'completed' })
			expect(response.output_text).toBe('Hello from fake-claude')
			expect(response.usage!.output_tokens).toBe(ANSWER_TOKENS + FAKE_THINKING.length)
			await expectBilled(response.usage!.input_tokens, ANSWER_TOKENS + FAKE_THINKING.length)
		})

		test('a streamed Responses request asking for a reasoning summary (as Codex does) gets Claude\'s thinking as reasoning_summary_text events', async () => {
			const stream = await client.responses.create({ model: CLAUDE.budget, input: 'Think, then say hello.', reasoning: { effort: 'low', summary: 'auto' }, stream: true })
			const events: OpenAI.Responses.ResponseStreamEvent[] = []
			for await (const event of stream) events.push(event)
			expect(claude.requests.at(-1)!.body).toMatchObject({ stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1024 + 4096 })
			const deltas = events.filter((event): event is OpenAI.Responses.ResponseReasoningSummaryTextDeltaEvent => event.type === 'response.reasoning_summary_text.delta')
			expect(deltas.map((event) => event.delta)).toEqual(FAKE_THINKING)
			expect(events.map((event) => event.type).slice(2, 8)).toEqual([
				'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta',
				'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done',
			])
			const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
			expect(completed.response.output[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [{ type: 'summary_text', text: THINKING }], status: 'completed' })
			expect(completed.response.usage!.output_tokens).toBe(ANSWER_TOKENS + FAKE_THINKING.length)
			await expectBilled(completed.response.usage!.input_tokens, ANSWER_TOKENS + FAKE_THINKING.length)
		})

		test('chat reasoning_effort on Gemini 2.5 Flash: a thinkingBudget with the thoughts asked back, which come as reasoning_content and are billed as output; none turns thinking off', async () => {
			const answer = await chat({ model: GEMINI.flash, reasoning_effort: 'high' })
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 24576, includeThoughts: true })
			const message = answer.choices[0]!.message as ReasoningMessage
			expect(message.reasoning_content).toBe(FAKE_THOUGHT)
			expect(message.content).toBe('Hello from fake-gemini')
			expect(answer.usage).toMatchObject({ completion_tokens: ANSWER_TOKENS + FAKE_THOUGHT_TOKENS, completion_tokens_details: { reasoning_tokens: FAKE_THOUGHT_TOKENS } })
			await expectBilled(answer.usage!.prompt_tokens, ANSWER_TOKENS + FAKE_THOUGHT_TOKENS)

			const off = await chat({ model: GEMINI.flash, reasoning_effort: 'none' })
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 })
			expect((off.choices[0]!.message as ReasoningMessage).reasoning_content).toBeUndefined()
		})

		test('Gemini 2.5 Pro, which cannot stop thinking, gets its least budget for minimal, and a streamed call brings its thoughts back', async () => {
			const streamed = await chatStream({ model: GEMINI.pro, reasoning_effort: 'minimal' })
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 128, includeThoughts: true })
			expect(streamed.reasoning).toBe(FAKE_THOUGHT)
			expect(streamed.content).toBe('Hello from fake-gemini')
			expect(streamed.usage.completion_tokens).toBe(ANSWER_TOKENS + FAKE_THOUGHT_TOKENS)
			await expectBilled(streamed.usage.prompt_tokens, ANSWER_TOKENS + FAKE_THOUGHT_TOKENS)
		})

		test('Gemini 3 gets a thinkingLevel the model has: medium is high on Pro (low and high only) and medium on Flash', async () => {
			const pro = await chat({ model: GEMINI.proThree, reasoning_effort: 'medium' })
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'high', includeThoughts: true })
			expect((pro.choices[0]!.message as ReasoningMessage).reasoning_content).toBe(FAKE_THOUGHT)
			await chat({ model: GEMINI.flashThree, reasoning_effort: 'medium' })
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'medium', includeThoughts: true })
			await chat({ model: GEMINI.proThree, reasoning_effort: 'minimal' })
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'low', includeThoughts: true })
		})

		test('a Responses request on Gemini: reasoning.effort becomes a thinking budget and the thoughts come back as a reasoning item, streamed as reasoning text', async () => {
			const stream = await client.responses.create({ model: GEMINI.flash, input: 'Think, then say hello.', reasoning: { effort: 'low' }, stream: true })
			const events: OpenAI.Responses.ResponseStreamEvent[] = []
			for await (const event of stream) events.push(event)
			expect(gemini.requests.at(-1)!.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: true })
			const deltas = events.filter((event): event is OpenAI.Responses.ResponseReasoningTextDeltaEvent => event.type === 'response.reasoning_text.delta')
			expect(deltas.map((event) => event.delta).join('')).toBe(FAKE_THOUGHT)
			const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
			expect(completed.response.output.map((item) => item.type)).toEqual(['reasoning', 'message'])
			expect(completed.response.usage).toMatchObject({ output_tokens: ANSWER_TOKENS + FAKE_THOUGHT_TOKENS, output_tokens_details: { reasoning_tokens: FAKE_THOUGHT_TOKENS } })
			await expectBilled(completed.response.usage!.input_tokens, ANSWER_TOKENS + FAKE_THOUGHT_TOKENS)
		})
	})
}
