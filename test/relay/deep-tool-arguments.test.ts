/**
 * Tool-call arguments nested 100 000 levels deep (issue 26 item 6). The body's own nesting is
 * bounded when it is read, but an OpenAI-format tool call's `arguments` is JSON text inside a
 * string: the Claude and Gemini converters parsed it and then recursed through it, holding the
 * server for most of a second before answering 502. Such arguments are now a 400 in the caller's
 * format (OpenAI chat, Responses, Claude and Gemini clients alike; the latter two send arguments as
 * objects, bounded by the body reader), nothing reaches the upstream or stays held, and another
 * client's `/api/status` keeps answering within the bound while they are sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { median, probeWhile } from '../helpers/stall-probe'
import { startFakeAnthropic, type FakeAnthropic } from '../fixtures/providers/anthropic/fake-upstream'
import { startFakeGemini, type FakeGemini } from '../fixtures/providers/gemini/fake-gemini'

const CLAUDE_MODEL = 'claude-sonnet-4-5'
const GEMINI_MODEL = 'gemini-2.5-flash'
const STATUS_BOUND_MS = 300
const FUNDS = 10_000_000
const LEVELS = 100_000
/** 200 KB of `[[[…]]]`: the finding's arguments. */
const DEEP_ARGUMENTS = '['.repeat(LEVELS) + ']'.repeat(LEVELS)
/** The same nesting as an object field's value, written as JSON text (no client library can serialise it). */
const DEEP_VALUE = DEEP_ARGUMENTS

const tool = { type: 'function', function: { name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: {} } } }

/** An OpenAI chat body whose assistant turn called a tool with the deep arguments. */
const chatBody = (model: string, stream = false) => JSON.stringify({
	model, stream, tools: [tool],
	messages: [
		{ role: 'user', content: 'Look it up.' },
		{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: DEEP_ARGUMENTS } }] },
		{ role: 'tool', tool_call_id: 'call_1', content: 'found' },
	],
})

/** A Responses API body carrying the deep arguments in a function_call item. */
const responsesBody = (model: string) => JSON.stringify({
	model,
	input: [
		{ role: 'user', content: 'Look it up.' },
		{ type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: DEEP_ARGUMENTS },
		{ type: 'function_call_output', call_id: 'call_1', output: 'found' },
	],
})

/** A Claude Messages body whose tool_use input nests the same way, as JSON text. */
const claudeBody = (model: string) => `{"model":${JSON.stringify(model)},"max_tokens":64,"messages":[{"role":"user","content":"Look it up."},`
	+ `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"query":${DEEP_VALUE}}}]},`
	+ '{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"found"}]}]}'

/** A Gemini body whose functionCall args nest the same way, as JSON text. */
const geminiBody = () => '{"contents":[{"role":"user","parts":[{"text":"Look it up."}]},'
	+ `{"role":"model","parts":[{"functionCall":{"name":"lookup","args":{"query":${DEEP_VALUE}}}}]},`
	+ '{"role":"user","parts":[{"functionResponse":{"name":"lookup","response":{"content":"found"}}}]}]}'

