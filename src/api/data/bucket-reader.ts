/**
 * The export's reading thread on SQLite (src/workers/data-export.ts), seen from the main thread:
 * a worker started for one run with a read-only connection to the database file, asked for the
 * buckets of one range at a time, and ended by `close` (a worker idle between runs would cost over a
 * megabyte of memory for nothing).
 */
import type { BucketReadReport, BucketReadRequest, QuotaBucket } from '@/db/quota-buckets'

/** How long `close` waits for the worker to close its connection before terminating it. */
const CLOSE_TIMEOUT_MS = 2000

export interface BucketReader {
	/** The buckets of the consume logs with `from <= created_at < to` (whole hours), oldest hour first. */
	read(from: number, to: number): Promise<QuotaBucket[]>
	/** Closes the connection and ends the worker. */
	close(): Promise<void>
}

/** Bun's workers can be unref'd (the DOM typings do not know it). */
type BunWorker = Worker & { unref?: () => void }

/** `workerUrl`: src/workers/data-export.ts, resolved by main.ts so that the compiled binary finds it. */
export async function openBucketReader(workerUrl: URL, file: string): Promise<BucketReader> {
	const worker: BunWorker = new Worker(workerUrl)
	worker.unref?.()
	/** The request under way: told its answer, or why none comes. */
	let pending: { resolve: (report: BucketReadReport) => void; reject: (error: Error) => void } | undefined
	let ended: Error | undefined
	const end = (error: Error) => {
		ended ??= error
		pending?.reject(error)
		pending = undefined
	}
	worker.addEventListener('message', (event: MessageEvent<BucketReadReport>) => {
		const answer = pending
		pending = undefined
		answer?.resolve(event.data)
	})
	worker.addEventListener('error', (event) => end(new Error(`the export's reading thread failed: ${event.message}`)))
	worker.addEventListener('close', () => end(new Error('the export\'s reading thread exited')))

	const ask = (request: BucketReadRequest) => new Promise<BucketReadReport>((resolve, reject) => {
		if (ended) return reject(ended)
		pending = { resolve, reject }
		worker.postMessage(request)
	}).then((report) => {
		if (report.kind === 'failed') throw new Error(`the export's reading thread failed: ${report.error}`)
		return report
	})

	try {
		await ask({ kind: 'open', file })
	} catch (error) {
		worker.terminate()
		throw error
	}
	return {
		async read(from, to) {
			const report = await ask({ kind: 'read', from, to })
			if (report.kind !== 'buckets') throw new Error(`the export's reading thread answered ${report.kind} to a read`)
			return report.buckets
		},
		async close() {
			let timer: ReturnType<typeof setTimeout> | undefined
			await Promise.race([
				ask({ kind: 'close' }).catch(() => {}),
				new Promise<void>((resolve) => {
					timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)
				}),
			])
			clearTimeout(timer)
			worker.terminate()
		},
	}
}
