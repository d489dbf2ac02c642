/**
 * `POST /v1/responses/compact` through the official openai SDK (`responses.compact`): on OpenAI and
 * Azure channels the request reaches the upstream's compaction call with only the model mapped, the
 * compacted response comes back as it came, and the call is billed by the usage the upstream
 * reported; a model no channel that speaks the Responses API serves is refused with a 400 in
 * OpenAI's shape before anything is held or sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { LOG_TYPE } from '@shared/log'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { failureOf } from '../helpers/fixture-upstream'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'

const MODEL = 'gpt-5'
const AZURE_MODEL = 'gpt-4.1'
const CLAUDE_MODEL = 'claude-sonnet-4-5'
const PROMPT_TOKENS = 3000
const COMPLETION_TOKENS = 40
const MODEL_RATIO = 0.625
const COMPLETION_RATIO = 8
const QUOTA = Math.round((PROMPT_TOKENS + COMPLETION_TOKENS * COMPLETION_RATIO) * MODEL_RATIO)

const conversation: OpenAI.Responses.ResponseInput = [
	{ role: 'user', content: 'Find the bug in fizz_buzz().' },
	{ role: 'assistant', content: 'The loop starts at 0.' },
	{ role: 'user', content: 'Fix it.' },
]

for (const target of databaseTargets()) {
	describe(`responses.compact on ${target.dialect}`, () => {
		let harness: RelayHarness
		let openai: FakeOpenAI
		let azure: FakeOpenAI
		let claude: FakeClaudeModel
		let client: OpenAI

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			openai = harness.startUpstream({ promptTokens: PROMPT_TOKENS, completionTokens: COMPLETION_TOKENS })
			azure = harness.startUpstream({ promptTokens: PROMPT_TOKENS, completionTokens: COMPLETION_TOKENS })
			claude = startFakeClaudeModel()
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ [MODEL]: MODEL_RATIO, [AZURE_MODEL]: MODEL_RATIO, [CLAUDE_MODEL]: 1 }))
			await options.set('CompletionRatio', JSON.stringify({ [MODEL]: COMPLETION_RATIO, [AZURE_MODEL]: COMPLETION_RATIO }))
			await harness.createChannel({ type: 1, base_url: openai.url, models: MODEL })
			await harness.createChannel({ type: 3, base_url: azure.url, key: 'azure-key', models: AZURE_MODEL })
			await harness.createChannel({ type: 14, base_url: claude.url, key: 'sk-ant', models: CLAUDE_MODEL })
			client = harness.client((await harness.createToken()).key)
		})
		afterAll(async () => {
			await harness.close()
			await claude.stop()
		})

		const lastLog = async () => ((await harness.ferry.call('GET', '/api/log/?page_size=5', { as: harness.root })).body.data.items as Record<string, any>[])[0]!

		test('compacts on an OpenAI channel: the request reaches /v1/responses/compact, the compacted response comes back, billed by its usage', async () => {
			const compacted = await client.responses.compact({ model: MODEL, input: conversation, instructions: 'You are Codex.' })
			expect(compacted.object).toBe('response.compaction')
			expect(compacted.output.at(-1)).toMatchObject({ type: 'compaction', encrypted_content: expect.stringContaining('compacted') })
			expect(compacted.output.filter((item) => item.type === 'message')).toHaveLength(2)
			expect(compacted.usage).toMatchObject({ input_tokens: PROMPT_TOKENS, output_tokens: COMPLETION_TOKENS })
			const sent = openai.requests.at(-1)!
			expect(sent).toMatchObject({ method: 'POST', path: '/v1/responses/compact' })
			expect(sent.headers.authorization).toBe('Bearer sk-upstream-key')
			expect(sent.body).toEqual({ model: MODEL, input: conversation, instructions: 'You are Codex.' })
			expect(await lastLog()).toMatchObject({ type: LOG_TYPE.consume, model_name: MODEL, prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, quota: QUOTA, is_stream: false })
		})

		test('compacts on an Azure channel under its v1 route, the deployment named in the body', async () => {
			await client.responses.compact({ model: AZURE_MODEL, input: conversation })
			const sent = azure.requests.at(-1)!
			expect(sent).toMatchObject({ method: 'POST', path: '/openai/v1/responses/compact' })
			expect(sent.headers['api-key']).toBe('azure-key')
			expect(sent.body.model).toBe('gpt-41')
			expect(await lastLog()).toMatchObject({ model_name: AZURE_MODEL, quota: QUOTA })
		})

		test('a model only a chat channel serves is refused with a 400 in OpenAI\'s shape, nothing held or sent', async () => {
			const before = claude.requests.length
			const holds = async () => (await harness.ferry.store.read<{ count: number }>('SELECT count(*) AS count FROM quota_holds'))[0]!.count
			const heldBefore = Number(await holds())
			const failure = await failureOf(client.responses.compact({ model: CLAUDE_MODEL, input: conversation }))
			expect(failure?.status).toBe(400)
			expect(failure?.error).toMatchObject({ type: 'invalid_request_error', code: 'endpoint_not_supported', message: expect.stringContaining('compaction') })
			expect(claude.requests.length).toBe(before)
			expect(Number(await holds())).toBe(heldBefore)
		})

		test('a stream field is left out: the compaction is answered whole', async () => {
			const answer = await fetch(`${harness.baseUrl}/v1/responses/compact`, {
				method: 'POST', headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: MODEL, input: 'hello', stream: true }),
			})
			expect(answer.status).toBe(200)
			expect((await answer.json()).object).toBe('response.compaction')
			expect(openai.requests.at(-1)!.body).toEqual({ model: MODEL, input: 'hello' })
		})
	})
}
