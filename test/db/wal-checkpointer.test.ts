import { afterEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execute, openStore, type Store } from '@/db'
import { startLeasedSchedule } from '@/db/leased-schedule'
import { startWalCheckpointer, type WalCheckpointer, type WalCheckpointerEvent } from '@/db/wal-checkpointer'
import { silentLogger, type Logger } from '@/lib/logger'
import { eventually } from '../helpers/eventually'

const WORKER_URL = new URL('../../src/workers/wal-checkpoint.ts', import.meta.url)
const DYING_WORKER_URL = new URL('../fixtures/workers/dying-wal-checkpoint.ts', import.meta.url)
const SLOW_WORKER_URL = new URL('../fixtures/workers/slow-wal-checkpoint.ts', import.meta.url)
/** Small enough that a test's writes pass it many times over. */
const WRAP_ABOVE_FRAMES = 256
/** 1 200 rows of 16 KB: about 20 MB, 5 000 frames of WAL if nothing checkpointed them. */
const ROWS = 1200
const ROW_BYTES = 16 * 1024
const FRAME_BYTES = 4096 + 24
/** Rows of one transaction past 1 024 frames and within 2 048 (a row is four pages and a bit). */
const BURST_ROWS = 300

type Line = { level: keyof Logger; message: string }

function recordingLogger(lines: Line[]): Logger {
	const record = (level: keyof Logger) => (message: string) => void lines.push({ level, message })
	return { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') }
}

describe('the WAL checkpointer on SQLite', () => {
	let dataDir: string
	let store: Store
	let checkpointer: WalCheckpointer | undefined
	const lines: Line[] = []
	const reports: WalCheckpointerEvent[] = []

	async function open() {
		dataDir = mkdtempSync(join(tmpdir(), 'ferry-wal-'))
		store = await openStore({ databaseUrl: '', dataDir })
		await store.read('CREATE TABLE scratch (id INTEGER PRIMARY KEY, body BLOB NOT NULL)')
	}

	async function start(workerUrl = WORKER_URL, wrapAboveFrames = WRAP_ABOVE_FRAMES) {
		checkpointer = startWalCheckpointer(store, {
			workerUrl, logger: recordingLogger(lines), intervalMs: 10, wrapAboveFrames,
			onEvent: (event) => void reports.push(event),
		})
		await eventually(async () => reports.some((report) => report.kind === 'ready'))
	}

	const autoCheckpointPages = async () => (await store.read<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint'))[0]!.wal_autocheckpoint
	const walBytes = () => statSync(join(dataDir, 'ferry.db-wal')).size
	const writeRow = () => store.transaction(function* () {
		yield* execute(`INSERT INTO scratch (body) VALUES (randomblob(${ROW_BYTES}))`, [])
	})
	/** Frames in the WAL now, counted by a checkpoint that copies none (another connection, so it sees the end). */
	const walFrames = () => {
		const other = new Database(join(dataDir, 'ferry.db'))
		try {
			return (other.query('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number }).log
		} finally {
			other.close()
		}
	}

	afterEach(async () => {
		await checkpointer?.stop()
		checkpointer = undefined
		await store.close()
		rmSync(dataDir, { recursive: true, force: true })
		lines.length = 0
		reports.length = 0
	})

	test('turns off the request connection\'s own checkpoints while the worker checkpoints, and back on when it stops', async () => {
		await open()
		expect(await autoCheckpointPages()).toBe(1000)
		await start()
		expect(await autoCheckpointPages()).toBe(0)
		await checkpointer!.stop()
		expect(await autoCheckpointPages()).toBe(1000)
	})

	test('keeps the WAL bounded while the request connection writes on and never checkpoints', async () => {
		await open()
		await start()
		const counts = () => reports.filter((report) => report.kind === 'checkpointed').length
		let largest = 0
		let countsSeen = 0
		let rowsSinceCount = 0
		for (let row = 0; row < ROWS; row++) {
			if (counts() > countsSeen) {
				countsSeen = counts()
				rowsSinceCount = 0
			}
			// The worker is a thread of its own: on a machine too busy to run it, the writes would outrun
			// it whatever it did. At most 40 rows between two of its reports keeps the test about what it
			// does with its turns, not about how many it gets.
			if (rowsSinceCount >= 40) await eventually(async () => counts() > countsSeen, 20_000)
			await writeRow()
			rowsSinceCount++
			largest = Math.max(largest, walBytes())
			// Requests arrive through the event loop: let the checkpointer's messages in between writes.
			await Bun.sleep(0)
		}
		expect(await autoCheckpointPages()).toBe(0)
		// Without the worker the file would hold all ~20 MB. With it, the WAL starts over past 256 frames
		// (held writes let a catch-up finish) or sooner (the worker copied all of it between writes):
		// about 1 000 frames at most with the writes 40 rows ahead of the worker's count.
		expect(largest).toBeLessThan((ROWS * ROW_BYTES) / 4)
		const [{ count }] = await store.read<{ count: number }>('SELECT count(*) AS count FROM scratch') as [{ count: number }]
		expect(count).toBe(ROWS)
	})

	test('writes a WAL started over again in place: across catch-ups its file never shrinks', async () => {
		await open()
		// 1 024 frames: past them the checkpointer catches up; the size limit is 2 048 frames.
		await start(WORKER_URL, 1024)
		const catchUps = () => reports.filter((report) => report.kind === 'caught-up').length
		let largest = 0
		const expectNeverSmaller = () => {
			// The file is only ever written over or extended; a commit that cut it back would make it smaller.
			const size = walBytes()
			expect(size).toBeGreaterThanOrEqual(largest)
			largest = size
		}
		// Each round commits past the threshold in one transaction (no checkpoint can start the WAL over
		// in the middle, however fast or slow the worker), stays within the size limit, and waits for
		// the catch-up and the WAL started over.
		for (let round = 1; round <= 3; round++) {
			await store.transaction(function* () {
				for (let row = 0; row < BURST_ROWS; row++) yield* execute(`INSERT INTO scratch (body) VALUES (randomblob(${ROW_BYTES}))`, [])
			})
			expectNeverSmaller()
			await eventually(async () => catchUps() >= round, 20_000)
			// The next commit starts the WAL over, unless the worker's next checkpoint is running just then
			// (the commit appends instead, and a later one starts it over): write until one did.
			await eventually(async () => {
				await writeRow()
				expectNeverSmaller()
				return walFrames() < 1024
			}, 20_000)
		}
		expect(reports.filter((report) => report.kind === 'caught-up').every((report) => report.kind === 'caught-up' && report.frames >= 1024 && report.frames < 2048)).toBe(true)
		// A round may see two catch-ups (one more when the commit that should have started the WAL over appended).
		expect(catchUps()).toBeGreaterThanOrEqual(3)
	}, 60_000)

	test('on a disk slower than its first hold of writes, holds them longer each time until the WAL starts over', async () => {
		await open()
		await start(SLOW_WORKER_URL)
		const catchUp = eventually(async () => reports.find((report) => report.kind === 'caught-up'), 25_000)
		let caughtUp: WalCheckpointerEvent | undefined
		void catchUp.then((report) => void (caughtUp = report))
		// Writes without pause, as calls come, until a catch-up (a bounded number of rows).
		for (let row = 0; row < ROWS * 5 && !caughtUp; row++) {
			await writeRow()
			await Bun.sleep(1)
		}
		await catchUp
		// The 400 ms checkpoint outlasted the first 250 ms hold; the second, 500 ms, waited for it.
		const outlasted = reports.filter((report) => report.kind === 'hold-outlasted')
		expect(outlasted.length).toBeGreaterThanOrEqual(1)
		expect(caughtUp!.kind === 'caught-up' && caughtUp!.heldMs).toBeGreaterThan(250)
		await writeRow()
		// The commit after the catch-up started the WAL over.
		expect(walFrames()).toBeLessThan(WRAP_ABOVE_FRAMES)
	}, 30_000)

	test('with its default threshold, sets the WAL\'s size limit above the WAL a catch-up starts from', async () => {
		await open()
		checkpointer = startWalCheckpointer(store, { workerUrl: WORKER_URL, logger: recordingLogger(lines) })
		const [{ journal_size_limit: limit }] = await store.read<{ journal_size_limit: number }>('PRAGMA journal_size_limit') as [{ journal_size_limit: number }]
		// 16 384 frames: past them the checkpointer holds writes and the WAL starts over.
		expect(limit).toBeGreaterThanOrEqual(16_384 * FRAME_BYTES * 2)
	})

	test('holds writes while it catches up and lets every one of them through afterwards', async () => {
		await open()
		await start()
		const writes = Array.from({ length: ROWS }, () => writeRow())
		await Promise.all(writes)
		const caughtUp = await eventually(async () => reports.find((report) => report.kind === 'caught-up'))
		expect(caughtUp.kind === 'caught-up' && caughtUp.frames).toBeGreaterThanOrEqual(WRAP_ABOVE_FRAMES)
		const [{ count }] = await store.read<{ count: number }>('SELECT count(*) AS count FROM scratch') as [{ count: number }]
		expect(count).toBe(ROWS)
	})

	test('logs a catch-up that a reader holds up, and catches up once the reader is gone', async () => {
		await open()
		const reader = new Database(join(dataDir, 'ferry.db'), { readonly: true })
		try {
			reader.run('BEGIN')
			reader.query('SELECT count(*) FROM scratch').get()
			await start()
			for (let row = 0; row < (4 * WRAP_ABOVE_FRAMES * 4096) / ROW_BYTES; row++) await writeRow()
			await eventually(async () => reports.some((report) => report.kind === 'held-up'))
			expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringContaining('could not finish') }))
			reader.run('COMMIT')
		} finally {
			reader.close()
		}
		await eventually(async () => reports.some((report) => report.kind === 'caught-up'))
		await writeRow()
		// The commit after a catch-up started the WAL over: it holds that one commit's frames.
		expect(walFrames()).toBeLessThan(WRAP_ABOVE_FRAMES)
		expect(walBytes()).toBeLessThan(WRAP_ABOVE_FRAMES * FRAME_BYTES * 8)
	})

	test('logs an error and lets the request connection checkpoint again when the worker dies', async () => {
		await open()
		await start(DYING_WORKER_URL)
		await eventually(async () => lines.some((line) => line.level === 'error'))
		expect(lines).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringContaining('SQLite checkpoints in commits again') }))
		expect(await autoCheckpointPages()).toBe(1000)
	})

	test('keeps the scheduled jobs\' time on its own thread: one worker for both, ticking on after the checkpointer stops', async () => {
		const RealWorker = globalThis.Worker
		let started = 0
		globalThis.Worker = class extends RealWorker {
			constructor(...args: ConstructorParameters<typeof Worker>) {
				super(...args)
				started++
			}
		}
		try {
			await open()
			await start()
			const runs: number[] = []
			const job = startLeasedSchedule(store, silentLogger, {
				lease: 'wal-clock', workerUrl: WORKER_URL, holder: 'node-a/1', intervalMs: () => 1, tickMs: 10, runAtStart: true,
				description: 'wal clock', run: async () => void runs.push(performance.now()),
			})
			try {
				for (let row = 0; row < 50; row++) await writeRow()
				await eventually(async () => runs.length >= 3 && reports.some((report) => report.kind === 'checkpointed'))
				await checkpointer!.stop()
				checkpointer = undefined
				const runsAtStop = runs.length
				await eventually(async () => runs.length >= runsAtStop + 3)
				expect(started).toBe(1)
			} finally {
				await job.stop()
			}
		} finally {
			globalThis.Worker = RealWorker
		}
	})

	test('leaves an in-memory store alone', async () => {
		dataDir = mkdtempSync(join(tmpdir(), 'ferry-wal-'))
		store = await openStore({ databaseUrl: '', dataDir: ':memory:' })
		checkpointer = startWalCheckpointer(store, { workerUrl: WORKER_URL, logger: recordingLogger(lines) })
		expect(store.wal).toBeUndefined()
		await checkpointer.stop()
		expect(lines).toEqual([])
	})
})
