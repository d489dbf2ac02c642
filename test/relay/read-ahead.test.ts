import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { auditLedger } from '@/billing/audit'
import type { BodyChunk, BodyReader } from '@/lib/outbound/body-guard'
import type { OutboundFetch } from '@/lib/outbound'
import { readAhead } from '@/relay/stages/read-ahead'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

/** `StreamCacheQueueLength`: the bound on stream chunks read from the upstream ahead of the client, per call. */
const encoder = new TextEncoder()
const decoder = new TextDecoder()
const settle = () => Bun.sleep(20)

/** A body of `count` chunks `c0`, `c1`, … that counts its reads, and may fail after them. */
function countingReader(count: number, failAtEnd = false) {
	let reads = 0
	let cancelled: unknown
	const reader: BodyReader = {
		async read(): Promise<BodyChunk> {
			const index = reads++
			if (index < count) return { done: false, value: encoder.encode(`c${index}`) }
			if (failAtEnd) throw new Error('upstream reset')
			return { done: true }
		},
		async cancel(reason) {
			cancelled = reason ?? 'cancelled'
		},
	}
	return { reader, reads: () => reads, cancelled: () => cancelled }
}

async function drain(reader: BodyReader) {
	const chunks: string[] = []
	for (;;) {
		const chunk = await reader.read()
		if (chunk.done) return chunks
		chunks.push(decoder.decode(chunk.value))
	}
}

describe('reading a stream ahead of the client', () => {
	test('with a bound, that many chunks are read before any is asked for, and one more for each one taken', async () => {
		const source = countingReader(10)
		const ahead = readAhead(source.reader, 3)
		await settle()
		expect(source.reads()).toBe(3)
		expect(decoder.decode((await ahead.read() as { value: Uint8Array }).value)).toBe('c0')
		await settle()
		expect(source.reads()).toBe(4)
		expect(await drain(ahead)).toEqual(Array.from({ length: 9 }, (_, index) => `c${index + 1}`))
	})

	test('with 0 nothing is read before the client asks: the reader itself is used', async () => {
		const source = countingReader(3)
		expect(readAhead(source.reader, 0)).toBe(source.reader)
		await settle()
		expect(source.reads()).toBe(0)
	})

	test('chunks read before an upstream failure still reach the client, then the failure', async () => {
		const source = countingReader(2, true)
		const ahead = readAhead(source.reader, 8)
		await settle()
		expect(decoder.decode((await ahead.read() as { value: Uint8Array }).value)).toBe('c0')
		expect(decoder.decode((await ahead.read() as { value: Uint8Array }).value)).toBe('c1')
		await expect(ahead.read()).rejects.toThrow('upstream reset')
	})

	test('cancelling drops what was read ahead and cancels the upstream', async () => {
		const source = countingReader(10)
		const ahead = readAhead(source.reader, 4)
		await settle()
		await ahead.cancel('client closed')
		expect(source.cancelled()).toBe('client closed')
		expect(await ahead.read()).toEqual({ done: true })
	})
})

describe('StreamCacheQueueLength in the relay', () => {
	const CHUNKS = 30
	let app: TestApp
	let root: Caller
	let tokenKey: string
	let pulls = 0

	/** An upstream answering every call with a stream that counts how often it was read. */
	const upstream = (async () => {
		let sent = 0
		const chunk = (payload: object) => encoder.encode(`data: ${JSON.stringify(payload)}\n\n`)
		const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini' }
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				pulls++
				if (sent < CHUNKS) controller.enqueue(chunk({ ...base, choices: [{ index: 0, delta: { content: `w${sent} ` }, finish_reason: null }] }))
				else if (sent === CHUNKS) controller.enqueue(chunk({ ...base, choices: [], usage: { prompt_tokens: 5, completion_tokens: CHUNKS, total_tokens: 5 + CHUNKS } }))
				else if (sent === CHUNKS + 1) controller.enqueue(encoder.encode('data: [DONE]\n\n'))
				else controller.close()
				sent++
			},
		}, { highWaterMark: 0 })
		return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
	}) as unknown as OutboundFetch

	beforeAll(async () => {
		app = await createTestApp(databaseTargets()[0]!, { fetch: upstream })
		root = await app.loginRoot()
		const channel = await app.call('POST', '/api/channel/', { as: root, body: { type: 1, name: 'streamer', key: 'sk-upstream-key', base_url: 'https://upstream.example.com', models: 'gpt-4o-mini', group: 'default' } })
		expect(channel.body.success).toBe(true)
		const token = await app.call('POST', '/api/token/', { as: root, body: { name: 'test', remain_quota: 0, unlimited_quota: true } })
		tokenKey = token.body.data[0].key
	})
	afterAll(() => app.close())

	const streamedCall = () => app.app.handle(new Request('http://localhost/v1/chat/completions', {
		method: 'POST',
		headers: { authorization: `Bearer ${tokenKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
	}))

	test('the upstream is read that many chunks ahead of a client that has not read yet, at 0 only as the client reads, and the answer is whole', async () => {
		const bound = 12
		for (const setting of [bound, 0]) {
			await app.dependencies.options.set('StreamCacheQueueLength', String(setting))
			pulls = 0
			const response = await streamedCall()
			expect(response.status).toBe(200)
			await settle()
			// The stream layers between the upstream and the client hold at most a chunk or two of their own.
			expect(pulls).toBeGreaterThanOrEqual(setting)
			expect(pulls).toBeLessThanOrEqual(setting + 2)
			const text = await response.text()
			expect(text.match(/"content":"w\d+ "/g)).toHaveLength(CHUNKS)
			expect(text.trim().endsWith('data: [DONE]')).toBe(true)
		}
		expect(await auditLedger(app.store)).toEqual([])
	})
})
