/**
 * Server-sent events, read lazily, for the converters between wire formats and the relay's stream
 * reader (events.ts): one upstream read per pull, so memory stays bounded and a slow client slows
 * the upstream.
 */
import type { BodyReader } from '@/lib/outbound'

export interface SseEvent {
	/** The `event:` field, when the stream names its events (Claude does). */
	event: string | undefined
	/** The `data:` lines joined with newlines. */
	data: string
	/**
	 * Every other field by name: `id:`, and non-standard ones such as Zhipu's `meta:`. A field sent
	 * twice in one event keeps its last value; one leading space is dropped, as SSE prescribes.
	 */
	fields: Record<string, string>
}

export interface SseReadOptions {
	/**
	 * Keep the `data:` values exactly as sent. SSE drops one space after the colon, but some
	 * upstreams (Zhipu v3) send raw text there, where that space is part of the text.
	 */
	rawData?: boolean
}

const EVENT_SEPARATOR = /\r?\n\r?\n/
const LINE_BREAK = /\r?\n/

/** One event block; undefined when it has neither data nor a name (a comment, or text that is not SSE). */
function parseEvent(text: string, rawData: boolean): SseEvent | undefined {
	let event: string | undefined
	const data: string[] = []
	const fields: Record<string, string> = {}
	for (const line of text.split(/\r?\n/)) {
		const colon = line.indexOf(':')
		// `: comment` lines and lines without a value carry nothing a converter reads.
		if (colon <= 0) continue
		const name = line.slice(0, colon)
		const value = line.slice(colon + 1)
		const trimmed = value[0] === ' ' ? value.slice(1) : value
		if (name === 'data') data.push(rawData ? value : trimmed)
		else if (name === 'event') event = trimmed.trim()
		else fields[name] = trimmed
	}
	if (data.length === 0 && event === undefined) return undefined
	return { event, data: data.join('\n'), fields }
}

/**
 * The `data:` lines of one event block joined with newlines, as SSE prescribes ('' when it has none).
 * On the hot path of every stream: a block of one `data:` line, the usual case, costs one slice.
 */
export function dataOf(block: string): string {
	if (block.startsWith('data:') && !block.includes('\n')) return block.slice(block[5] === ' ' ? 6 : 5)
	let data: string | undefined
	for (const line of block.split(LINE_BREAK)) {
		if (!line.startsWith('data:')) continue
		const value = line.slice(line[5] === ' ' ? 6 : 5)
		data = data === undefined ? value : `${data}\n${value}`
	}
	return data ?? ''
}

interface SseBlockReader {
	/**
	 * The event blocks that one upstream read completed, each as sent (without the blank line that
	 * ended it); at the end of the body `done` is true and the blocks include what was left.
	 * Errors of the body pass through.
	 */
	read(): Promise<{ blocks: string[]; done: boolean }>
	cancel(reason?: unknown): Promise<void>
}

/**
 * The one place a body is cut into events. Taps that pass a stream on as it came (same format, or
 * OpenAI's) read blocks; converters read parsed events (readSseEvents).
 */
export function readSseBlocks(reader: BodyReader): SseBlockReader {
	const decoder = new TextDecoder()
	let pending = ''
	return {
		async read() {
			const { done, value } = await reader.read()
			if (done) {
				const rest = pending + decoder.decode()
				pending = ''
				return { blocks: rest.trim() ? [rest] : [], done: true }
			}
			pending += decoder.decode(value, { stream: true })
			const blocks = pending.split(EVENT_SEPARATOR)
			pending = blocks.pop() ?? ''
			return { blocks, done: false }
		},
		cancel: (reason) => reader.cancel(reason),
	}
}

interface SseEventReader {
	/** The next event, or undefined at the end of the stream. Errors of the body pass through. */
	next(): Promise<SseEvent | undefined>
	cancel(reason?: unknown): Promise<void>
}

export function readSseEvents(reader: BodyReader, { rawData = false }: SseReadOptions = {}): SseEventReader {
	const blocks = readSseBlocks(reader)
	const ready: SseEvent[] = []
	let ended = false
	return {
		async next() {
			for (;;) {
				const queued = ready.shift()
				if (queued) return queued
				if (ended) return undefined
				const read = await blocks.read()
				ended = read.done
				for (const block of read.blocks) {
					const event = parseEvent(block, rawData)
					if (event) ready.push(event)
				}
			}
		},
		cancel: (reason) => blocks.cancel(reason),
	}
}

const encoder = new TextEncoder()

/** A body that is one prepared text, for answers converted whole. */
export function textReader(text: string): BodyReader {
	let sent = false
	return {
		async read() {
			if (sent) return { done: true }
			sent = true
			return { done: false, value: encoder.encode(text) }
		},
		async cancel() {
			sent = true
		},
	}
}

