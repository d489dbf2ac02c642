/**
 * One Bun worker per script URL, shared by the parts of the process that talk to it (on SQLite the
 * WAL checkpointer's thread is also the scheduled jobs' clock): a worker is a thread with a
 * JavaScript VM of its own, over a megabyte resident even idle. Each user listens for its own
 * messages (`addEventListener`) and releases the worker when done; the last release terminates it.
 * A shared worker keeps no process alive (Bun's `unref`).
 */

/** Bun's workers can be unref'd (the DOM typings do not know it). */
type BunWorker = Worker & { unref?: () => void }

export interface WorkerLease {
	worker: Worker
	/** Ends this user's share; the worker is terminated with the last one. Idempotent. */
	release(): void
}

const running = new Map<string, { worker: BunWorker; users: number }>()

export function acquireWorker(url: URL): WorkerLease {
	let shared = running.get(url.href)
	if (!shared) {
		const worker: BunWorker = new Worker(url)
		worker.unref?.()
		shared = { worker, users: 0 }
		running.set(url.href, shared)
	}
	shared.users++
	const held = shared
	let released = false
	return {
		worker: held.worker,
		release() {
			if (released) return
			released = true
			held.users--
			if (held.users > 0) return
			if (running.get(url.href) === held) running.delete(url.href)
			held.worker.terminate()
		},
	}
}
