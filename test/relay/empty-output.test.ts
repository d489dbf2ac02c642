/**
 * Empty answers (docs/specification/pricing.md#empty-answers): an upstream that completes a call
 * with no output — OpenAI's `200` with an empty message or a `content_filter` finish and no text,
 * Claude's empty content list — and no completion tokens. With `ChargeEmptyOutputs` off (the
 * default) the call's hold is voided through the ledger and its consume line says, in the reader's
 * language, that it was not charged; with it on the call is charged for its prompt as before. An
 * answer with output is charged either way. The clients are the official SDKs, the upstreams fakes
 * speaking OpenAI's and Anthropic's wire formats, whole and streamed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { eq } from 'drizzle-orm'
import type OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import { carriesOutput, isEmptyOutput } from '@/relay/stages/empty-output'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/** Upstreams of OpenAI's format: one that answers nothing, one that filters everything, one that talks. */
const QUIET_GPT = 'quiet-gpt'
const FILTERED_GPT = 'filtered-gpt'
const CHATTY_GPT = 'chatty-gpt'
/** Upstreams of Anthropic's format. */
const QUIET_CLAUDE = 'quiet-claude'
const CHATTY_CLAUDE = 'chatty-claude'
const PROMPT_TOKENS = 40

type Client = 'openai' | 'anthropic'

