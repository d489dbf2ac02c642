import { describe, expect, test } from 'bun:test'
import type { BodyReader } from '@/lib/outbound'
import { readSseEvents } from '@/relay/formats/sse'

const encoder = new TextEncoder()

/** A body answering `pieces` one read at a time. */
function bodyOf(pieces: string[]): BodyReader {
	return {
		async read() {
			const piece = pieces.shift()
			return piece === undefined ? { done: true } : { done: false, value: encoder.encode(piece) }
		},
		async cancel() {},
	}
}

async function allEvents(pieces: string[], rawData?: boolean) {
	const events = readSseEvents(bodyOf(pieces), { rawData })
	const read = []
	for (let event = await events.next(); event; event = await events.next()) read.push(event)
	return read
}

describe('the shared SSE reader', () => {
	test('keeps id and non-standard fields, split across reads anywhere', async () => {
		const stream = 'event: finish\r\nid: 42\r\ndata: done\r\nmeta: {"usage":{"total_tokens":3}}\r\n\r\n: keep-alive\n\ndata: {"a":1}\ndata: {"b":2}\n\n'
		// Seven characters a read: fields, line ends and event ends all fall across reads.
		expect(await allEvents(stream.match(/[\s\S]{1,7}/g)!)).toEqual([
			{ event: 'finish', data: 'done', fields: { id: '42', meta: '{"usage":{"total_tokens":3}}' } },
			{ event: undefined, data: '{"a":1}\n{"b":2}', fields: {} },
		])
	})

	test('drops the space after data: unless told the data is raw text', async () => {
		const stream = ['event:add\ndata: Hello\n\n', 'event:add\ndata:  world\n\n']
		expect((await allEvents([...stream])).map((event) => event.data)).toEqual(['Hello', ' world'])
		expect((await allEvents([...stream], true)).map((event) => event.data)).toEqual([' Hello', '  world'])
	})

	test('reads a last event that has no blank line after it, and skips text that is not SSE', async () => {
		expect(await allEvents(['{"code": 1261,\n"msg": "refused"}\n\n', 'id: 7\ndata: tail'])).toEqual([{ event: undefined, data: 'tail', fields: { id: '7' } }])
	})
})
