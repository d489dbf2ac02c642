/**
 * The SQLite WAL checkpointer's thread (src/db/wal-checkpointer.ts): copies committed pages from
 * `ferry.db-wal` into `ferry.db` on its own connection, so that the copy and its fsyncs never run
 * inside a request's commit on the main thread.
 *
 * Every tick runs a PASSIVE checkpoint, which takes no lock a writer waits for. Once it has copied
 * everything, the main thread's next commit starts the WAL over from its beginning, so the file stays
 * at the size one tick of writes needs. Should writes never pause long enough for that, the file
 * grows; past `truncateAboveBytes` a TRUNCATE checkpoint (after the PASSIVE one, so little is left to
 * copy) holds writers for the short rest of the copy and empties the file.
 *
 * Messages in: a `WalCheckpointStart`, then `'stop'`. Messages out: `WalCheckpointReport`s.
 */
import { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import type { WalCheckpointReport, WalCheckpointStart } from '@/db/wal-checkpointer'

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

/**
 * A TRUNCATE checkpoint waits this long for the write lock and then for readers; main-thread
 * writers wait for it meanwhile, so it gives up early and tries again on the next tick.
 */
const TRUNCATE_BUSY_TIMEOUT_MS = 100

type CheckpointRow = { busy: number; log: number; checkpointed: number }

let database: Database | undefined
let timer: ReturnType<typeof setInterval> | undefined
let failing = false

function post(report: WalCheckpointReport) {
	scope.postMessage(report)
}

function walBytes(file: string) {
	try {
		return statSync(`${file}-wal`).size
	} catch {
		return 0
	}
}

function checkpoint(connection: Database, start: WalCheckpointStart) {
	connection.query('PRAGMA wal_checkpoint(PASSIVE)').get()
	const bytes = walBytes(start.file)
	if (bytes <= start.truncateAboveBytes) return
	const row = connection.query('PRAGMA wal_checkpoint(TRUNCATE)').get() as CheckpointRow
	if (row.busy) post({ kind: 'incomplete', walBytes: bytes })
	else post({ kind: 'truncated', walBytes: bytes })
}

function tick(start: WalCheckpointStart) {
	try {
		checkpoint(database!, start)
		if (failing) post({ kind: 'recovered' })
		failing = false
	} catch (error) {
		// Reported once per run of failures; every tick tries again.
		if (!failing) post({ kind: 'failed', error: String(error) })
		failing = true
	}
}

scope.onmessage = (event: MessageEvent<WalCheckpointStart | 'stop'>) => {
	if (event.data === 'stop') {
		clearInterval(timer)
		database?.close()
		database = undefined
		post({ kind: 'stopped' })
		return
	}
	const start = event.data
	try {
		database = new Database(start.file, { readwrite: true, create: false })
		database.run('PRAGMA synchronous = NORMAL')
		database.run(`PRAGMA busy_timeout = ${TRUNCATE_BUSY_TIMEOUT_MS}`)
	} catch (error) {
		post({ kind: 'unavailable', error: String(error) })
		return
	}
	post({ kind: 'ready' })
	timer = setInterval(() => tick(start), start.intervalMs)
}