for (const target of databaseTargets()) {
	describe(`deeply nested tool-call arguments on ${target.dialect}`, () => {
		let harness: RelayHarness
		let claude: FakeAnthropic
		let gemini: FakeGemini
		let key: string
		let userId: number

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			claude = startFakeAnthropic()
			gemini = startFakeGemini()
			const { options } = harness.ferry.dependencies
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [CLAUDE_MODEL]: 1, [GEMINI_MODEL]: 1 }))
			await harness.createChannel({ type: 14, key: 'sk-ant-channel-key', base_url: claude.url, models: CLAUDE_MODEL })
			await harness.createChannel({ type: 24, key: 'gemini-channel-key', base_url: gemini.url, models: GEMINI_MODEL })
			const user = await harness.ferry.createUser('deep-user')
			userId = user.userId
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: userId, quota: FUNDS } })
			key = (await harness.createToken({ name: 'deep-token' }, user)).key
		})
		afterAll(async () => {
			await harness.close()
			await Promise.all([claude.stop(), gemini.stop()])
		})

		const post = (path: string, body: string) => fetch(`${harness.baseUrl}${path}`, {
			method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key }, body,
		})
		const upstreamCalls = () => claude.requests.length + gemini.requests.length
		async function ledger() {
			const { users, quotaHolds } = harness.ferry.store.tables
			const [user] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
			const holds = await harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.userId, userId))
			return { quota: user!.quota, pending: holds.filter((hold) => hold.state === 'pending').length }
		}

		test('OpenAI chat calls with them are a 400 in OpenAI\'s shape on Claude and Gemini channels, streamed or not, with nothing sent or held', async () => {
			const before = { ledger: await ledger(), calls: upstreamCalls() }
			for (const model of [CLAUDE_MODEL, GEMINI_MODEL]) {
				for (const stream of [false, true]) {
					const response = await post('/v1/chat/completions', chatBody(model, stream))
					expect(response.status).toBe(400)
					expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('more than 64 levels deep') } })
				}
			}
			expect(upstreamCalls()).toBe(before.calls)
			expect(await ledger()).toEqual(before.ledger)
		})

		test('Responses API calls with them in a function_call item are a 400 in OpenAI\'s shape on Claude and Gemini channels', async () => {
			const calls = upstreamCalls()
			for (const model of [CLAUDE_MODEL, GEMINI_MODEL]) {
				const response = await post('/v1/responses', responsesBody(model))
				expect(response.status).toBe(400)
				expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('more than 64 levels deep') } })
			}
			expect(upstreamCalls()).toBe(calls)
		})

		test('Claude and Gemini clients sending them as tool input objects get a 400 in their own shapes, on either channel', async () => {
			const calls = upstreamCalls()
			for (const model of [CLAUDE_MODEL, GEMINI_MODEL]) {
				const fromClaude = await post('/v1/messages', claudeBody(model))
				expect(fromClaude.status).toBe(400)
				expect(await fromClaude.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
				const fromGemini = await post(`/v1beta/models/${model}:generateContent`, geminiBody())
				expect(fromGemini.status).toBe(400)
				expect(await fromGemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } })
			}
			expect(upstreamCalls()).toBe(calls)
		})

		test('arguments nested as deep as allowed still reach a Claude channel as the tool_use input', async () => {
			const allowed = '['.repeat(64) + ']'.repeat(64)
			const body = JSON.parse(chatBody(CLAUDE_MODEL))
			body.messages[1].tool_calls[0].function.arguments = allowed
			const response = await post('/v1/chat/completions', JSON.stringify(body))
			expect(response.status).toBe(200)
			const sent = claude.requests.at(-1)!.body
			const toolUse = sent.messages[1].content.find((block: { type: string }) => block.type === 'tool_use')
			expect(JSON.stringify(toolUse.input)).toBe(allowed)
		})

		test('a tool result nested too deeply to be parsed reaches a Gemini channel as text', async () => {
			const body = JSON.parse(chatBody(GEMINI_MODEL))
			body.messages[1].tool_calls[0].function.arguments = '{"query":"weather"}'
			body.messages[2].content = DEEP_ARGUMENTS
			const response = await post('/v1/chat/completions', JSON.stringify(body))
			expect(response.status).toBe(200)
			const sent = gemini.requests.at(-1)!.body
			const result = sent.contents.flatMap((content: { parts: Record<string, any>[] }) => content.parts).find((part: Record<string, any>) => part.functionResponse)
			expect(result.functionResponse).toMatchObject({ name: 'lookup', response: { content: DEEP_ARGUMENTS } })
		})

		for (const [channel, model] of [['Claude', CLAUDE_MODEL], ['Gemini', GEMINI_MODEL]] as const) {
			test(`while a client keeps sending them to a ${channel} channel, /api/status answers others within 300 ms`, async () => {
				const { attacks, latencies } = await probeWhile(harness.baseUrl, () => post('/v1/chat/completions', chatBody(model)))
				for (const attack of attacks) expect(attack.status).toBe(400)
				expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
			})
		}
	})
}
