/**
 * Claude's thinking through the Responses bridge, driven by the official openai SDK as Codex uses
 * it (`store: false`, `include: ["reasoning.encrypted_content"]`, the whole conversation sent back
 * each turn): the reasoning item Ferry answers carries the signed thinking blocks in
 * `encrypted_content`, and the same item sent back gives the assistant turn its blocks, so a tool
 * loop keeps thinking on. The fake Claude refuses what Claude refuses: thinking in a tool loop whose
 * turn does not start with its thinking, and a thinking block it did not sign.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { databaseTargets } from '../helpers/database'
import { FAKE_SIGNATURE, FAKE_THINKING, startFakeClaudeModel, type FakeClaudeModel } from '../helpers/fake-claude-model'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'claude-sonnet-4-5'
const THINKING = FAKE_THINKING.join('')
const parameters = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false }
const tool = { type: 'function' as const, name: 'greet', parameters, strict: true }
const question: OpenAI.Responses.ResponseInputItem = { role: 'user', content: 'Greet Ann.' }
/** What Codex sends with every turn. */
const CODEX = { model: MODEL, tools: [tool], reasoning: { effort: 'high' as const, summary: 'auto' as const }, store: false, include: ['reasoning.encrypted_content' as const] }

type Item = OpenAI.Responses.ResponseOutputItem

for (const target of databaseTargets()) {
	describe(`Claude thinking through the Responses bridge, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let claude: FakeClaudeModel
		let client: OpenAI

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			// A tool offered is called unforced, as in a coding agent's loop.
			claude = startFakeClaudeModel({ toolCalls: true })
			const options = harness.ferry.dependencies.options
			await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [MODEL]: 1 }))
			await harness.createChannel({ type: 14, base_url: claude.url, key: 'sk-ant-channel', models: MODEL })
			client = harness.client((await harness.createToken()).key)
		})
		afterAll(async () => {
			await harness.close()
			await claude.stop()
		})

		/** The conversation sent back after a first answer that called the tool, as Codex sends it. */
		const followUp = (output: Item[]): OpenAI.Responses.ResponseInputItem[] => {
			const call = output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call')!
			return [question, ...(output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: 'greeted' }]
		}

		test('a reasoning item asked for with its encrypted content carries the thinking, and sent back in the tool loop it becomes the turn\'s signed thinking block, so Claude keeps thinking', async () => {
			const first = await client.responses.create({ ...CODEX, input: [question] })
			expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call'])
			const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem
			expect(reasoning.summary).toEqual([{ type: 'summary_text', text: THINKING }])
			expect(reasoning.encrypted_content).toEqual(expect.any(String))
			// Opaque to the client: nothing of the block shows as plain text.
			expect(reasoning.encrypted_content).not.toContain(FAKE_SIGNATURE)

			const second = await client.responses.create({ ...CODEX, input: followUp(first.output) })
			expect(second.status).toBe('completed')
			const sent = claude.requests.at(-1)!.body
			expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 })
			expect(sent.messages[1].role).toBe('assistant')
			expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: THINKING, signature: FAKE_SIGNATURE })
			expect(sent.messages[1].content[1]).toMatchObject({ type: 'tool_use', name: 'greet' })
			expect(second.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) })
		})

		test('streamed, the reasoning item of response.output_item.done and response.completed carries the encrypted content, and the loop keeps thinking', async () => {
			const stream = await client.responses.create({ ...CODEX, input: [question], stream: true })
			const events: OpenAI.Responses.ResponseStreamEvent[] = []
			for await (const event of stream) events.push(event)
			const done = events.find((event): event is OpenAI.Responses.ResponseOutputItemDoneEvent => event.type === 'response.output_item.done' && event.item.type === 'reasoning')!
			const completed = (events.at(-1) as OpenAI.Responses.ResponseCompletedEvent).response
			expect((done.item as OpenAI.Responses.ResponseReasoningItem).encrypted_content).toEqual(expect.any(String))
			expect(completed.output[0]).toEqual(done.item)

			const second = await client.responses.create({ ...CODEX, input: followUp(completed.output), stream: true })
			for await (const event of second) if (event.type === 'error') throw new Error(event.message)
			const sent = claude.requests.at(-1)!.body
			expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 })
			expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: THINKING, signature: FAKE_SIGNATURE })
		})

		test('without include the reasoning item has no encrypted content (as OpenAI answers), and the loop sent back goes without thinking rather than fail', async () => {
			const first = await client.responses.create({ ...CODEX, include: [], input: [question] })
			expect(first.output[0]).not.toHaveProperty('encrypted_content')
			const second = await client.responses.create({ ...CODEX, include: [], input: followUp(first.output) })
			expect(second.status).toBe('completed')
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
		})

		test('an OpenAI reasoning item (content only OpenAI can read) is left out for Claude; a tampered Ferry item reaches Claude, which refuses the block, and the client gets that 400', async () => {
			const first = await client.responses.create({ ...CODEX, input: [question] })
			const [reasoning, call] = first.output as [OpenAI.Responses.ResponseReasoningItem, Item]
			const foreign = { ...reasoning, encrypted_content: 'gAAAAABpOpenAIOwnEncryptedReasoning==' }
			const withForeign = await client.responses.create({ ...CODEX, input: followUp([foreign, call]) })
			expect(withForeign.status).toBe('completed')
			expect(claude.requests.at(-1)!.body).not.toHaveProperty('thinking')
			expect(JSON.stringify(claude.requests.at(-1)!.body)).not.toContain('gAAAAAB')

			const blocks = JSON.parse(Buffer.from(reasoning.encrypted_content!.slice(reasoning.encrypted_content!.indexOf('.') + 1), 'base64url').toString('utf8'))
			blocks[0].thinking = 'Something I never thought.'
			const forged = { ...reasoning, encrypted_content: `${reasoning.encrypted_content!.slice(0, reasoning.encrypted_content!.indexOf('.') + 1)}${Buffer.from(JSON.stringify(blocks)).toString('base64url')}` }
			const failure = await client.responses.create({ ...CODEX, input: followUp([forged, call]) }).catch((error: unknown) => error)
			expect(failure).toBeInstanceOf(OpenAI.APIError)
			expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(400)
			expect((failure as Error).message).toContain('Invalid `signature` in `thinking` block')
		})
	})
}
