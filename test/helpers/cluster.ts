/**
 * Several real Ferry processes (`bun src/main.ts`) on one fresh Postgres database and one Redis,
 * as an operator runs them behind a load balancer (docs/operations/several-nodes.md). Each node has its own port, data
 * directory and NODE_NAME, and all share the secrets. A node can be killed (SIGKILL: no shutdown,
 * its leases and holds left behind) and started again under the same name.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import type { Subprocess } from 'bun'
import { randomString } from '@/lib/crypto'
import { freePort, stopProcess, waitForStatus } from '../../bench/processes'

const projectRoot = resolve(import.meta.dir, '..', '..')
const SECRET_LENGTH = 40

export interface ClusterNode {
	name: string
	url: string
	/** Whatever the node wrote to stderr, for a failing test's message. */
	errors(): string
	/** SIGKILL: the process ends on the spot, as in a crash. */
	kill(): Promise<void>
	/** Starts the node again with the same name, port and data directory. */
	restart(): Promise<void>
	alive(): boolean
}

export interface Cluster {
	nodes: ClusterNode[]
	databaseUrl: string
	/** Raw SQL on the cluster's database. */
	sql: postgres.Sql
	/** Runs `ferry audit` against the cluster's database: its exit code and output. */
	audit(): Promise<{ exitCode: number; output: string }>
	stop(): Promise<void>
}

/** A database of its own on the server of `baseUrl`, dropped by `stop`. */
async function createDatabase(baseUrl: string) {
	const name = `ferry_nodes_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
	const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
	await admin.unsafe(`CREATE DATABASE "${name}"`)
	await admin.end({ timeout: 5 })
	const url = new URL(baseUrl)
	url.pathname = `/${name}`
	return {
		url: url.toString(),
		async drop() {
			const dropper = postgres(baseUrl, { max: 1, onnotice: () => {} })
			await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
			await dropper.end({ timeout: 5 })
		},
	}
}

export interface ClusterOptions {
	nodes: number
	databaseUrl: string
	/** Without one, the nodes share only the database. */
	redisUrl?: string
	redisKeyPrefix?: string
	/**
	 * Start every node at the same moment on the empty database, as an orchestrator does; by default
	 * the first node creates the schema and the root account before the others start.
	 */
	together?: boolean
}

export async function startCluster({ nodes: count, databaseUrl, redisUrl = '', redisKeyPrefix = '', together = false }: ClusterOptions): Promise<Cluster> {
	const database = await createDatabase(databaseUrl)
	const sql = postgres(database.url, { max: 2, onnotice: () => {} })
	const shared = {
		DATABASE_URL: database.url,
		REDIS_URL: redisUrl,
		...(redisKeyPrefix ? { REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
		SESSION_SECRET: randomString(SECRET_LENGTH),
		CRYPTO_SECRET: randomString(SECRET_LENGTH),
		LOG_LEVEL: 'warn',
		HOST: '127.0.0.1',
	}
	const directories: string[] = []

	type ManagedNode = ClusterNode & { start(): Promise<void>; stopGracefully(): Promise<void> }

	function makeNode(index: number): ManagedNode {
		const name = `node-${String.fromCharCode('a'.charCodeAt(0) + index)}`
		const port = freePort()
		const dataDir = mkdtempSync(join(tmpdir(), `ferry-${name}-`))
		directories.push(dataDir)
		let child: Subprocess<'ignore', 'ignore', 'pipe'> | undefined
		let stderr = ''
		async function start() {
			stderr = ''
			child = Bun.spawn([process.execPath, 'src/main.ts'], {
				cwd: projectRoot,
				env: { ...process.env, ...shared, PORT: String(port), NODE_NAME: name, DATA_DIR: dataDir },
				stdin: 'ignore', stdout: 'ignore', stderr: 'pipe',
			})
			const decoder = new TextDecoder()
			void child.stderr.pipeTo(new WritableStream({ write: (chunk) => { stderr += decoder.decode(chunk) } })).catch(() => {})
			await waitForStatus(`http://127.0.0.1:${port}`, child)
		}
		return {
			name,
			url: `http://127.0.0.1:${port}`,
			errors: () => stderr,
			start,
			async kill() {
				child?.kill('SIGKILL')
				await child?.exited
			},
			restart: start,
			alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
			async stopGracefully() {
				await stopProcess(child)
			},
		}
	}

	const nodes = Array.from({ length: count }, (_, index) => makeNode(index))
	try {
		if (together) await Promise.all(nodes.map((node) => node.start()))
		else {
			// The first node creates the schema and the root account; the others join an existing database.
			await nodes[0]!.start()
			await Promise.all(nodes.slice(1).map((node) => node.start()))
		}
	} catch (error) {
		const errors = nodes.map((node) => `${node.name}: ${node.errors()}`).join('\n')
		for (const node of nodes) await node.kill()
		await sql.end({ timeout: 5 })
		await database.drop()
		throw new Error(`the cluster did not start: ${error}\n${errors}`)
	}

	return {
		nodes,
		databaseUrl: database.url,
		sql,
		async audit() {
			const run = Bun.spawn([process.execPath, 'src/main.ts', 'audit'], {
				cwd: projectRoot,
				env: { ...process.env, ...shared, DATA_DIR: directories[0]! },
				stdout: 'pipe', stderr: 'pipe',
			})
			const [exitCode, out, err] = await Promise.all([run.exited, new Response(run.stdout).text(), new Response(run.stderr).text()])
			return { exitCode, output: out + err }
		},
		async stop() {
			for (const node of nodes) await node.stopGracefully()
			await sql.end({ timeout: 5 })
			await database.drop()
			for (const directory of directories) rmSync(directory, { recursive: true, force: true })
		},
	}
}

/** Milliseconds until `check` first holds, looking every few milliseconds, or undefined past `limitMs`. */
export async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number | undefined> {
	const started = performance.now()
	while (performance.now() - started < limitMs) {
		if (await check()) return performance.now() - started
		await Bun.sleep(5)
	}
	return undefined
}
