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
	// One watchdog timer for the whole body instead of a timer per chunk: a read in progress since
	// `waitingSince` fails once it has waited the idle limit.
	let waitingSince: number | undefined
	let watchdog: ReturnType<typeof setTimeout> | undefined
	let failed: unknown

	const fail = (reason: unknown): never => {
		failed ??= reason
		clearTimeout(watchdog)
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

	return new ReadableStream<Uint8Array>({
		async pull(controller) {
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
				clearTimeout(watchdog)
				controller.close()
				return
			}
			received += chunk.value.byteLength
			if (received > limits.maxBytes) return fail(new OutboundTooLargeError(limits.target, limits.maxBytes))
			controller.enqueue(chunk.value)
		},
		cancel(reason) {
			clearTimeout(watchdog)
			return reader.cancel(reason)
		},
	}, { highWaterMark: 0 })
}
