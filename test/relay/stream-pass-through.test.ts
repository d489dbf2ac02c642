/**
 * A stream whose client speaks the upstream's wire format passes through unread (issue 18): the
 * client gets the upstream's bytes, and only the events billing needs are parsed. The pipeline from
 * the upstream's body to the client's bytes, as the meter stage (stages/meter.ts) assembles it, without the HTTP around it.
 */
import { describe, expect, test } from 'bun:test'
import type { Usage } from '@/billing/price'
import { countText } from '@/billing/tokenizer'
import type { BodyReader } from '@/lib/outbound'
import { readSseAnswerEvents } from '@/relay/formats/events'
import { openAIClientFormat } from '@/relay/formats/openai/client'
import { openAIWire } from '@/relay/formats/openai/wire'
import { meterStream, type StreamResult } from '@/relay/stages/stream-meter'

const encoder = new TextEncoder()

/** A body answering `pieces` one read at a time, then the end, or a reset where `resetAfter` says. */
function bodyOf(pieces: string[], resetAfter?: number): BodyReader {
	let reads = 0
	return {
		async read() {
			if (resetAfter !== undefined && reads++ >= resetAfter) throw new Error('socket reset')
			const piece = pieces.shift()
			return piece === undefined ? { done: true } : { done: false, value: encoder.encode(piece) }
		},
		async cancel() {},
	}
}

/** Unknown fields, unusual spacing and key order: what a byte-exact pass-through must keep. */
const chunk = (content: string) => `data:{"choices":[{"delta":{"content":${JSON.stringify(content)}},"index":0,"x_vendor":{"score":0.5}}],  "id":"c1","usage":null}`
const usageChunk = 'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10},"x_trace":"t-1"}'
const DONE = 'data: [DONE]'
const REPLY = ['Hello', ' there', ', friend']

function relayed(pieces: string[], { includeUsage = false, resetAfter }: { includeUsage?: boolean; resetAfter?: number } = {}) {
	let result: StreamResult | undefined
	const events = meterStream(readSseAnswerEvents(bodyOf(pieces, resetAfter), { deferParsing: true }), openAIWire.stream(), {
		includeUsage,
		onFirstContent() {},
		async onEnd(ended) {
			result = ended
			return ended.end === 'completed' && ended.usage ? ended.usage : { promptTokens: 0, completionTokens: 0 } satisfies Usage
		},
	})
	const text = new Response(openAIClientFormat.stream(events, 'openai', { channelId: 1, keyIndex: 0 })).text()
	return { text, result: async () => {
		await text
		return result!
	} }
}

describe('a stream passed through to a client of the same wire format', () => {
	test('reaches the client as the upstream\'s bytes, unknown fields and all, and bills the usage the upstream reported', async () => {
		const blocks = [...REPLY.map(chunk), usageChunk, DONE]
		const call = relayed(blocks.map((block) => `${block}\n\n`), { includeUsage: true })
		expect(await call.text).toBe(blocks.map((block) => `${block}\n\n`).join(''))
		const result = await call.result()
		expect(result.end).toBe('completed')
		expect(result.usage).toMatchObject({ promptTokens: 7, completionTokens: 3 })
	})

	test('still drops the usage-only chunk for a client that did not ask for usage, and bills it', async () => {
		const call = relayed([...REPLY.map(chunk), usageChunk, DONE].map((block) => `${block}\n\n`))
		const text = await call.text
		expect(text).toBe([...REPLY.map(chunk), DONE].map((block) => `${block}\n\n`).join(''))
		expect((await call.result()).usage).toMatchObject({ promptTokens: 7, completionTokens: 3 })
	})

	test('counts the text of the events it passed unread when the upstream reports no usage', async () => {
		const call = relayed([...REPLY.map(chunk), DONE].map((block) => `${block}\n\n`))
		await call.text
		const result = await call.result()
		expect(result.usage).toBeUndefined()
		expect(result.text).toBe(REPLY.join(''))
	})

	test('ends a cut-off event with an error event, without passing it on, and counts what was delivered', async () => {
		const call = relayed([`${chunk(REPLY[0]!)}\n\n`, `${chunk(REPLY[1]!)}\n\n`, 'data: {"choices":[{"delta":\n\n', `${usageChunk}\n\n`, `${DONE}\n\n`])
		const events = (await call.text).split('\n\n').filter(Boolean)
		expect(events.slice(0, 2)).toEqual([chunk(REPLY[0]!), chunk(REPLY[1]!)])
		expect(events).toHaveLength(3)
		expect(JSON.parse(events[2]!.slice('data: '.length)).error.code).toBe('upstream_malformed')
		const result = await call.result()
		expect(result.end).toBe('malformed')
		expect(result.text).toBe(REPLY[0]! + REPLY[1]!)
		expect(await countText(result.text)).toBeGreaterThan(0)
	})

	test('counts what the upstream sent before a reset, events passed unread included', async () => {
		const call = relayed(REPLY.map((content) => `${chunk(content)}\n\n`), { resetAfter: 3 })
		const events = (await call.text).split('\n\n').filter(Boolean)
		expect(JSON.parse(events.at(-1)!.slice('data: '.length)).error.code).toBe('upstream_reset')
		const result = await call.result()
		expect(result.end).toBe('upstream_failed')
		expect(result.text).toBe(REPLY.join(''))
	})
})
