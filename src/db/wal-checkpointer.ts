/**
 * Takes SQLite's WAL checkpoints off the request thread (issue 18's ~10 ms stall). By default SQLite
 * checkpoints inside the commit that fills 1 000 WAL pages: it copies them into the database file
 * and fsyncs both files, on the main thread, while every request waits. With the checkpointer
 * running, the request connection never checkpoints (`wal_autocheckpoint = 0`) and a worker thread
 * (src/workers/wal-checkpoint.ts) copies the pages on its own connection, every `intervalMs`.
 *
 * Keeping the WAL bounded: SQLite starts the WAL over from its beginning only in a commit that
 * begins after a checkpoint copied every frame. Under steady writes the worker never catches up by
 * itself, so once the WAL holds `wrapAboveFrames` frames the main thread holds its own transactions
 * (they wait in memory; the event loop keeps running) while the worker copies the last few frames
 * (a checkpoint right before it copied what came during the previous one); the next commit then starts
 * the WAL over. That pause costs the calls writing meanwhile a millisecond or two (the copy's fsync;
 * longer on a slow disk, see `FIRST_HOLD_MS`), once every `wrapAboveFrames` frames, instead of a
 * stalled event loop every 1 000.
 *
 * A WAL started over is written again from its beginning, in place, as long as its file is within
 * `journal_size_limit`; past it, SQLite cuts the file back in the first commit after the restart. So
 * the limit is set at twice the size the WAL has when a catch-up begins. With a limit below that
 * (64 MB against 16 384 frames of 4 120 bytes), every catch-up cut the file inside a request's commit
 * (an `ftruncate` of a few megabytes of cached pages, 0.65 ms under strace) and the WAL then grew
 * again into new blocks.
 *
 * Crash safety is SQLite's own: a checkpoint copies only committed frames and the WAL stays the
 * record until the database file is synced, whichever connection runs it. Should the worker fail or
 * die, the request connection checkpoints by itself again, as it did without the checkpointer.
 */
import type { Logger } from '@/lib/logger'
import { acquireWorker } from '@/lib/shared-worker'
import type { Store } from './index'

/** SQLite's default `wal_autocheckpoint`, restored whenever the worker is not checkpointing. */
export const SQLITE_AUTO_CHECKPOINT_PAGES = 1000
const DEFAULT_INTERVAL_MS = 100
/** 16 384 frames of 4 KB: a WAL of about 64 MB, started over a few times a second at full load. */
const DEFAULT_WRAP_ABOVE_FRAMES = 16_384
/** Each WAL frame is a page with a header of this many bytes. */
const WAL_FRAME_HEADER_BYTES = 24
/** The WAL file keeps room for this many times `wrapAboveFrames` before a restart cuts it back. */
const SIZE_LIMIT_WRAPS = 2
/**
 * A hold ends when the worker answers, or after this long if it has not: a hung worker never stops
 * writes for good. A hold the worker outlasted let writes go on before the WAL could start over, so
 * the next hold may last twice as long (up to `MAX_HOLD_MS`), and a catch-up sets it back: on a disk
 * whose fsync is slower than the first hold, the WAL still starts over, one attempt later.
 */
const FIRST_HOLD_MS = 250
const MAX_HOLD_MS = 4000
/** How long `stop` waits for the worker to close its connection before terminating it. */
const STOP_TIMEOUT_MS = 2000

export type WalCheckpointRequest = { kind: 'open'; file: string } | { kind: 'checkpoint' } | { kind: 'stop' }

export type WalCheckpointReport =
	| { kind: 'ready' }
	| { kind: 'unavailable'; error: string }
	/** `frames` in the WAL, of which `copied` are in the database file now. */
	| { kind: 'checkpointed'; frames: number; copied: number }
	| { kind: 'failed'; error: string }
	| { kind: 'stopped' }

/** What the checkpointer tells a test (`onEvent`), besides the worker's own reports. */
export type WalCheckpointerEvent =
	| WalCheckpointReport
	/** Writes were held and the worker copied every frame: the next commit starts the WAL over. */
	| { kind: 'caught-up'; frames: number; heldMs: number }
	/** Writes were held but a reader kept the worker from copying every frame. */
	| { kind: 'held-up'; frames: number; copied: number }
	/** Writes were held `heldMs` and the worker had not answered: they go on, and the next hold is longer. */
	| { kind: 'hold-outlasted'; heldMs: number }

export interface WalCheckpointerInput {
	/**
	 * src/workers/wal-checkpoint.ts, resolved by the caller (main.ts) so the compiled binary finds it.
	 * The worker is shared (src/lib/shared-worker.ts): on SQLite it is the scheduled jobs' clock too.
	 */
	workerUrl: URL
	logger: Logger
	intervalMs?: number
	wrapAboveFrames?: number
	/** Tests: told every report of the worker and every catch-up. */
	onEvent?: (event: WalCheckpointerEvent) => void
}

export interface WalCheckpointer {
	stop(): Promise<void>
}

