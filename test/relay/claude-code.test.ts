/**
 * What Claude Code (the `@anthropic-ai/claude-code` CLI, 2.1.197, print mode) sends, replayed through
 * the official Anthropic SDK: a `system`-role entry inside `messages`, adaptive thinking, context
 * management, an effort setting, cached system blocks, tools, metadata, `?beta=true` and the
 * `anthropic-beta` header, streamed. An Anthropic channel must receive it exactly as sent; any other
 * channel gets it converted, never refused. Both are billed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startFixtureUpstream, type FixtureUpstream } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const CLAUDE_MODEL = 'claude-sonnet-4-20250514'
/** Routed to the Anthropic channel, whose model mapping sends it upstream as CLAUDE_MODEL. */
const MAPPED_MODEL = 'claude-code-default'
const OPENAI_MODEL = 'gpt-4o-mini'
const CHANNEL_KEY = 'sk-ant-channel-key'
const NON_STREAMING_TIMEOUT_MS = 60_000
/** Claude Code's bundled SDK (0.94) calls `/v1/messages?beta=true`; this SDK's beta namespace no longer adds the query itself. */
const BETA_QUERY = { query: { beta: 'true' } }
const BETAS = ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'context-management-2025-06-27', 'effort-2025-11-24', 'mid-conversation-system-2026-04-07']

const readTool = {
	name: 'Read',
	description: 'Reads a file from the local filesystem.',
	input_schema: {
		$schema: 'https://json-schema.org/draft/2020-12/schema',
		type: 'object' as const,
		properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' } },
		required: ['file_path'],
		additionalProperties: false,
	},
}

/** The shape of Claude Code's second call of a session: the tool result of a Read, after a thinking block shown as omitted. */
function claudeCodeRequest(model: string) {
	return {
		model,
		max_tokens: 32000,
		system: [
			{ type: 'text' as const, text: 'x-anthropic-billing-header: cc_version=2.1.197.123; cc_entrypoint=sdk-cli;' },
			{ type: 'text' as const, text: 'You are a Claude agent, built on Anthropic\'s Claude Agent SDK.', cache_control: { type: 'ephemeral' as const } },
			{ type: 'text' as const, text: 'You are an interactive agent that helps users with software engineering tasks.', cache_control: { type: 'ephemeral' as const } },
		],
		messages: [
			{ role: 'user' as const, content: [
				{ type: 'text' as const, text: '<system-reminder>\nToday\'s date is 2026-11-24.\n</system-reminder>' },
				{ type: 'text' as const, text: 'read the file hello.txt', cache_control: { type: 'ephemeral' as const } },
			] },
			{ role: 'system' as const, content: 'Available agent types for the Agent tool:\n- Explore: read-only search agent' },
			{ role: 'assistant' as const, content: [
				{ type: 'thinking' as const, thinking: '', signature: 'EqQBCgIYAhIM-omitted-thinking' },
				{ type: 'tool_use' as const, id: 'toolu_01Read', name: 'Read', input: { file_path: '/work/hello.txt' } },
			] },
			{ role: 'user' as const, content: [
				{ type: 'tool_result' as const, tool_use_id: 'toolu_01Read', content: '1\tferry says hello', cache_control: { type: 'ephemeral' as const } },
			] },
		],
		tools: [readTool],
		metadata: { user_id: JSON.stringify({ device_id: 'fa29416fc030fdf6', account_uuid: '', session_id: 'cada1540-a639-41f8' }) },
		thinking: { type: 'adaptive' as const, display: 'omitted' as const },
		context_management: { edits: [{ type: 'clear_thinking_20251015' as const, keep: 'all' as const }] },
		output_config: { effort: 'high' as const },
	} satisfies Anthropic.Beta.Messages.MessageCreateParamsNonStreaming
}

/** An SDK client that remembers the exact bytes and the headers of each request it sends. */
function recordingClient(apiKey: string, baseURL: string) {
	const sent: { body: string; headers: Headers }[] = []
	const client = new Anthropic({
		apiKey, baseURL, maxRetries: 0,
		fetch: async (url, init) => {
			if (typeof init?.body === 'string') sent.push({ body: init.body, headers: new Headers(init.headers) })
			return fetch(url, init)
		},
	})
	return { client, sent }
}

