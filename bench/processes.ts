/** Child processes of the bench, and what /proc says about them (Linux only). */
import { readdirSync, readFileSync } from 'node:fs'
import type { Subprocess } from 'bun'

export interface Server {
	name: string
	process: Subprocess
	port: number
	url: string
}

/** Starts a bench server that prints `port <number>` on stdout once it listens. */
export async function startServer(name: string, command: string[], timeoutMs = 15_000): Promise<Server> {
	const child = Bun.spawn(command, { stdout: 'pipe', stderr: 'inherit' })
	const reader = child.stdout.getReader()
	const decoder = new TextDecoder()
	let text = ''
	const timer = setTimeout(() => child.kill(), timeoutMs)
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) throw new Error(`${name} exited before listening (code ${await child.exited})`)
			text += decoder.decode(value)
			const port = /port (\d+)/.exec(text)?.[1]
			if (port) return { name, process: child, port: Number(port), url: `http://127.0.0.1:${port}` }
		}
	} finally {
		clearTimeout(timer)
		reader.releaseLock()
	}
}

export async function stopProcess(child: Subprocess | undefined) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return
	child.kill('SIGTERM')
	const ended = await Promise.race([child.exited.then(() => true), Bun.sleep(3_000).then(() => false)])
	if (!ended) child.kill('SIGKILL')
}

/** Waits until Ferry answers `GET /api/status`; fails when it exits first or takes longer than `timeoutMs`. */
export async function waitForStatus(url: string, child: Subprocess, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`Ferry exited with code ${child.exitCode}`)
		const response = await fetch(`${url}/api/status`).catch(() => undefined)
		if (response?.ok) return
		await Bun.sleep(100)
	}
	throw new Error(`Ferry did not answer GET /api/status within ${timeoutMs / 1000} s`)
}

/** A port nothing listens on right now (the OS picks it; a tiny race before the caller binds it). */
export function freePort(): number {
	const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
	const port = probe.port!
	probe.stop(true)
	return port
}

const CLOCK_TICKS_PER_SECOND = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** User + system CPU seconds used so far by a process, all its threads included. */
export function cpuSeconds(pid: number): number {
	try {
		// Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')
		return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND
	} catch {
		return Number.NaN
	}
}

/** Resident memory now and at its peak, in MB, from VmRSS and VmHWM. */
export function memory(pid: number): { rssMb: number; peakMb: number } {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8')
		const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
		return { rssMb: kilobytes('VmRSS') / 1024, peakMb: kilobytes('VmHWM') / 1024 }
	} catch {
		return { rssMb: Number.NaN, peakMb: Number.NaN }
	}
}

/**
 * CPU seconds used so far by every process named `postgres` on the machine (the server and its
 * backends, whoever else's work they do: read it around a run of one target only).
 */
export function postgresCpuSeconds(): number {
	let total = 0
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(Number(entry))
		} catch {
			// The process ended meanwhile.
		}
	}
	return total
}
