/**
 * Every client's calls on every kind of channel, through the Vercel AI SDK and LangChain as a user
 * would drive them: `generateText`, `streamText`, a tool call and `generateObject` from the OpenAI
 * (chat and Responses), Claude and Gemini client formats, on OpenAI, Claude (a model with native
 * structured outputs, and one without, which gets the tool fallback) and Gemini channels; and
 * LangChain's `withStructuredOutput` on a Claude channel from each format it speaks. The fakes answer
 * structured output as a constrained model would (JSON fitting the schema) and refuse what the real
 * APIs refuse (Claude's schema subset, Gemini's OpenAPI subset), so a format Ferry drops or mangles
 * on the way fails the call. Every call is billed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { ChatAnthropic } from '@langchain/anthropic'
import { ChatOpenAI } from '@langchain/openai'
import { generateObject, generateText, type LanguageModel, streamText, tool } from 'ai'
import { z } from 'zod'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import { startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'
import { startFakeGeminiModel, type FakeGeminiModel } from '../helpers/fake-gemini-model'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

// The AI SDK's warnings (a deprecated generateObject, unknown model names) are not what this file checks.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

const MODELS = {
	openai: 'gpt-4o-mini',
	/** Claude 4.5: `output_config.format`. */
	claudeNative: 'claude-sonnet-4-5',
	/** Before Claude 4.5: the tool fallback. */
	claudeOlder: 'claude-3-5-haiku-latest',
	gemini: 'gemini-2.5-flash',
} as const

const PERSON = z.object({ name: z.string(), age: z.number(), tags: z.array(z.string()), status: z.enum(['active', 'inactive']) })
/** What a model constrained to PERSON answers (test/helpers/schema-sample.ts). */
const SAMPLE_PERSON: z.infer<typeof PERSON> = { name: 'sample', age: 1, tags: ['sample'], status: 'active' }
/** LangChain's Claude client moves an `enum` into the description before sending: its schema has none. */
const PLAIN_PERSON = PERSON.omit({ status: true })
const { status: _, ...SAMPLE_PLAIN_PERSON } = SAMPLE_PERSON

type ClientName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'google'
const CLIENTS: ClientName[] = ['openai-chat', 'openai-responses', 'anthropic', 'google']