for (const target of databaseTargets()) {
	describe(`Claude Code's request shape through the Anthropic SDK on ${target.dialect}`, () => {
		let harness: RelayHarness
		let anthropic: FixtureUpstream
		let openAI: FakeOpenAI
		let client: Anthropic
		let sent: { body: string; headers: Headers }[]

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			anthropic = startFixtureUpstream('anthropic', { answer: 'stream.sse' })
			openAI = harness.startUpstream({ promptTokens: 700, completionTokens: 20 })
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MAPPED_MODEL]: 1.5 }))
			await harness.createChannel({ type: 14, key: CHANNEL_KEY, base_url: anthropic.url, models: `${CLAUDE_MODEL},${MAPPED_MODEL}`, model_mapping: JSON.stringify({ [MAPPED_MODEL]: CLAUDE_MODEL }) })
			await harness.createChannel({ base_url: openAI.url, models: OPENAI_MODEL })
			;({ client, sent } = recordingClient((await harness.createToken()).key, harness.baseUrl))
		})
		beforeEach(() => {
			anthropic.requests.length = 0
			anthropic.answerWith('stream.sse')
			sent.length = 0
		})
		afterAll(async () => {
			await harness.close()
			await anthropic.stop()
		})

		const lastLog = async () => {
			const answer = await harness.ferry.call('GET', '/api/log/?page_size=1', { as: harness.root })
			return answer.body.data.items[0] as Record<string, any>
		}

		test('an Anthropic channel receives the streamed request exactly as the client sent it, beta header and query included, and the call is billed', async () => {
			const stream = client.beta.messages.stream({ ...claudeCodeRequest(CLAUDE_MODEL), betas: BETAS }, BETA_QUERY)
			const types: string[] = []
			stream.on('streamEvent', (event) => types.push(event.type))
			const message = await stream.finalMessage()
			expect(message.content as unknown).toEqual([{ type: 'text', text: 'Hello from Claude' }])
			expect(message.usage).toMatchObject({ input_tokens: 25, cache_read_input_tokens: 1000, output_tokens: 15 })
			expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'])

			const received = anthropic.requests.at(-1)!
			expect(received.path).toBe('/v1/messages')
			expect(received.query.get('beta')).toBe('true')
			expect(received.headers['anthropic-beta']).toBe(BETAS.join(','))
			// The client wrote its body for its own API version; the SDK's is newer than Ferry's default.
			expect(received.headers['anthropic-version']).toBe(sent.at(-1)!.headers.get('anthropic-version')!)
			expect(received.headers['x-api-key']).toBe(CHANNEL_KEY)
			expect(received.rawBody).toBe(sent.at(-1)!.body)
			expect(received.body).toEqual({ ...claudeCodeRequest(CLAUDE_MODEL), stream: true })

			expect(await lastLog()).toMatchObject({ model_name: CLAUDE_MODEL, prompt_tokens: 1025, completion_tokens: 15, is_stream: true, quota: expect.any(Number) })
			expect((await lastLog()).quota).toBeGreaterThan(0)
		})

		test('a mapped model reaches the Anthropic channel under its upstream name with every other field untouched, and is billed under the asked name', async () => {
			anthropic.answerWith('message.json')
			// A whole answer of 32 000 tokens needs a timeout the SDK would not pick itself.
			const message = await client.beta.messages.create({ ...claudeCodeRequest(MAPPED_MODEL), betas: BETAS }, { ...BETA_QUERY, timeout: NON_STREAMING_TIMEOUT_MS })
			expect(message.content as unknown).toEqual([{ type: 'text', text: 'Hello! How can I help you today?' }])
			expect(anthropic.requests.at(-1)!.body).toEqual(claudeCodeRequest(CLAUDE_MODEL))
			expect(await lastLog()).toMatchObject({ model_name: MAPPED_MODEL, prompt_tokens: 2312, completion_tokens: 10, is_stream: false })
		})

		test('with answer checking on, an Anthropic channel\'s stream is converted so that a listed word in it is masked', async () => {
			const options = harness.ferry.dependencies.options
			const settings = { CheckSensitiveEnabled: 'true', CheckSensitiveOnCompletionEnabled: 'true', StopOnSensitiveEnabled: 'false', SensitiveWords: 'from Claude' }
			const previous = Object.fromEntries(Object.keys(settings).map((name) => [name, String(options.get(name as never))]))
			for (const [name, value] of Object.entries(settings)) await options.set(name, value)
			try {
				const message = await client.messages.stream({ model: CLAUDE_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Say hello' }] }).finalMessage()
				expect(message.content as unknown).toEqual([{ type: 'text', text: 'Hello **###**' }])
				expect((await lastLog()).other).toMatchObject({ admin_info: { sensitive_words: ['from Claude'] }, sensitive_action: 'masked' })
			} finally {
				for (const [name, value] of Object.entries(previous)) await options.set(name, value)
			}
		})

		test('count_tokens takes the same shape with ?beta=true and the beta header', async () => {
			const { max_tokens: _, metadata: __, ...counted } = claudeCodeRequest(CLAUDE_MODEL)
			const tokens = await client.beta.messages.countTokens({ ...counted, betas: BETAS }, BETA_QUERY)
			expect(tokens.input_tokens).toBeGreaterThan(0)
		})

		test('an OpenAI channel gets the shape converted instead of refused: the system entry as a system message, Claude-only settings dropped, and the call is billed', async () => {
			const message = await client.beta.messages.stream({ ...claudeCodeRequest(OPENAI_MODEL), betas: BETAS }, BETA_QUERY).finalMessage()
			expect(message.content as unknown).toEqual([{ type: 'text', text: 'Hello from fake-openai' }])
			expect(message.usage).toMatchObject({ input_tokens: 700, output_tokens: 20 })

			const received = openAI.requests.at(-1)!.body
			expect(received.messages.map((entry: { role: string }) => entry.role)).toEqual(['system', 'user', 'system', 'assistant', 'tool'])
			expect(received.messages[2]).toEqual({ role: 'system', content: 'Available agent types for the Agent tool:\n- Explore: read-only search agent' })
			expect(received.messages[3].tool_calls).toEqual([{ id: 'toolu_01Read', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/work/hello.txt"}' } }])
			expect(received.messages[4]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_01Read', content: '1\tferry says hello' })
			expect(received.tools).toEqual([{ type: 'function', function: { name: 'Read', description: readTool.description, parameters: readTool.input_schema } }])
			expect(received).toMatchObject({ model: OPENAI_MODEL, max_tokens: 32000, stream: true, stream_options: { include_usage: true }, user: claudeCodeRequest(OPENAI_MODEL).metadata.user_id })
			for (const field of ['thinking', 'context_management', 'output_config', 'metadata', 'system']) expect(received).not.toHaveProperty(field)
			expect(JSON.stringify(received)).not.toContain('EqQBCgIYAhIM-omitted-thinking')

			expect(await lastLog()).toMatchObject({ model_name: OPENAI_MODEL, prompt_tokens: 700, completion_tokens: 20, is_stream: true })
		})
	})
}
