/**
 * Redis for tests: a key prefix of its own per run (several runs may share the server), and a
 * private redis-server on a free loopback port that a test may stop and start again (an outage).
 */
import { createServer } from 'node:net'
import { randomString } from '@/lib/crypto'
import { redisServerPath } from './services'

export const uniquePrefix = (label: string) => `ferry-test-${label}-${randomString(8)}:`

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer()
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number }
			server.close(() => resolve(port))
		})
		server.on('error', reject)
	})
}

export interface PrivateRedis {
	url: string
	/** Stops the server (an outage); `start` brings it back on the same port. */
	stop(): Promise<void>
	start(): Promise<void>
	/** SIGSTOP: the server keeps its connections but answers nothing (a hung Redis) until `thaw`. */
	freeze(): void
	/** SIGCONT: the server runs again and answers what it was sent meanwhile. */
	thaw(): void
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
	const executable = redisServerPath()!
	const port = await freePort()
	let process: ReturnType<typeof Bun.spawn> | undefined
	const url = `redis://127.0.0.1:${port}`

	async function start() {
		process = Bun.spawn([executable, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdout: 'ignore', stderr: 'ignore' })
		for (let attempt = 0; attempt < 100; attempt++) {
			const connected = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } }).then((socket) => {
				socket.end()
				return true
			}, () => false)
			if (connected) return
			await Bun.sleep(20)
		}
		throw new Error('the private redis-server did not start')
	}

	async function stop() {
		if (!process) return
		// A stopped process acts on SIGTERM only once it runs again.
		process.kill('SIGCONT')
		process.kill()
		await process.exited
		process = undefined
	}

	await start()
	return { url, start, stop, freeze: () => process?.kill('SIGSTOP'), thaw: () => process?.kill('SIGCONT') }
}
