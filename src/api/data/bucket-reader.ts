/**
 * The dashboard's reading thread on SQLite (src/workers/data-export.ts), seen from the main thread:
 * a worker started for one export run or one dashboard request's live hours, with a read-only
 * connection to the database file, asked for the buckets of one range at a time, and ended by `close`
 * (a worker idle between uses would cost over a megabyte of memory for nothing; starting one takes
 * about 5 ms).
 */
import type { BucketReadReport, BucketReadRequest, BucketScope, QuotaBucket } from '@/db/quota-buckets'

/** How long `close` waits for the worker to close its connection before terminating it. */
const CLOSE_TIMEOUT_MS = 2000
/**
 * Readers open at once, whoever asks (any signed-in user may ask for their dashboard): the others
 * wait for one to close, so a burst of requests never starts a thread and a connection for each.
 */
const MAX_OPEN_READERS = 2

let openReaders = 0
const waitingForReader: (() => void)[] = []

async function takeReaderSlot(): Promise<void> {
	if (openReaders < MAX_OPEN_READERS) {
		openReaders++
		return
	}
	// The slot is handed over by `giveReaderSlot`, already counted.
	await new Promise<void>((resolve) => waitingForReader.push(resolve))
}

function giveReaderSlot() {
	const next = waitingForReader.shift()
	if (next) next()
	else openReaders--
}

/**
 * Where the worker is. Running from source, it is found from here; the compiled binary has no such
 * path, so main.ts names it (relative to itself, as for the other workers).
 */
let readerWorkerUrl = new URL('../../workers/data-export.ts', import.meta.url)

export function configureBucketReaderWorker(url: URL) {
	readerWorkerUrl = url
}

/** The worker the dashboard's live hours are read on (the export is handed its URL). */
export const bucketReaderWorkerUrl = () => readerWorkerUrl

export interface BucketReader {
	/** `scope`'s buckets (everyone's if none) of the consume logs with `from <= created_at < to` (whole hours), oldest hour first. */
	read(from: number, to: number, scope?: BucketScope): Promise<QuotaBucket[]>
	/** Closes the connection and ends the worker. */
	close(): Promise<void>
}

/** Bun's workers can be unref'd (the DOM typings do not know it). */
type BunWorker = Worker & { unref?: () => void }

/** `workerUrl`: src/workers/data-export.ts, resolved by main.ts so that the compiled binary finds it. */
export async function openBucketReader(workerUrl: URL, file: string): Promise<BucketReader> {
	await takeReaderSlot()
	let slotHeld = true
	const releaseSlot = () => {
		if (!slotHeld) return
		slotHeld = false
		giveReaderSlot()
	}
	let worker: BunWorker
	try {
		worker = new Worker(workerUrl)
	} catch (error) {
		releaseSlot()
		throw error
	}
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
	worker.addEventListener('error', (event) => end(new Error(`the buckets' reading thread failed: ${event.message}`)))
	worker.addEventListener('close', () => end(new Error('the buckets\' reading thread exited')))

	const ask = (request: BucketReadRequest) => new Promise<BucketReadReport>((resolve, reject) => {
		if (ended) return reject(ended)
		pending = { resolve, reject }
		worker.postMessage(request)
	}).then((report) => {
		if (report.kind === 'failed') throw new Error(`the buckets' reading thread failed: ${report.error}`)
		return report
	})

	try {
		await ask({ kind: 'open', file })
	} catch (error) {
		worker.terminate()
		releaseSlot()
		throw error
	}
	return {
		async read(from, to, scope) {
			const report = await ask({ kind: 'read', from, to, scope })
			if (report.kind !== 'buckets') throw new Error(`the buckets' reading thread answered ${report.kind} to a read`)
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
			releaseSlot()
		},
	}
}
