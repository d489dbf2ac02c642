/**
 * `StreamCacheQueueLength`: how many chunks of an upstream stream Ferry may read ahead of the
 * client, per call. 0 (the default) reads the upstream only as the client reads (pull-based
 * backpressure, no buffer). A positive bound lets the upstream read run that many chunks ahead, so
 * a client that reads slowly does not hold the upstream read back by up to that many chunks;
 * memory per call is bounded by the count (and by the outbound size limit whatever the count).
 */
import type { BodyChunk, BodyReader } from '@/lib/outbound/body-guard'

/** Above this the setting means no more: a stream's chunks are small and its body size is bounded anyway. */
const MAX_READ_AHEAD_CHUNKS = 4096

/**
 * The same chunks, in the same order, then the same end or error; up to `limit` chunks are read
 * from `reader` before they are asked for. One read of `reader` at a time. With a limit of 0 or
 * less the reader itself is answered.
 */
export function readAhead(reader: BodyReader, limit: number): BodyReader {
	const bound = Math.min(Math.floor(limit), MAX_READ_AHEAD_CHUNKS)
	if (!(bound > 0)) return reader
	const queue: Uint8Array[] = []
	let ended = false
	let cancelled = false
	let failure: { error: unknown } | undefined
	let pumping = false
	let waiter: (() => void) | undefined
	const wake = () => {
		const waiting = waiter
		waiter = undefined
		waiting?.()
	}

	async function pump() {
		if (pumping) return
		pumping = true
		try {
			while (queue.length < bound && !ended && !cancelled && !failure) {
				const chunk = await reader.read()
				if (cancelled) break
				if (chunk.done) ended = true
				else queue.push(chunk.value)
				wake()
			}
		} catch (error) {
			failure ??= { error }
		} finally {
			pumping = false
			wake()
		}
	}
	void pump()

	return {
		async read(): Promise<BodyChunk> {
			for (;;) {
				const value = queue.shift()
				if (value !== undefined) {
					void pump()
					return { done: false, value }
				}
				if (failure) throw failure.error
				if (ended || cancelled) return { done: true }
				void pump()
				await new Promise<void>((resolve) => {
					waiter = resolve
				})
			}
		},
		cancel(reason) {
			cancelled = true
			queue.length = 0
			wake()
			return reader.cancel(reason)
		},
	}
}
