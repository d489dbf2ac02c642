/**
 * Formats meet through the OpenAI form: a Claude-format client on a Gemini channel. A tool-call
 * conversation goes Claude → OpenAI → Gemini and back without losing the tool's id, name,
 * arguments or an image.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { databaseTargets } from '../helpers/database'
import { type RelayHarness, startRelayHarness } from '../helpers/relay'
import { type FakeGemini, startFakeGemini } from '../fixtures/providers/gemini/fake-gemini'

const GEMINI_MODEL = 'gemini-2.0-flash'
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const weatherTool = {
	name: 'get_weather',
	description: 'Current weather',
	input_schema: { type: 'object' as const, properties: { location: { type: 'string' }, unit: { type: 'string' } }, required: ['location'] },
}

describe('a Claude-format client on a Gemini channel', () => {
	let harness: RelayHarness
	let gemini: FakeGemini
	let client: Anthropic

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		gemini = startFakeGemini()
		const options = harness.ferry.dependencies.options
		await options.set('ModelRatio', JSON.stringify({ ...options.get('ModelRatio'), [GEMINI_MODEL]: 1 }))
		await harness.createChannel({ type: 24, key: 'gemini-channel-key', base_url: gemini.url, models: GEMINI_MODEL })
		client = new Anthropic({ apiKey: (await harness.createToken()).key, baseURL: harness.baseUrl, maxRetries: 0 })
	})
	afterAll(async () => {
		await harness.close()
		await gemini.stop()
	})

	test('a Claude turn\'s text blocks, its system blocks and a tool result\'s blocks reach Gemini one per line, never run together, while an answer\'s pieces are joined as they are', async () => {
		await client.messages.create({
			model: GEMINI_MODEL, max_tokens: 200,
			system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.' }],
			messages: [
				{ role: 'user', content: [{ type: 'text', text: '<reminder>be careful</reminder>' }, { type: 'text', text: 'What is 2+2?' }] },
				{ role: 'assistant', content: [{ type: 'text', text: 'It is ' }, { type: 'text', text: 'four.' }, { type: 'tool_use', id: 'toolu_1', name: 'check', input: {} }] },
				{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'checked' }, { type: 'text', text: 'correct' }] }] },
			],
		})
		const sent = gemini.requests.at(-1)!.body
		expect(sent.systemInstruction).toEqual({ parts: [{ text: 'You are terse.\nAnswer in French.' }] })
		expect(sent.contents[0]).toEqual({ role: 'user', parts: [{ text: '<reminder>be careful</reminder>\nWhat is 2+2?' }] })
		expect(sent.contents[1].parts[0]).toEqual({ text: 'It is four.' })
		expect(sent.contents[2].parts[0].functionResponse.response).toEqual({ content: 'checked\ncorrect' })
	})

	test('a tool call and its result travel Claude → Gemini → Claude with the id, name, arguments and image kept', async () => {
		const first = await client.messages.create({
			model: GEMINI_MODEL, max_tokens: 200, tools: [weatherTool],
			messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }, { type: 'text', text: 'Weather where this photo was taken?' }] }],
		})
		const sentFirst = gemini.requests.at(-1)!.body
		expect(sentFirst.contents[0].parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: PIXEL } })
		expect(sentFirst.tools[0].functionDeclarations[0].name).toBe('get_weather')
		expect(first.stop_reason).toBe('tool_use')
		const toolUse = first.content.find((block) => block.type === 'tool_use')!
		expect(toolUse).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { location: 'Paris', unit: 'celsius' } })
		expect(toolUse.id).toBeTruthy()

		const second = await client.messages.create({
			model: GEMINI_MODEL, max_tokens: 200, tools: [weatherTool],
			messages: [
				{ role: 'user', content: 'Weather in Paris?' },
				{ role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
				{ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18 °C and sunny' }] },
			],
		})
		const sentSecond = gemini.requests.at(-1)!.body
		const modelTurn = sentSecond.contents.find((content: { role: string }) => content.role === 'model')
		expect(modelTurn.parts).toContainEqual(expect.objectContaining({ functionCall: expect.objectContaining({ name: 'get_weather', args: { location: 'Paris', unit: 'celsius' } }) }))
		const responsePart = sentSecond.contents.flatMap((content: { parts: Record<string, any>[] }) => content.parts).find((part: Record<string, any>) => part.functionResponse)
		expect(responsePart.functionResponse.name).toBe('get_weather')
		expect(JSON.stringify(responsePart.functionResponse.response)).toContain('18 °C and sunny')
		expect(second.content.some((block) => block.type === 'text' && block.text.length > 0)).toBe(true)
	})
})
