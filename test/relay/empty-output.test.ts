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
import { databaseTargets } from '../helpers/database'
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

for (const target of databaseTargets()) {
	describe(`empty answers on ${target.dialect}`, () => {
		let harness: RelayHarness
		let quietClaude: FakeClaudeModel
		let chattyClaude: FakeClaudeModel
		let openAI: OpenAI
		let anthropic: Anthropic

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			const quiet = harness.startUpstream({ reply: '', promptTokens: PROMPT_TOKENS })
			const filtered = harness.startUpstream({ reply: '', promptTokens: PROMPT_TOKENS, finishReason: 'content_filter' })
			const chatty = harness.startUpstream({ promptTokens: PROMPT_TOKENS })
			quietClaude = startFakeClaudeModel({ empty: true })
			chattyClaude = startFakeClaudeModel()
			const options = harness.ferry.dependencies.options
			const ratios = Object.fromEntries([QUIET_GPT, FILTERED_GPT, CHATTY_GPT, QUIET_CLAUDE, CHATTY_CLAUDE].map((model) => [model, 1]))
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), ...ratios }))
			await harness.createChannel({ name: 'quiet', base_url: quiet.url, models: QUIET_GPT })
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
