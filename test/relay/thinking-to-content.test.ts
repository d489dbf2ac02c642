/**
 * The `thinking_to_content` rewrite of a chat stream (src/relay/upstream/channel-setting.ts) on its
 * own, for the cases a fake upstream does not produce: several choices, a tool call or the end right
 * after reasoning, and events that carry no reasoning keeping their upstream bytes.
 */
import { describe, expect, test } from 'bun:test'
import type { EventReader, Json, ReadEvent } from '@/relay/formats/events'
import { thinkingAsContentEvents } from '@/relay/upstream/channel-setting'

const chunk = (choices: Json[]): ReadEvent => ({ type: 'data', data: { object: 'chat.completion.chunk', choices }, raw: `data: ${JSON.stringify({ choices })}` })

function readerOf(events: ReadEvent[]): EventReader<ReadEvent> {
	let done = false
	return {
		async read() {
			if (done) return { events: [], done: true }
			done = true
			return { events, done: false }
		},
		async cancel() {},
	}
}

async function rewritten(events: ReadEvent[]) {
	const reader = thinkingAsContentEvents(readerOf(events))
	const { events: out } = await reader.read()
	return out
}

const textsByChoice = (events: ReadEvent[]) => {
	const texts: Record<number, string> = {}
	for (const event of events) {
		if (event.type !== 'data') continue
		for (const choice of event.data.choices) texts[choice.index] = (texts[choice.index] ?? '') + (choice.delta.content ?? '')
	}
	return texts
}

describe('reasoning written as <think> text in a stream', () => {
	test('keeps each choice\'s tags apart', async () => {
		const out = await rewritten([
			chunk([{ index: 0, delta: { reasoning_content: 'a' } }, { index: 1, delta: { reasoning_content: 'b' } }]),
			chunk([{ index: 0, delta: { content: 'A' } }, { index: 1, delta: { reasoning_content: 'c' } }]),
			chunk([{ index: 1, delta: { content: 'B' } }]),
		])
		expect(textsByChoice(out)).toEqual({ 0: '<think>a</think>A', 1: '<think>bc</think>B' })
	})

	test('closes the tag before a tool call, and at the end when the last reasoning comes with it', async () => {
		const toolCall = await rewritten([
			chunk([{ index: 0, delta: { reasoning: 'look it up' } }]),
			chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'search', arguments: '{}' } }] } }]),
		])
		expect(textsByChoice(toolCall)).toEqual({ 0: '<think>look it up</think>' })
		const ending = await rewritten([chunk([{ index: 0, delta: { reasoning_content: 'done' }, finish_reason: 'stop' }])])
		expect(textsByChoice(ending)).toEqual({ 0: '<think>done</think>' })
	})

	test('leaves an event without reasoning as the upstream sent it', async () => {
		const plain = chunk([{ index: 0, delta: { content: 'Hi' } }])
		const [out] = await rewritten([plain])
		expect(out).toBe(plain)
		expect(out).toHaveProperty('raw')
	})
})