for (const target of databaseTargets()) {
	describe(`every client format on every channel through the AI SDK and LangChain, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let claude: FakeClaudeModel
		let gemini: FakeGeminiModel
		let key: string

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			const openai = harness.startUpstream({ toolCalls: true, toolArgumentsFromSchema: true })
			claude = startFakeClaudeModel({ toolCalls: true })
			gemini = startFakeGeminiModel({ toolCalls: true })
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...Object.fromEntries(Object.values(MODELS).map((model) => [model, 1])) }))
			await harness.createChannel({ type: 1, base_url: openai.url, models: MODELS.openai })
			await harness.createChannel({ type: 14, base_url: claude.url, key: 'sk-ant-channel', models: `${MODELS.claudeNative},${MODELS.claudeOlder}` })
			await harness.createChannel({ type: 24, base_url: gemini.url, key: 'gemini-channel-key', models: MODELS.gemini })
			key = (await harness.createToken()).key
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([claude.stop(), gemini.stop()])
		})

		const modelOf = (client: ClientName, model: string): LanguageModel => {
			const base = harness.baseUrl
			switch (client) {
				case 'openai-chat': return createOpenAI({ baseURL: `${base}/v1`, apiKey: key }).chat(model)
				case 'openai-responses': return createOpenAI({ baseURL: `${base}/v1`, apiKey: key }).responses(model)
				case 'anthropic': return createAnthropic({ baseURL: `${base}/v1`, apiKey: key })(model)
				case 'google': return createGoogleGenerativeAI({ baseURL: `${base}/v1beta`, apiKey: key })(model)
			}
		}

		const lastConsumeLog = async () => {
			const logs = await harness.ferry.call('GET', '/api/log/?page_size=5', { as: harness.root })
			return (logs.body.data.items as Record<string, any>[]).find((entry) => entry.type === LOG_TYPE.consume)!
		}

		for (const client of CLIENTS) {
			for (const model of Object.values(MODELS)) {
				test(`${client} client, ${model}: generateObject answers the schema's object, billed`, async () => {
					const { object } = await generateObject({ model: modelOf(client, model), schema: PERSON, prompt: 'Describe a person.', maxRetries: 0 })
					expect(object).toEqual(SAMPLE_PERSON)
					expect(await lastConsumeLog()).toMatchObject({ model_name: model })
				})

				test(`${client} client, ${model}: generateText and streamText answer the model's text`, async () => {
					const whole = await generateText({ model: modelOf(client, model), prompt: 'Say hello.', maxRetries: 0 })
					expect(whole.text).toMatch(/^Hello from fake-/)
					const streamed = streamText({ model: modelOf(client, model), prompt: 'Say hello.', maxRetries: 0 })
					let text = ''
					for await (const piece of streamed.textStream) text += piece
					expect(text).toBe(whole.text)
				})

				test(`${client} client, ${model}: a tool call comes back with its arguments`, async () => {
					const result = await generateText({
						model: modelOf(client, model),
						prompt: 'What is the weather in Paris?',
						tools: { weather: tool({ description: 'The weather of a place', inputSchema: z.object({ location: z.string() }) }) },
						maxRetries: 0,
					})
					expect(result.toolCalls).toHaveLength(1)
					expect(result.toolCalls[0]).toMatchObject({ toolName: 'weather', input: { location: expect.any(String) } })
				})
			}
		}

		test('the Claude channel gets output_config.format for Claude 4.5, in the subset it takes, and the tool fallback before it', async () => {
			await generateObject({ model: modelOf('openai-chat', MODELS.claudeNative), schema: z.object({ count: z.number().min(1).max(9), nested: z.object({ label: z.string().max(20) }) }), prompt: 'Count.', maxRetries: 0 })
			const native = claude.requests.at(-1)!.body
			expect(native.output_config.format).toEqual({
				type: 'json_schema',
				schema: {
					type: 'object',
					properties: { count: { type: 'number' }, nested: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false } },
					required: ['count', 'nested'],
					additionalProperties: false,
				},
			})
			expect(native.tools).toBeUndefined()
			await generateObject({ model: modelOf('openai-chat', MODELS.claudeOlder), schema: PERSON, prompt: 'Describe a person.', maxRetries: 0 })
			const fallback = claude.requests.at(-1)!.body
			expect(fallback.output_config).toBeUndefined()
			expect(fallback.tool_choice).toEqual({ type: 'tool', name: 'json_output' })
			expect(fallback.tools).toEqual([expect.objectContaining({ name: 'json_output', input_schema: expect.objectContaining({ type: 'object' }) })])
		})

		test('a streamed structured answer from the tool fallback reaches an OpenAI client as text that parses, finishing with stop', async () => {
			const stream = await harness.client(key).chat.completions.create({
				model: MODELS.claudeOlder, stream: true, messages: [{ role: 'user', content: 'Describe a person.' }],
				response_format: { type: 'json_schema', json_schema: { name: 'person', schema: z.toJSONSchema(PERSON) as Record<string, unknown> } },
			})
			let text = ''
			const finishes: (string | null)[] = []
			for await (const chunk of stream) {
				text += chunk.choices[0]?.delta.content ?? ''
				if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason)
				expect(chunk.choices[0]?.delta.tool_calls).toBeUndefined()
			}
			expect(JSON.parse(text)).toEqual(SAMPLE_PERSON)
			expect(finishes).toEqual(['stop'])
		})

		test('json_object on a Claude channel answers a JSON object through the fallback tool', async () => {
			const answer = await harness.client(key).chat.completions.create({ model: MODELS.claudeNative, messages: [{ role: 'user', content: 'Answer in JSON.' }], response_format: { type: 'json_object' } })
			expect(answer.choices[0]!.finish_reason).toBe('stop')
			expect(answer.choices[0]!.message.tool_calls).toBeUndefined()
			expect(JSON.parse(answer.choices[0]!.message.content!)).toEqual({})
		})

		test('a Gemini client\'s schema with upper-case types reaches an OpenAI-format upstream in JSON Schema\'s lower case', async () => {
			const answer = await fetch(`${harness.baseUrl}/v1beta/models/${MODELS.openai}:generateContent`, {
				method: 'POST',
				headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
				body: JSON.stringify({
					contents: [{ role: 'user', parts: [{ text: 'Describe a person.' }] }],
					generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'OBJECT', properties: { name: { type: 'STRING', nullable: true }, tags: { type: 'ARRAY', items: { type: 'STRING' } } }, required: ['name'] } },
				}),
			})
			expect(answer.status).toBe(200)
			const sent = harness.upstreams[0]!.requests.at(-1)!.body
			expect(sent.response_format.json_schema.schema).toEqual({ type: 'object', properties: { name: { type: ['string', 'null'] }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name'] })
		})

		for (const method of ['jsonSchema', 'functionCalling'] as const) {
			test(`LangChain's withStructuredOutput (${method}) on a Claude channel from the OpenAI chat, Responses and Claude formats`, async () => {
				for (const model of [MODELS.claudeNative, MODELS.claudeOlder]) {
					const chat = new ChatOpenAI({ model, apiKey: key, configuration: { baseURL: `${harness.baseUrl}/v1` }, maxRetries: 0 })
					expect(await chat.withStructuredOutput(PLAIN_PERSON, { method }).invoke('Describe a person.')).toEqual(SAMPLE_PLAIN_PERSON)
					const responses = new ChatOpenAI({ model, apiKey: key, configuration: { baseURL: `${harness.baseUrl}/v1` }, useResponsesApi: true, maxRetries: 0 })
					expect(await responses.withStructuredOutput(PLAIN_PERSON, { method }).invoke('Describe a person.')).toEqual(SAMPLE_PLAIN_PERSON)
					const anthropic = new ChatAnthropic({ model, apiKey: key, anthropicApiUrl: harness.baseUrl, maxRetries: 0 })
					// Claude's own JSON-schema mode needs a model that has it; its tool mode works on every model.
					const claudeMethod = method === 'jsonSchema' && model === MODELS.claudeOlder ? 'functionCalling' : method
					expect(await anthropic.withStructuredOutput(PLAIN_PERSON, { method: claudeMethod }).invoke('Describe a person.')).toEqual(SAMPLE_PLAIN_PERSON)
				}
			})
		}
	})
}
