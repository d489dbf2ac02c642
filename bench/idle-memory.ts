/**
 * `bun bench/idle-memory.ts`: only the memory part of `bun run bench`, in seconds. Seeds and starts
 * Ferry exactly as the bench does (bench/ferry.ts: 1 000 channels, 10 000 tokens, the two probe
 * calls), waits 1 s and prints its VmRSS, its thread count and, with --console, VmRSS again after
 * one console page. Several runs (--runs) because a single reading moves by a megabyte or two.
 * Usage: bun bench/idle-memory.ts [--runs 3] [--binary dist/ferry] [--console] [--env KEY=VALUE …] [--signal SIGUSR2] [--smaps <file to copy /proc/<pid>/smaps into>] [--wait <ms idle before reading, 1000 as the bench>] [-- extra bun flags]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startFerry } from './ferry'
import { memory, startServer, stopProcess } from './processes'

const IDLE_WAIT_MS = 1_000
const { values, positionals } = parseArgs({
	args: Bun.argv.slice(2),
	allowPositionals: true,
	options: {
		runs: { type: 'string', default: '3' },
		binary: { type: 'string' },
		console: { type: 'boolean', default: false },
		env: { type: 'string', multiple: true, default: [] },
		signal: { type: 'string' },
		smaps: { type: 'string' },
		wait: { type: 'string', default: String(IDLE_WAIT_MS) },
	},
})

function threads(pid: number) {
	try {
		return Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
	} catch {
		return Number.NaN
	}
}

const env = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
const command = values.binary ? [resolve(values.binary)] : ['bun', ...positionals, 'src/main.ts']
const upstream = await startServer('upstream', ['bun', resolve(import.meta.dir, 'upstream.ts')])
const readings: number[] = []
try {
	for (let run = 0; run < Number(values.runs); run++) {
		// A start sometimes fails with SQLITE_BUSY on `PRAGMA journal_mode` right after seeding: try once more.
		const ferry = await startFerry(upstream.url, { command, env }).catch((error: Error) => {
			console.error(`retrying a failed start: ${error.message.split('\n')[0]}`)
			return startFerry(upstream.url, { command, env })
		})
		try {
			if (ferry.unavailable) throw new Error(ferry.unavailable)
			await Bun.sleep(Number(values.wait))
			const idle = memory(ferry.process.pid)
			readings.push(idle.rssMb)
			if (values.smaps) writeFileSync(values.smaps, readFileSync(`/proc/${ferry.process.pid}/smaps`))
			let line = `idle VmRSS ${idle.rssMb.toFixed(1)} MB, ${threads(ferry.process.pid)} threads`
			if (values.console) {
				const page = await fetch(`${ferry.url}/login`)
				const html = await page.text()
				await Bun.sleep(IDLE_WAIT_MS)
				line += `; after GET /login (${page.status}, ${html.length} chars) ${memory(ferry.process.pid).rssMb.toFixed(1)} MB, ${threads(ferry.process.pid)} threads`
			}
			console.log(line)
			if (values.signal) {
				// A preload of the caller's (e.g. one that dumps heap statistics) listens for it.
				ferry.process.kill(values.signal as NodeJS.Signals)
				await Bun.sleep(IDLE_WAIT_MS)
			}
		} finally {
			await ferry.stop()
		}
	}
} finally {
	await stopProcess(upstream.process)
}
const sorted = [...readings].sort((left, right) => left - right)
console.log(`${command.join(' ')}: median idle VmRSS ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} MB over ${sorted.length} run(s)`)