/** The value of one Prometheus series (exact label set, any order), 0 when it is not exposed. */
function sample(text: string, name: string, labels: Record<string, string>): number {
	const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`).sort().join(',')
	for (const line of text.split('\n')) {
		const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
		if (!match || match[1] !== name) continue
		if ((match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/).filter(Boolean).sort().join(',') === wanted) return Number(match[3])
	}
	return 0
}
interface Call {
	client: Client
	model: string
	stream: boolean
}

/** What one call left behind: what the client got, what the wallet paid, its hold and its consume line. */
interface Outcome {
	text: string
	paid: number
	hold: { state: string; reason: string; charged: number }
	line: { quota: number; promptTokens: number; completionTokens: number; content: string; other: Record<string, any> }
}

describe('what an empty answer is, in each wire format', () => {
	const noTokens = { promptTokens: PROMPT_TOKENS, completionTokens: 0 }

	test('answers and stream events with no text, call, image or audio carry no output', () => {
		const silent = [
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: '', refusal: null }, finish_reason: 'content_filter' }] }],
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop' }] }],
			['openai', { choices: [] }],
			['openai', { choices: [{ index: 0, delta: { role: 'assistant', content: '', tool_calls: [] }, finish_reason: null }] }],
			['openai', { choices: [{ index: 0, text: '', finish_reason: 'stop' }] }],
			['claude', { type: 'message', content: [], stop_reason: 'end_turn' }],
			['claude', { type: 'message', content: [{ type: 'text', text: '' }] }],
			['claude', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
			['claude', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2ln' } }],
			['claude', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 0 } }],
			['gemini', { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 12 } }],
			['gemini', { candidates: [{ content: { role: 'model', parts: [{ text: '', thoughtSignature: 'c2ln' }] }, finishReason: 'STOP' }] }],
			['gemini', { candidates: [{ finishReason: 'SAFETY' }] }],
			['responses', { object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '' }] }] }],
			['responses', { type: 'response.output_text.delta', delta: '' }],
			['responses', { type: 'response.output_item.added', item: { type: 'reasoning', summary: [] } }],
		] as const
		for (const [wire, answer] of silent) expect({ wire, answer, output: carriesOutput(wire, answer) }).toEqual({ wire, answer, output: false })
	})

	test('text, refusals, reasoning, tool calls, images and audio are output, whole or as a stream event', () => {
		const said = [
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' } }] }],
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }] }],
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: '', reasoning_content: 'Thinking.' } }] }],
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] } }] }],
			['openai', { choices: [{ index: 0, message: { role: 'assistant', content: null, audio: { id: 'audio_1', data: 'UklG', transcript: '' } } }] }],
			['openai', { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] } }] }],
			['openai', { choices: [{ index: 0, text: 'Once' }] }],
			['claude', { type: 'message', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] }],
			['claude', { type: 'message', content: [{ type: 'redacted_thinking', data: 'EmwK' }] }],
			['claude', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }],
			['claude', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hm.' } }],
			['gemini', { candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBO' } }] } }] }],
			['gemini', { candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: {} } }] } }] }],
			['gemini', { candidates: [{ content: { parts: [{ text: 'Thinking.', thought: true }] } }] }],
			['responses', { object: 'response', output: [{ type: 'function_call', name: 'f', arguments: '{}', call_id: 'c1' }] }],
			['responses', { object: 'response', output: [{ type: 'image_generation_call', result: 'iVBO' }] }],
			['responses', { type: 'response.output_text.delta', delta: 'Hi' }],
			['responses', { type: 'response.completed', response: { output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }] } }],
		] as const
		for (const [wire, answer] of said) expect({ wire, answer, output: carriesOutput(wire, answer) }).toEqual({ wire, answer, output: true })
	})

	test('only chat and completions answers can be empty, and only with no completion tokens, text or audio', () => {
		expect(isEmptyOutput('chat', noTokens, false)).toBe(true)
		expect(isEmptyOutput('completions', noTokens, false)).toBe(true)
		expect(isEmptyOutput('chat', noTokens, true)).toBe(false)
		// Tokens the upstream reports it generated (hidden reasoning, say) are billed to the operator: the answer is charged.
		expect(isEmptyOutput('chat', { ...noTokens, completionTokens: 3 }, false)).toBe(false)
		expect(isEmptyOutput('chat', { ...noTokens, audioCompletionTokens: 5 }, false)).toBe(false)
		for (const endpoint of ['embeddings', 'rerank', 'image-generations', 'speech', 'transcriptions', 'moderations', 'videos'] as const) {
			expect({ endpoint, empty: isEmptyOutput(endpoint, noTokens, false) }).toEqual({ endpoint, empty: false })
		}
	})
})

for (const target of databaseTargets()) {
	describe(`empty answers on ${target.dialect}`, () => {
		let harness: RelayHarness
		let quiet: FakeOpenAI
		let quietChannel: number
		let quietClaude: FakeClaudeModel
		let chattyClaude: FakeClaudeModel
		let openAI: OpenAI
		let anthropic: Anthropic

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			quiet = harness.startUpstream({ reply: '', promptTokens: PROMPT_TOKENS })
			const filtered = harness.startUpstream({ reply: '', promptTokens: PROMPT_TOKENS, finishReason: 'content_filter' })
			const chatty = harness.startUpstream({ promptTokens: PROMPT_TOKENS })
			quietClaude = startFakeClaudeModel({ empty: true })
			chattyClaude = startFakeClaudeModel()
			const options = harness.ferry.dependencies.options
			const ratios = Object.fromEntries([QUIET_GPT, FILTERED_GPT, CHATTY_GPT, QUIET_CLAUDE, CHATTY_CLAUDE].map((model) => [model, 1]))
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...ratios }))
			quietChannel = await harness.createChannel({ name: 'quiet', base_url: quiet.url, models: QUIET_GPT })
			await harness.createChannel({ name: 'filtered', base_url: filtered.url, models: FILTERED_GPT })
			await harness.createChannel({ name: 'chatty', base_url: chatty.url, models: CHATTY_GPT })
			await harness.createChannel({ name: 'quiet claude', type: 14, key: 'sk-ant-quiet', base_url: quietClaude.url, models: QUIET_CLAUDE })
			await harness.createChannel({ name: 'chatty claude', type: 14, key: 'sk-ant-chatty', base_url: chattyClaude.url, models: CHATTY_CLAUDE })
			const { key } = await harness.createToken()
			openAI = harness.client(key)
			anthropic = new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 })
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([quietClaude.stop(), chattyClaude.stop()])
		})

		/** Makes the call; answers the text the client read and the request id Ferry gave it. */
		async function send({ client, model, stream }: Call): Promise<{ text: string; requestId: string }> {
			const messages = [{ role: 'user' as const, content: 'Say something, or nothing at all.' }]
			if (client === 'openai') {
				if (!stream) {
					const { data, response } = await openAI.chat.completions.create({ model, messages }).withResponse()
					return { text: data.choices[0]?.message.content ?? '', requestId: response.headers.get('x-ferry-request-id')! }
				}
				const { data, response } = await openAI.chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } }).withResponse()
				let text = ''
				for await (const chunk of data) text += chunk.choices[0]?.delta?.content ?? ''
				return { text, requestId: response.headers.get('x-ferry-request-id')! }
			}
			if (!stream) {
				const { data, response } = await anthropic.messages.create({ model, max_tokens: 64, messages }).withResponse()
				return { text: data.content.map((block) => (block.type === 'text' ? block.text : '')).join(''), requestId: response.headers.get('x-ferry-request-id')! }
			}
			const { data, response } = await anthropic.messages.create({ model, max_tokens: 64, messages, stream: true }).withResponse()
			let text = ''
			for await (const event of data) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text
			return { text, requestId: response.headers.get('x-ferry-request-id')! }
		}

		/**
		 * What the call paid is what its hold charged: on Postgres a busy wallet is held from the
		 * node's allowance of it, so the balance itself moves by slices (the audit checks they add up).
		 */
		async function callAndRead(call: Call): Promise<Outcome> {
			const { text, requestId } = await send(call)
			expect(requestId).toBeTruthy()
			const { quotaHolds, logs } = harness.ferry.store.tables
			const [hold] = await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.requestId, requestId))
			const lines = await harness.ferry.store.db.select().from(logs).where(eq(logs.requestId, requestId))
			expect(lines).toHaveLength(1)
			const [line] = lines
			expect(line!.type).toBe(LOG_TYPE.consume)
			return {
				text,
				paid: hold!.charged,
				hold: { state: hold!.state, reason: hold!.reason, charged: hold!.charged },
				line: { quota: line!.quota, promptTokens: line!.promptTokens, completionTokens: line!.completionTokens, content: line!.content, other: JSON.parse(line!.other) },
			}
		}

		const EMPTY_CALLS: Call[] = [
			{ client: 'openai', model: QUIET_GPT, stream: false },
			{ client: 'openai', model: QUIET_GPT, stream: true },
			{ client: 'openai', model: FILTERED_GPT, stream: false },
			{ client: 'openai', model: FILTERED_GPT, stream: true },
			{ client: 'anthropic', model: QUIET_CLAUDE, stream: false },
			{ client: 'anthropic', model: QUIET_CLAUDE, stream: true },
			// Converted: an OpenAI client on a Claude channel.
			{ client: 'openai', model: QUIET_CLAUDE, stream: false },
			{ client: 'openai', model: QUIET_CLAUDE, stream: true },
		]
		const FULL_CALLS: Call[] = [
			{ client: 'openai', model: CHATTY_GPT, stream: false },
			{ client: 'openai', model: CHATTY_GPT, stream: true },
			{ client: 'anthropic', model: CHATTY_CLAUDE, stream: false },
			{ client: 'anthropic', model: CHATTY_CLAUDE, stream: true },
		]
		const named = (call: Call) => `${call.model} to the ${call.client} SDK${call.stream ? ', streamed' : ''}`

		test('by default an empty answer is not charged: its hold is voided and its consume line says why, whole or streamed, OpenAI or Claude', async () => {
			await harness.ferry.dependencies.options.set('ChargeEmptyOutputs', 'false')
			for (const call of EMPTY_CALLS) {
				const outcome = await callAndRead(call)
				expect({ call: named(call), text: outcome.text, paid: outcome.paid }).toEqual({ call: named(call), text: '', paid: 0 })
				expect(outcome.hold).toEqual({ state: 'voided', reason: 'empty_output', charged: 0 })
				expect(outcome.line).toMatchObject({ quota: 0, completionTokens: 0 })
				expect(outcome.line.promptTokens).toBeGreaterThan(0)
				expect(outcome.line.content).toContain('not charged')
				expect(outcome.line.other).toMatchObject({ not_charged: true, not_charged_reason: 'empty_output', log_line: { code: 'call.empty_output' } })
			}
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('with ChargeEmptyOutputs on an empty answer is charged for its prompt, whole or streamed, OpenAI or Claude', async () => {
			await harness.ferry.dependencies.options.set('ChargeEmptyOutputs', 'true')
			try {
				for (const call of EMPTY_CALLS) {
					const outcome = await callAndRead(call)
					expect({ call: named(call), charged: outcome.paid > 0 }).toEqual({ call: named(call), charged: true })
					expect(outcome.hold).toEqual({ state: 'settled', reason: '', charged: outcome.paid })
					expect(outcome.line).toMatchObject({ quota: outcome.paid, completionTokens: 0, content: '' })
					expect(outcome.line.other.not_charged).toBeUndefined()
				}
			} finally {
				await harness.ferry.dependencies.options.set('ChargeEmptyOutputs', 'false')
			}
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('an answer with output is charged whatever ChargeEmptyOutputs says', async () => {
			for (const setting of ['false', 'true']) {
				await harness.ferry.dependencies.options.set('ChargeEmptyOutputs', setting)
				for (const call of FULL_CALLS) {
					const outcome = await callAndRead(call)
					expect(outcome.text).toContain('Hello from')
					expect({ call: named(call), setting, charged: outcome.paid > 0 }).toEqual({ call: named(call), setting, charged: true })
					expect(outcome.hold).toMatchObject({ state: 'settled', charged: outcome.paid })
					expect(outcome.line.completionTokens).toBeGreaterThan(0)
					expect(outcome.line.other.not_charged).toBeUndefined()
				}
			}
			await harness.ferry.dependencies.options.set('ChargeEmptyOutputs', 'false')
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})

		test('an empty answer that was not charged still counts for the metrics: a successful call with its prompt tokens and no quota', async () => {
			const labels = { endpoint: 'chat', model: QUIET_GPT, channel: String(quietChannel) }
			const scrape = async () => await (await fetch(`${harness.baseUrl}/metrics`)).text()
			const before = await scrape()
			await send({ client: 'openai', model: QUIET_GPT, stream: false })
			await send({ client: 'openai', model: QUIET_GPT, stream: true })
			const after = await scrape()
			expect(sample(after, 'ferry_relay_calls_total', { ...labels, outcome: 'success' }) - sample(before, 'ferry_relay_calls_total', { ...labels, outcome: 'success' })).toBe(2)
			expect(sample(after, 'ferry_relay_prompt_tokens_total', labels) - sample(before, 'ferry_relay_prompt_tokens_total', labels)).toBe(2 * PROMPT_TOKENS)
			expect(sample(after, 'ferry_relay_quota_charged_total', labels)).toBe(sample(before, 'ferry_relay_quota_charged_total', labels))
		})

		test('an empty answer that was not charged is not kept by the response cache: the same call asks the upstream again', async () => {
			const options = harness.ferry.dependencies.options
			await options.set('ResponseCacheSeconds', '60')
			try {
				for (const stream of [false, true]) {
					const asked = quiet.requests.length
					const first = await callAndRead({ client: 'openai', model: QUIET_GPT, stream })
					const second = await callAndRead({ client: 'openai', model: QUIET_GPT, stream })
					expect(quiet.requests.length - asked).toBe(2)
					for (const outcome of [first, second]) expect(outcome.hold).toEqual({ state: 'voided', reason: 'empty_output', charged: 0 })
				}
			} finally {
				await options.set('ResponseCacheSeconds', '0')
			}
		})

		test('the log list words the empty answer\'s line in the reader\'s language', async () => {
			const { requestId } = await send({ client: 'openai', model: QUIET_GPT, stream: false })
			const read = (language: string) => harness.ferry.call('GET', `/api/log/self?request_id=${requestId}`, { as: harness.root, headers: { 'accept-language': language } })
			const chinese = await read('zh-CN')
			expect(chinese.body.data.items).toHaveLength(1)
			expect(chinese.body.data.items[0]).toMatchObject({ quota: 0, content: expect.stringContaining('不计费') })
			const english = await read('en')
			expect(english.body.data.items[0].content).toContain('the call was not charged')
		})
	})
}
