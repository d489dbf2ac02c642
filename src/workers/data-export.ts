/**
 * The dashboard's reading thread on SQLite (src/api/data/bucket-reader.ts): sums a range of
 * consume logs (everyone's or one user's) into hourly buckets on a read-only connection of its own, so
 * that the scan of up to a day of logs never runs on the thread that answers requests. In WAL mode its
 * read sees a snapshot and blocks no writer. It writes nothing; for the export the main thread writes
 * the buckets it answers.
 *
 * Started for one export run, or for one dashboard request's live hours (src/api/data/live-buckets.ts),
 * and ended after it. Messages in: `BucketReadRequest`s, one at a time. Messages out: `BucketReadReport`s.
 */
import { Database } from 'bun:sqlite'
import { bucketRead, type BucketReadReport, type BucketReadRequest, type QuotaBucket } from '@/db/quota-buckets'

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

/** How long a read waits for a lock (only a checkpoint that resets the WAL takes one briefly). */
const BUSY_TIMEOUT_MS = 5000

let database: Database | undefined

function post(report: BucketReadReport) {
	scope.postMessage(report)
}

scope.onmessage = (event: MessageEvent<BucketReadRequest>) => {
	const request = event.data
	try {
		switch (request.kind) {
			case 'open':
				database = new Database(request.file, { readonly: true })
				database.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
				return post({ kind: 'ready' })
			case 'read': {
				const { text, params } = bucketRead(request.from, request.to, request.scope)
				const statement = database!.query(text.replace(/\$(\d+)/g, '?$1'))
				return post({ kind: 'buckets', buckets: statement.all(...params) as QuotaBucket[] })
			}
			case 'close':
				database?.close()
				database = undefined
				return post({ kind: 'closed' })
		}
	} catch (error) {
		post({ kind: 'failed', error: String(error) })
	}
}
