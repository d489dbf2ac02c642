import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { eq } from 'drizzle-orm'
import { openStore } from '@/db'
import { isAllowance } from '@/billing/allowance-statements'
import { randomString } from '@/lib/crypto'
import { startFakeOpenAI } from '../helpers/fake-openai'
import { postgresUrl } from '../helpers/services'

const ROOT = resolve(import.meta.dir, '..', '..')
const STREAMS = 50

function freePort() {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port!
	probe.stop(true)
	return port
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		if (await check().catch(() => false)) return
		await Bun.sleep(50)
	}
	throw new Error(`timed out waiting for ${what}`)
}

interface Database { url: string; dataDir: string; drop(): Promise<void> }

function sqliteDatabase(): Database {
	const dataDir = mkdtempSync(join(tmpdir(), 'ferry-crash-'))
	return { url: '', dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
}

async function pgDatabase(baseUrl: string): Promise<Database> {
	const name = `ferry_crash_${randomString(8, 'abcdefghijklmnopqrstuvwxyz')}`
	const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
	await admin.unsafe(`CREATE DATABASE ${name}`)
	await admin.end()
	const url = new URL(baseUrl)
	url.pathname = `/${name}`
	const dataDir = mkdtempSync(join(tmpdir(), 'ferry-crash-'))
	return {
		url: url.toString(), dataDir,
		async drop() {
			const cleanup = postgres(baseUrl, { max: 1, onnotice: () => {} })
			await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
			await cleanup.end()
			rmSync(dataDir, { recursive: true, force: true })
		},
	}
}

const targets: { dialect: string; open: () => Promise<Database> }[] = [{ dialect: 'sqlite', open: async () => sqliteDatabase() }]
const pgUrl = postgresUrl()
if (pgUrl) targets.push({ dialect: 'pg', open: () => pgDatabase(pgUrl) })

for (const target of targets) {
	describe(`a crash during streaming calls on ${target.dialect}`, () => {
		const cleanups: (() => Promise<void> | void)[] = []
		// Dropping a Postgres schema waits for the killed server's connections to end: give it time.
		afterAll(async () => {
			for (const cleanup of cleanups.reverse()) await cleanup()
		}, 30_000)

		test(`the server killed with SIGKILL during ${STREAMS} streams leaves no pending hold after restart and a clean audit`, async () => {
			const database = await target.open()
			cleanups.push(() => database.drop())
			const upstream = startFakeOpenAI({ reply: 'one two three four five six seven eight nine ten', fault: 'slow-chunks=400' })
			cleanups.push(() => upstream.stop())
			const port = freePort()
			const environment = {
				...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: database.dataDir, DATABASE_URL: database.url,
				NODE_NAME: 'crash-node', LOG_LEVEL: 'error', SESSION_SECRET: 's'.repeat(40), CRYPTO_SECRET: 'c'.repeat(40),
			}
			const start = () => Bun.spawn([process.execPath, 'src/main.ts'], { cwd: ROOT, env: environment, stdout: 'ignore', stderr: 'inherit' })
			const base = `http://127.0.0.1:${port}`
			let server = start()
			cleanups.push(async () => {
				server.kill('SIGKILL')
				await server.exited
			})
			await waitFor(async () => (await fetch(`${base}/api/status`)).ok, 'the server to start')

			const login = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: '123456' }) })
			const auth = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'new-api-user': String((await login.json()).data.id), 'content-type': 'application/json' }
			await fetch(`${base}/api/option/`, { method: 'PUT', headers: auth, body: JSON.stringify({ key: 'PrivateUpstreamsEnabled', value: 'true' }) })
			const channel = await fetch(`${base}/api/channel/`, { method: 'POST', headers: auth, body: JSON.stringify({ type: 1, name: 'slow', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' }) })
			expect((await channel.json()).success).toBe(true)
			const token = (await (await fetch(`${base}/api/token/`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'crash', unlimited_quota: true }) })).json()).data[0].key
			const balance = async () => (await (await fetch(`${base}/api/user/self`, { headers: auth })).json()).data.quota as number
			const before = await balance()

			const clients = new AbortController()
			const streams = Array.from({ length: STREAMS }, () => fetch(`${base}/v1/chat/completions`, {
				method: 'POST', signal: clients.signal,
				headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count to ten' }] }),
			}).then((response) => response.text()).catch(() => 'aborted'))
			await waitFor(async () => upstream.requests.length >= STREAMS, 'every stream to reach the upstream')

			server.kill('SIGKILL')
			await server.exited
			clients.abort()
			await Promise.all(streams)

			const store = await openStore({ databaseUrl: database.url, dataDir: database.dataDir })
			cleanups.push(() => store.close())
			const { quotaHolds } = store.tables
			const pending = () => store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))
			// Each stream's hold is a row of its own or, once the wallet is busy, part of the node's allowance (Postgres).
			const stranded = await pending()
			const allowances = stranded.filter((hold) => isAllowance(hold.requestId))
			const callHolds = stranded.filter((hold) => !isAllowance(hold.requestId))
			expect(allowances).toHaveLength(target.dialect === 'pg' ? 1 : 0)
			if (target.dialect === 'pg') expect(callHolds.length).toBeLessThan(STREAMS)
			else expect(callHolds).toHaveLength(STREAMS)
			expect(stranded.reduce((sum, hold) => sum + hold.amount, 0)).toBeGreaterThanOrEqual(STREAMS * callHolds[0]!.amount)

			server = start()
			await waitFor(async () => (await pending()).length === 0, 'the restarted server to return the interrupted holds')
			const voided = await store.db.select().from(quotaHolds).where(eq(quotaHolds.reason, 'interrupted'))
			expect(voided).toHaveLength(stranded.length)
			// Nothing was charged for streams that never ended, and everything held is back.
			expect(await balance()).toBe(before)

			const audit = Bun.spawnSync([process.execPath, 'src/main.ts', 'audit'], { cwd: ROOT, env: environment })
			expect(audit.stdout.toString()).toContain('ledger audit: no differences')
			expect(audit.exitCode).toBe(0)
		}, 60_000)
	})
}
