/**
 * Records which functions a freshly built binary runs when it starts and serves its first requests
 * (Bun's `BUN_BYTECODE_ORDER_OUT`), for `bun build --bytecode-order`: the second build lays that
 * bytecode out together at the front, so the idle server reads fewer pages of itself (measured:
 * about 5 MB less idle memory with the bench's data). The run is the bench's (bench/ferry.ts: 1 000
 * channels and 10 000 tokens seeded, one non-stream and one stream call through its upstream), then
 * a console page and the API reference. Any failure only costs the layout, never the build:
 * `recordBytecodeOrder` then answers undefined.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFerry } from '../bench/ferry'
import { startServer, stopProcess } from '../bench/processes'

/** Runs `binary` once and returns the path of the order file it wrote, or undefined (with a warning). */
export async function recordBytecodeOrder(binary: string): Promise<string | undefined> {
	const directory = mkdtempSync(join(tmpdir(), 'ferry-bytecode-order-'))
	const orderFile = join(directory, 'ferry.order')
	const upstream = await startServer('upstream', ['bun', resolve(import.meta.dir, '..', 'bench', 'upstream.ts')]).catch(() => undefined)
	try {
		if (!upstream) throw new Error('the bench upstream did not start')
		const ferry = await startFerry(upstream.url, { command: [binary], env: { BUN_BYTECODE_ORDER_OUT: orderFile } })
		try {
			if (ferry.unavailable) throw new Error(ferry.unavailable)
			for (const path of ['/login', '/openapi/json']) await fetch(ferry.url + path).then((response) => response.arrayBuffer())
		} finally {
			// The profile is written when the process exits.
			await ferry.stop()
		}
		if (statSync(orderFile, { throwIfNoEntry: false })?.size) return orderFile
		throw new Error('no profile was written')
	} catch (error) {
		console.warn(`bytecode order not recorded (${(error as Error).message.split('\n')[0]}): the binary keeps the default layout`)
		rmSync(directory, { recursive: true, force: true })
		return undefined
	} finally {
		await stopProcess(upstream?.process)
	}
}

/** Removes what `recordBytecodeOrder` left. */
export function removeBytecodeOrder(orderFile: string) {
	rmSync(join(orderFile, '..'), { recursive: true, force: true })
}
