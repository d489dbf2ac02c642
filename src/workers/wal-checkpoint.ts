/**
 * The SQLite WAL checkpointer's thread (src/db/wal-checkpointer.ts): copies committed pages from
 * `ferry.db-wal` into `ferry.db` on its own connection, so that the copy and its fsyncs never run
 * inside a request's commit on the main thread.
 *
 * It checkpoints only when asked, one request at a time, and always PASSIVE: it takes no lock a
 * writer waits for and never waits itself. The main thread decides when, and when to hold its own
 * writes so that a checkpoint can catch up with the end of the WAL (which lets the next commit start
 * the WAL over from its beginning).
 *
 * Messages in: `WalCheckpointRequest`s. Messages out: `WalCheckpointReport`s.
 *
 * It is also the scheduled jobs' clock on SQLite (one thread fewer than a clock of its own): it
 * answers `ClockRequest`s (objects without `kind`) as src/workers/schedule-clock.ts does, with ticks
 * (numbers), between checkpoints: a tick due during one waits for it (milliseconds).
 */
import { Database } from 'bun:sqlite'
import { clockTimers } from '@/db/clock-timers'
import type { ClockRequest } from '@/db/leased-schedule'
import type { WalCheckpointReport, WalCheckpointRequest } from '@/db/wal-checkpointer'

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

type CheckpointRow = { busy: number; log: number; checkpointed: number }

let database: Database | undefined

function post(report: WalCheckpointReport) {
	scope.postMessage(report)
}

const answerClock = clockTimers((tick) => scope.postMessage(tick))

scope.onmessage = (event: MessageEvent<WalCheckpointRequest | ClockRequest>) => {
	const request = event.data
	if (!('kind' in request)) return answerClock(request)
	switch (request.kind) {
		case 'open':
			try {
				database = new Database(request.file, { readwrite: true, create: false })
				database.run('PRAGMA synchronous = NORMAL')
				post({ kind: 'ready' })
			} catch (error) {
				post({ kind: 'unavailable', error: String(error) })
			}
			return
		case 'checkpoint':
			try {
				const row = database!.query('PRAGMA wal_checkpoint(PASSIVE)').get() as CheckpointRow
				post({ kind: 'checkpointed', frames: row.log, copied: row.checkpointed })
			} catch (error) {
				post({ kind: 'failed', error: String(error) })
			}
			return
		case 'stop':
			database?.close()
			database = undefined
			post({ kind: 'stopped' })
	}
}
