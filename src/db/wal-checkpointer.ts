/**
 * Takes SQLite's WAL checkpoints off the request thread (issue 18's ~10 ms stall). By default SQLite
 * checkpoints inside the commit that fills 1 000 WAL pages: it copies them into the database file
 * and fsyncs both files, on the main thread, while every request waits. With the checkpointer
 * running, the request connection never checkpoints (`wal_autocheckpoint = 0`) and a worker thread
 * (src/workers/wal-checkpoint.ts) does it on its own connection every `intervalMs`.
 *
 * Crash safety is SQLite's own: a checkpoint copies only committed frames and the WAL stays the
 * record until the database file is synced, whichever connection runs it.
 *
 * The WAL stays bounded: the worker empties it past `truncateAboveBytes`; a checkpoint that fails is
 * logged and tried again on the next tick; and should the worker be unavailable or die, the request
 * connection checkpoints by itself again, as it did without the checkpointer.
 */
import type { Logger } from '@/lib/logger'
import type { Store } from './index'

/** SQLite's default `wal_autocheckpoint`, restored whenever the worker is not checkpointing. */
export const SQLITE_AUTO_CHECKPOINT_PAGES = 1000
const DEFAULT_INTERVAL_MS = 100
/** Far above what one interval of writes needs, so only writes that never pause reach it. */
const DEFAULT_TRUNCATE_ABOVE_BYTES = 64 * 1024 * 1024
/** How long `stop` waits for the worker to close its connection before terminating it. */
const STOP_TIMEOUT_MS = 2000

export interface WalCheckpointStart {
	file: string
	intervalMs: number
	truncateAboveBytes: number
}

export type WalCheckpointReport =
	| { kind: 'ready' }
	| { kind: 'unavailable'; error: string }
	| { kind: 'truncated'; walBytes: number }
	| { kind: 'incomplete'; walBytes: number }
	| { kind: 'failed'; error: string }
	| { kind: 'recovered' }
	| { kind: 'stopped' }

export interface WalCheckpointerInput {
	/** src/workers/wal-checkpoint.ts, resolved by the caller (main.ts) so the compiled binary finds it. */
	workerUrl: URL
	logger: Logger
	intervalMs?: number
	truncateAboveBytes?: number
	/** Tests: told every report of the worker. */
	onReport?: (report: WalCheckpointReport) => void
}

export interface WalCheckpointer {
	stop(): Promise<void>
}

/** Starts checkpointing on a worker thread; on Postgres or an in-memory SQLite there is nothing to do. */
export function startWalCheckpointer(store: Store, input: WalCheckpointerInput): WalCheckpointer {
	const wal = store.wal
	if (!wal) return { stop: async () => {} }
	const worker: Worker & { unref?: () => void } = new Worker(input.workerUrl)
	let stopped = false
	let resolveStopped: () => void = () => {}
	const stoppedReport = new Promise<void>((resolve) => {
		resolveStopped = resolve
	})

	/** The request connection checkpoints by itself again: the WAL stays bounded without the worker. */
	function fallBack(message: string, error: string) {
		if (stopped) return
		wal!.setAutoCheckpointPages(SQLITE_AUTO_CHECKPOINT_PAGES)
		input.logger.error(message, { error })
	}

	worker.onmessage = (event: MessageEvent<WalCheckpointReport>) => {
		const report = event.data
		input.onReport?.(report)
		switch (report.kind) {
			case 'ready':
				if (!stopped) wal.setAutoCheckpointPages(0)
				break
			case 'unavailable':
				fallBack('the WAL checkpointer could not open the database; SQLite checkpoints in commits again', report.error)
				break
			case 'truncated':
				input.logger.debug('the WAL checkpointer emptied a large WAL', { walBytes: report.walBytes })
				break
			case 'incomplete':
				input.logger.warn('a WAL checkpoint could not finish (a reader or writer held it); the checkpointer tries again', { walBytes: report.walBytes })
				break
			case 'failed':
				input.logger.warn('a WAL checkpoint failed; the checkpointer tries again', { error: report.error })
				break
			case 'recovered':
				input.logger.info('WAL checkpoints succeed again')
				break
			case 'stopped':
				resolveStopped()
				break
		}
	}
	worker.onerror = (event) => {
		fallBack('the WAL checkpointer failed; SQLite checkpoints in commits again', String(event.message))
		resolveStopped()
	}
	worker.addEventListener('close', () => {
		fallBack('the WAL checkpointer stopped; SQLite checkpoints in commits again', 'the worker exited')
		resolveStopped()
	})
	const start: WalCheckpointStart = {
		file: wal.file,
		intervalMs: input.intervalMs ?? DEFAULT_INTERVAL_MS,
		truncateAboveBytes: input.truncateAboveBytes ?? DEFAULT_TRUNCATE_ABOVE_BYTES,
	}
	worker.postMessage(start)
	// Bun's workers can be unref'd (the DOM typings do not know it): the checkpointer keeps no process alive.
	worker.unref?.()

	return {
		async stop() {
			if (stopped) return
			stopped = true
			wal.setAutoCheckpointPages(SQLITE_AUTO_CHECKPOINT_PAGES)
			worker.postMessage('stop')
			let timer: ReturnType<typeof setTimeout> | undefined
			await Promise.race([stoppedReport, new Promise<void>((resolve) => {
				timer = setTimeout(resolve, STOP_TIMEOUT_MS)
			})])
			clearTimeout(timer)
			worker.terminate()
		},
	}
}