/** Starts checkpointing on a worker thread; on Postgres or an in-memory SQLite there is nothing to do. */
export function startWalCheckpointer(store: Store, input: WalCheckpointerInput): WalCheckpointer {
	const wal = store.wal
	if (!wal) return { stop: async () => {} }
	const intervalMs = input.intervalMs ?? DEFAULT_INTERVAL_MS
	const wrapAboveFrames = input.wrapAboveFrames ?? DEFAULT_WRAP_ABOVE_FRAMES
	wal.setSizeLimit(SIZE_LIMIT_WRAPS * wrapAboveFrames * (wal.pageSize + WAL_FRAME_HEADER_BYTES))
	const lease = acquireWorker(input.workerUrl)
	const worker = lease.worker
	let stopped = false
	/** The worker failed: the request connection checkpoints again, for good. */
	let fallenBack = false
	let failing = false
	let timer: ReturnType<typeof setTimeout> | undefined
	/** Set while writes are held for a catch-up: releases them. */
	let release: (() => void) | undefined
	let holdTimer: ReturnType<typeof setTimeout> | undefined
	let heldAt = 0
	let holdLimitMs = FIRST_HOLD_MS
	/** The WAL passed `wrapAboveFrames`: the checkpoint under way is the one right before the held one. */
	let approaching = false
	let resolveStopped: () => void = () => {}
	const stoppedReport = new Promise<void>((resolve) => {
		resolveStopped = resolve
	})

	const send = (request: WalCheckpointRequest) => worker.postMessage(request)
	const tell = (event: WalCheckpointerEvent) => input.onEvent?.(event)

	function releaseWrites() {
		clearTimeout(holdTimer)
		release?.()
		release = undefined
	}

	function next() {
		if (!stopped && !fallenBack) timer = setTimeout(() => send({ kind: 'checkpoint' }), intervalMs)
	}

	/** The request connection checkpoints by itself again: the WAL stays bounded without the worker. */
	function fallBack(message: string, error: string) {
		releaseWrites()
		clearTimeout(timer)
		if (stopped || fallenBack) return
		fallenBack = true
		wal!.setAutoCheckpointPages(SQLITE_AUTO_CHECKPOINT_PAGES)
		input.logger.error(message, { error })
	}

	function checkpointed(frames: number, copied: number) {
		if (failing) input.logger.info('WAL checkpoints succeed again')
		failing = false
		if (release) {
			const heldMs = performance.now() - heldAt
			releaseWrites()
			if (copied === frames) {
				holdLimitMs = FIRST_HOLD_MS
				tell({ kind: 'caught-up', frames, heldMs })
			}
			else {
				tell({ kind: 'held-up', frames, copied })
				input.logger.warn('a WAL checkpoint could not finish (a reader held it); the checkpointer tries again', { frames, copied })
			}
			return next()
		}
		if (frames < wrapAboveFrames) {
			approaching = false
			return next()
		}
		if (!approaching) {
			// One more checkpoint at once copies what was written during this one: the held one after
			// it has only a few milliseconds of writes left to copy.
			approaching = true
			return send({ kind: 'checkpoint' })
		}
		approaching = false
		// Hold writes so that the next checkpoint copies the last frames and nothing comes after them.
		release = wal!.holdWrites()
		heldAt = performance.now()
		holdTimer = setTimeout(() => {
			releaseWrites()
			tell({ kind: 'hold-outlasted', heldMs: holdLimitMs })
			if (holdLimitMs === MAX_HOLD_MS) input.logger.warn('a WAL checkpoint outlasted the longest hold of writes; the WAL grows until one finishes in time', { heldMs: holdLimitMs })
			holdLimitMs = Math.min(MAX_HOLD_MS, holdLimitMs * 2)
		}, holdLimitMs)
		send({ kind: 'checkpoint' })
	}

	worker.addEventListener('message', (event: MessageEvent<WalCheckpointReport | number>) => {
		// The clock's ticks (numbers) share the worker.
		if (typeof event.data === 'number') return
		const report = event.data
		tell(report)
		switch (report.kind) {
			case 'ready':
				if (stopped || fallenBack) return
				wal.setAutoCheckpointPages(0)
				return next()
			case 'unavailable':
				return fallBack('the WAL checkpointer could not open the database; SQLite checkpoints in commits again', report.error)
			case 'checkpointed':
				return checkpointed(report.frames, report.copied)
			case 'failed':
				releaseWrites()
				if (!failing) input.logger.warn('a WAL checkpoint failed; the checkpointer tries again', { error: report.error })
				failing = true
				return next()
			case 'stopped':
				return resolveStopped()
		}
	})
	worker.addEventListener('error', (event) => {
		fallBack('the WAL checkpointer failed; SQLite checkpoints in commits again', String(event.message))
		resolveStopped()
	})
	worker.addEventListener('close', () => {
		fallBack('the WAL checkpointer stopped; SQLite checkpoints in commits again', 'the worker exited')
		resolveStopped()
	})
	send({ kind: 'open', file: wal.file })

	return {
		async stop() {
			if (stopped) return
			stopped = true
			clearTimeout(timer)
			releaseWrites()
			wal.setAutoCheckpointPages(SQLITE_AUTO_CHECKPOINT_PAGES)
			send({ kind: 'stop' })
			let stopTimer: ReturnType<typeof setTimeout> | undefined
			await Promise.race([stoppedReport, new Promise<void>((resolve) => {
				stopTimer = setTimeout(resolve, STOP_TIMEOUT_MS)
			})])
			clearTimeout(stopTimer)
			// Terminated unless the clock still uses it.
			lease.release()
		},
	}
}
