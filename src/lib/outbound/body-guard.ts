/**
 * Guards a response body so it errors when the server goes quiet for longer than the idle limit or
 * sends more than the size limit (counted after decompression, so a small compressed body cannot
 * expand past it). The idle clock runs only while the reader waits: a slow consumer is not idle.
 *
 * The guard is a reader (`guardReader`), so a consumer that reads chunks itself — the relay's
 * stream tap, a whole-body read — pays for no extra stream layer; the client wraps the same
 * reader as a ReadableStream (`readerStream`) for callers that want a fetch-shaped Response.
 */
import { OutboundTimeoutError, OutboundTooLargeError } from './errors'

interface BodyLimits {
	idleMilliseconds: number
	maxBytes: number
	/** For messages: scheme, host and port. */
	target: string
	/** Turns an error of the underlying stream into one safe to show (or passes it through). */
	translate(error: unknown): unknown
	/** Called once when the guard gives up on the body, to close the connection. */
	stop(reason: unknown): void
	/** Called once the body ended, failed or was cancelled. */
	done?(): void
}

/** One read of a body: a chunk, or the end. */
export type BodyChunk = { done: false; value: Uint8Array } | { done: true; value?: undefined }

/** The part of a stream reader that body consumers use. */
export interface BodyReader {
	read(): Promise<BodyChunk>
	cancel(reason?: unknown): Promise<void>
}

export function guardReader(body: ReadableStream<Uint8Array>, limits: BodyLimits): BodyReader {
	const reader = body.getReader()
	let received = 0
	// One watchdog timer for the whole body instead of a timer per chunk: a read in progress since
	// `waitingSince` fails once it has waited the idle limit.
	let waitingSince: number | undefined
	let watchdog: ReturnType<typeof setTimeout> | undefined
	let failed: unknown
	let finished = false
	const finish = () => {
		if (finished) return
		finished = true
		clearTimeout(watchdog)
		limits.done?.()
	}

	const fail = (reason: unknown): never => {
		failed ??= reason
		finish()
		limits.stop(reason)
		reader.cancel(reason).catch(() => {})
		throw reason
	}

	const arm = (delay: number) => {
		watchdog = setTimeout(() => {
			watchdog = undefined
			if (waitingSince === undefined) return
			const waited = performance.now() - waitingSince
			if (waited < limits.idleMilliseconds) return arm(limits.idleMilliseconds - waited)
			const error = new OutboundTimeoutError('idle', limits.target, limits.idleMilliseconds)
			failed ??= error
			limits.stop(error)
			reader.cancel(error).catch(() => {})
		}, delay)
	}

	return {
		async read() {
			if (failed) return fail(failed)
			if (finished) return { done: true, value: undefined }
			waitingSince = performance.now()
			if (watchdog === undefined) arm(limits.idleMilliseconds)
			let chunk: Awaited<ReturnType<typeof reader.read>>
			try {
				chunk = await reader.read()
			} catch (error) {
				return fail(failed ?? limits.translate(error))
			} finally {
				waitingSince = undefined
			}
			if (failed) return fail(failed)
			if (chunk.done) {
				finish()
				return { done: true }
			}
			received += chunk.value.byteLength
			if (received > limits.maxBytes) return fail(new OutboundTooLargeError(limits.target, limits.maxBytes))
			return chunk as BodyChunk
		},
		cancel(reason) {
			finish()
			return reader.cancel(reason)
		},
	}
}

/** A reader as a ReadableStream, pulled one chunk at a time (so backpressure reaches the server). */
export function readerStream(reader: BodyReader): ReadableStream<Uint8Array> {
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			const chunk = await reader.read()
			if (chunk.done) controller.close()
			else controller.enqueue(chunk.value)
		},
		cancel: (reason) => reader.cancel(reason),
	}, { highWaterMark: 0 })
}

const decoder = new TextDecoder()

/** Reads a whole body through a reader, as text. */
export async function readAllText(reader: BodyReader): Promise<string> {
	const chunks: Uint8Array[] = []
	let length = 0
	for (;;) {
		const chunk = await reader.read()
		if (chunk.done) break
		chunks.push(chunk.value)
		length += chunk.value.byteLength
	}
	if (chunks.length === 1) return decoder.decode(chunks[0])
	const whole = new Uint8Array(length)
	let offset = 0
	for (const chunk of chunks) {
		whole.set(chunk, offset)
		offset += chunk.byteLength
	}
	return decoder.decode(whole)
}
