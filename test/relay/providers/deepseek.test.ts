import { describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { failureOf, type RecordedRequest, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'deepseek-chat'
const REASONER = 'deepseek-reasoner'
const REASONING = 'The user wants the weather in Paris. I should call get_weather.'
const weatherTool = { name: 'get_weather', description: 'Current weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } }

/**
 * DeepSeek in thinking mode (deepseek-reasoner) refuses a conversation whose tool-call turn comes
 * back without the `reasoning_content` it answered with, as its API does (api-docs.deepseek.com,
 * thinking mode, tool calls): a 400 naming the message.
 */
function refuseLostReasoning(request: RecordedRequest): Response | undefined {
	if (request.body?.model !== REASONER || !Array.isArray(request.body.messages)) return undefined
	const index = request.body.messages.findIndex((message: Record<string, unknown>) => message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0 && typeof message.reasoning_content !== 'string')
	if (index < 0) return undefined
	const message = `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`
	return Response.json({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }, { status: 400 })
}

describe('the DeepSeek provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'deepseek',
		modelRatio: { 'deepseek-chat': 1, 'deepseek-reasoner': 1 },
		cacheRatio: { 'deepseek-chat': 0.1, 'deepseek-reasoner': 0.1 },
		channels: [{ type: CHANNEL_TYPE.deepseek, key: 'sk-deepseek-key', models: 'deepseek-chat,deepseek-reasoner' }],
		intercept: refuseLostReasoning,
	})
	const claudeClient = async () => new Anthropic({ apiKey: (await suite.harness.createToken()).key, baseURL: suite.harness.baseUrl, maxRetries: 0 })
	/** The assistant message of the last request DeepSeek accepted. */
	const sentAssistant = () => suite.upstream.requests.at(-1)!.body.messages.find((message: { role: string }) => message.role === 'assistant')

	test('sends chat to /chat/completions and bills the usage the upstream reported', async () => {
		const answer = await suite.expectChat(MODEL, {
			path: '/chat/completions',
			authorization: 'Bearer sk-deepseek-key',
			content: 'Hello! How can I help you today?',
			usage: { prompt_tokens: 1000, completion_tokens: 20 },
			log: { model_name: MODEL, prompt_tokens: 1000, completion_tokens: 20, quota: 389 },
		})
		// (1000 − 768) + 768 × 0.1 + 20 × 4 (default completion ratio) ≈ 389: the cache hits bill at the cache ratio and are not counted twice.
		expect((await suite.lastLog()).other).toMatchObject({ cache_tokens: 768 })
		expect(answer.usage?.prompt_tokens_details?.cached_tokens).toBe(768)
	})

	test('counts the cache hits once when DeepSeek also reports them in OpenAI\'s convention', async () => {
		suite.upstream.answerWith('chat-both-cache-fields.json')
		await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
		expect(await suite.lastLog()).toMatchObject({ prompt_tokens: 1000, completion_tokens: 20, quota: 389, other: { cache_tokens: 768 } })
	})

	test('streams reasoning and content deltas through and bills the last chunk\'s usage with its cache hits', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: 'deepseek-reasoner', messages: [{ role: 'user', content: 'Hello' }], stream: true })
		let text = ''
		let reasoning = ''
		for await (const chunk of stream) {
			const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string | null } | undefined
			text += delta?.content ?? ''
			reasoning += delta?.reasoning_content ?? ''
		}
		expect(text).toBe('Hello!')
		expect(reasoning).toBe('A greeting.')
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
		// (400 − 256) + 256 × 0.1 + 30 × 4 ≈ 290
		expect(await suite.lastLog()).toMatchObject({ model_name: 'deepseek-reasoner', is_stream: true, prompt_tokens: 400, completion_tokens: 30, quota: 290, other: { cache_tokens: 256 } })
	})

	test('ends the client\'s stream with an error event when DeepSeek sends a malformed one', async () => {
		suite.upstream.answerWith('chat-stream-malformed.sse')
		const response = await fetch(`${suite.harness.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${(await suite.harness.createToken()).key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true }),
		})
		expect(await response.text()).toContain('the upstream sent a malformed stream event')
	})

	test('passes tools upstream and returns the tool call', () => suite.expectToolCall(MODEL, 'call_0_8a1d5d8f-6c8b-4a2e-9f41-2e5b7c3d1a90', { prompt_tokens: 120, completion_tokens: 24 }))

	test('hands an upstream error to the client with its status and message', () => suite.expectUpstreamError(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-insufficient-balance.json', 402, 'Insufficient Balance'))

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-authentication.json'))

	describe('a Claude client (Claude Code with thinking and tools) in a tool-call loop on deepseek-reasoner', () => {
		test('gets the reasoning as a thinking block, and its tool-call turn goes back with the thinking as reasoning_content, which DeepSeek accepts', async () => {
			const client = await claudeClient()
			suite.upstream.answerWith('chat-thinking-tools.json')
			const question = { role: 'user' as const, content: 'Weather in Paris?' }
			const first = await client.messages.create({ model: REASONER, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool], messages: [question] })
			expect(first.stop_reason).toBe('tool_use')
			expect(first.content[0]).toEqual({ type: 'thinking', thinking: REASONING, signature: '' })
			const toolUse = first.content.find((block) => block.type === 'tool_use')!
			expect(toolUse).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } })

			suite.upstream.answerWith('chat.json')
			const second = await client.messages.create({
				model: REASONER, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool],
				messages: [question, { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18 °C and sunny' }] }],
			})
			expect(second.content).toContainEqual(expect.objectContaining({ type: 'text', text: 'Hello! How can I help you today?' }))
			expect(sentAssistant()).toMatchObject({ role: 'assistant', reasoning_content: REASONING, tool_calls: [{ id: toolUse.id, function: { name: 'get_weather' } }] })
			// Nothing of Claude's own form travels: no thinking blocks, no signature field.
			expect(suite.upstream.requests.at(-1)!.rawBody).not.toContain('claude_thinking')
			expect(suite.upstream.requests.at(-1)!.rawBody).not.toContain('signature')
		})

		test('streamed, as Claude Code asks, the thinking and the tool call come back and the follow-up carries the reasoning', async () => {
			const client = await claudeClient()
			suite.upstream.answerWith('chat-thinking-tools-stream.sse')
			const question = { role: 'user' as const, content: 'Weather in Paris?' }
			const first = await client.messages.stream({ model: REASONER, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool], messages: [question] }).finalMessage()
			expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use'])
			expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: REASONING })

			suite.upstream.answerWith('chat-stream.sse')
			const toolUse = first.content.find((block) => block.type === 'tool_use')!
			const second = await client.messages.stream({
				model: REASONER, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [weatherTool],
				messages: [question, { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18 °C and sunny' }] }],
			}).finalMessage()
			expect(second.content).toContainEqual(expect.objectContaining({ type: 'text', text: 'Hello!' }))
			expect(sentAssistant()).toMatchObject({ reasoning_content: REASONING })
		})

		test('a client that drops the thinking gets DeepSeek\'s own refusal, unbilled', async () => {
			const client = await claudeClient()
			const before = await suite.lastConsumeLog()
			const failure = await failureOf(client.messages.create({
				model: REASONER, max_tokens: 2048, tools: [weatherTool],
				messages: [
					{ role: 'user', content: 'Weather in Paris?' },
					{ role: 'assistant', content: [{ type: 'tool_use', id: 'call_00_Xq3mT8vKp2RbN7sLw4YdHc1f', name: 'get_weather', input: { city: 'Paris' } }] },
					{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_00_Xq3mT8vKp2RbN7sLw4YdHc1f', content: '18 °C' }] },
				],
			})) as unknown as InstanceType<typeof Anthropic.APIError>
			expect(failure).toBeInstanceOf(Anthropic.APIError)
			expect(failure.status).toBe(400)
			expect(failure.message).toContain('Missing `reasoning_content` field in the assistant message at message index 1')
			expect((await suite.lastConsumeLog())?.id).toBe(before?.id)
		})
	})

	test('Codex on deepseek-reasoner through the Responses bridge: the reasoning item it keeps (encrypted_content, as it asks) brings the tool-call turn\'s reasoning_content back, which DeepSeek requires', async () => {
		suite.upstream.answerWith('chat-thinking-tools.json')
		const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { ...weatherTool.input_schema, additionalProperties: false }, strict: true }]
		const codex = { model: REASONER, tools, store: false, include: ['reasoning.encrypted_content' as const], reasoning: { effort: 'high' as const, summary: 'auto' as const } }
		const question = { role: 'user' as const, content: 'Weather in Paris?' }
		const first = await suite.client.responses.create({ ...codex, input: [question] })
		expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call'])
		const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall

		suite.upstream.answerWith('chat.json')
		const second = await suite.client.responses.create({ ...codex, input: [question, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '18 °C' }] })
		expect(second.output_text).toBe('Hello! How can I help you today?')
		expect(sentAssistant()).toMatchObject({ role: 'assistant', reasoning_content: REASONING, tool_calls: [{ id: call.call_id }] })
		expect(suite.upstream.requests.at(-1)!.rawBody).not.toContain('signature')
	})

	test('an OpenAI client sending back reasoning_content itself gets it to DeepSeek as it wrote it', async () => {
		suite.upstream.answerWith('chat.json')
		const messages = [
			{ role: 'user', content: 'Weather in Paris?' },
			{ role: 'assistant', content: '', reasoning_content: REASONING, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
			{ role: 'tool', tool_call_id: 'call_1', content: '18 °C' },
		]
		const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: weatherTool.input_schema } }]
		const answer = await suite.client.chat.completions.create({ model: REASONER, messages: messages as never, tools })
		expect(answer.choices[0]!.message.content).toBe('Hello! How can I help you today?')
		expect(sentAssistant()).toEqual(messages[1])
	})
})
