/**
 * Wraps a response body so it errors when the server goes quiet for longer than the idle limit or
 * sends more than the size limit (counted after decompression, so a small compressed body cannot
 * expand past it). The idle clock runs only while the reader waits: a slow consumer is not idle.
 */
import { OutboundTimeoutError, OutboundTooLargeError } from './errors'

export interface BodyLimits {
	idleMilliseconds: number
	maxBytes: number
	/** For messages: scheme, host and port. */
	target: string
	/** Turns an error of the underlying stream into one safe to show (or passes it through). */
	translate(error: unknown): unknown
	/** Called once when the guard gives up on the body, to close the connection. */
	stop(reason: unknown): void
}

export function guardBody(body: ReadableStream<Uint8Array>, limits: BodyLimits): ReadableStream<Uint8Array> {
	const reader = body.getReader()
	let received = 0

	const fail = (reason: unknown): never => {
		limits.stop(reason)
		reader.cancel(reason).catch(() => {})
		throw reason
	}

	const readWithin = async () => {
		let timer: ReturnType<typeof setTimeout> | undefined
		const idle = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new OutboundTimeoutError('idle', limits.target, limits.idleMilliseconds)), limits.idleMilliseconds)
		})
		try {
			return await Promise.race([reader.read(), idle])
		} finally {
			clearTimeout(timer)
		}
	}

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			let chunk: Awaited<ReturnType<typeof readWithin>>
			try {
				chunk = await readWithin()
			} catch (error) {
				return fail(error instanceof OutboundTimeoutError ? error : limits.translate(error))
			}
			if (chunk.done) {
				controller.close()
				return
			}
			received += chunk.value.byteLength
			if (received > limits.maxBytes) return fail(new OutboundTooLargeError(limits.target, limits.maxBytes))
			controller.enqueue(chunk.value)
		},
		cancel(reason) {
			return reader.cancel(reason)
		},
	}, { highWaterMark: 0 })
}
