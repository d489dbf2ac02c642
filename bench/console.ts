/**
 * `bun run bench:console`: what the console costs, measured, never asserted (issue 13: first load ≤ 230 KB
 * of JavaScript gzipped, without zod; server render p50 < 20 ms on this machine).
 *
 * Starts Ferry (`bun src/main.ts`, fresh SQLite) as its own process, signs in as root through the API,
 * adds a few rows to every list, then:
 * - server render: for each page, sequential GETs with root's session, wall time until the whole
 *   HTML has arrived; p50 / p95 / max per page;
 * - first load: each page opened in a fresh Chromium context (CHROMIUM_PATH, default /usr/bin/chromium),
 *   summing the bytes on the wire (gzipped as sent) of every script the page loads before it hydrates,
 *   and whether any of those scripts carries zod (its `$ZodType` class name, which minifying keeps):
 *   schemas belong to the calls that validate, never to a page's first load.
 * Flags: --requests N (per page, default 200).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { freePort, stopProcess, waitForStatus } from './processes'

const repositoryRoot = resolve(import.meta.dir, '..')
const requestsFlag = process.argv.indexOf('--requests')
const requestsPerPage = requestsFlag >= 0 ? Math.max(10, Number(process.argv[requestsFlag + 1]) || 200) : 200
const JS_BUDGET_BYTES = 230 * 1024
/** A string zod's bundle always contains (the name of its base schema class). */
const ZOD_MARKER = '$ZodType'
const RENDER_BUDGET_MS = 20

const dataDir = mkdtempSync(join(tmpdir(), 'ferry-bench-console-'))
const port = freePort()
const origin = `http://127.0.0.1:${port}`
const ferry = Bun.spawn(['bun', 'src/main.ts'], {
	cwd: repositoryRoot,
	env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'error' },
	stdout: 'ignore',
	stderr: 'inherit',
})
const watchdog = setTimeout(() => {
	console.error('bench:console: watchdog fired after 5 minutes')
	ferry.kill('SIGKILL')
	process.exit(1)
}, 5 * 60_000)

function percentile(sorted: number[], fraction: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!
}

async function signIn() {
	const answer = await fetch(`${origin}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: '123456' }) })
	const body = (await answer.json()) as { data: { id: number } }
	return { cookie: answer.headers.get('set-cookie')!.split(';')[0]!, userId: body.data.id }
}

async function seed(session: { cookie: string; userId: number }) {
	const call = (method: string, path: string, body: unknown) =>
		fetch(origin + path, { method, headers: { 'content-type': 'application/json', cookie: session.cookie, 'new-api-user': String(session.userId) }, body: JSON.stringify(body) })
	for (let index = 0; index < 5; index++) await call('POST', '/api/user/', { username: `crew${index}`, password: 'password123', display_name: `Crew ${index}` })
	for (let index = 0; index < 5; index++) await call('POST', '/api/channel/', { type: 1, name: `channel-${index}`, key: `sk-${index}`, base_url: 'https://api.example.com', models: 'gpt-4o-mini,gpt-4o', group: 'default' })
	await call('POST', '/api/token/', { name: 'deck', remain_quota: 500_000, count: 10 })
	await call('POST', '/api/redemption/', { name: 'gift', quota: 500_000, count: 10 })
}

const pages = ['/', '/about', '/pricing', '/login', '/register', '/playground', '/token', '/detail', '/redemption', '/topup', '/user', '/channel', '/channel/add', '/channel/edit/1', '/log', '/midjourney', '/task', '/setting', '/setting?tab=operation', '/setting?tab=system']

async function measureRenders(cookie: string) {
	const rows: { page: string; p50: number; p95: number; max: number }[] = []
	for (const page of pages) {
		const fetchPage = async () => {
			const response = await fetch(origin + page, { headers: { cookie, 'accept-encoding': 'identity' } })
			await response.text()
			if (response.status !== 200) throw new Error(`${page} answered ${response.status}`)
		}
		for (let index = 0; index < 20; index++) await fetchPage()
		const times: number[] = []
		for (let index = 0; index < requestsPerPage; index++) {
			const started = performance.now()
			await fetchPage()
			times.push(performance.now() - started)
		}
		times.sort((a, b) => a - b)
		rows.push({ page, p50: percentile(times, 0.5), p95: percentile(times, 0.95), max: times.at(-1)! })
	}
	return rows
}

async function measureFirstLoad(cookie: string) {
	const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
	if (!existsSync(executablePath)) return undefined
	const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
	const rows: { page: string; scripts: number; bytes: number; zod: boolean }[] = []
	try {
		for (const page of pages) {
			const context = await browser.newContext()
			const [name, value] = cookie.split('=') as [string, string]
			await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/' }])
			const tab = await context.newPage()
			const scripts: Promise<{ size: number; zod: boolean }>[] = []
			tab.on('requestfinished', (request) => {
				if (request.resourceType() !== 'script') return
				scripts.push((async () => {
					const [sizes, body] = await Promise.all([request.sizes(), request.response().then((response) => response?.text() ?? '')])
					return { size: sizes.responseBodySize, zod: body.includes(ZOD_MARKER) }
				})())
			})
			await tab.goto(origin + page)
			await tab.waitForFunction(() => (window as { __hydrated?: boolean }).__hydrated === true, undefined, { timeout: 15_000 })
			await tab.waitForLoadState('networkidle')
			const loaded = await Promise.all(scripts)
			rows.push({ page, scripts: loaded.length, bytes: loaded.reduce((sum, script) => sum + script.size, 0), zod: loaded.some((script) => script.zod) })
			await context.close()
		}
	} finally {
		await browser.close()
	}
	return rows
}

try {
	await waitForStatus(origin, ferry)
	const session = await signIn()
	await seed(session)
	const renders = await measureRenders(session.cookie)
	console.log(`\nServer render (root's session, ${requestsPerPage} sequential requests per page, ms)\n`)
	console.log('| page | p50 | p95 | max |\n|---|---|---|---|')
	for (const row of renders) console.log(`| ${row.page} | ${row.p50.toFixed(2)} | ${row.p95.toFixed(2)} | ${row.max.toFixed(2)} |`)
	const worstMedian = Math.max(...renders.map((row) => row.p50))
	console.log(`\nslowest page p50: ${worstMedian.toFixed(2)} ms (target < ${RENDER_BUDGET_MS} ms)`)
	const loads = await measureFirstLoad(session.cookie)
	if (!loads) console.log('\nFirst load: skipped, no Chromium (set CHROMIUM_PATH)')
	else {
		console.log('\nFirst load, JavaScript on the wire (gzipped as sent)\n')
		console.log('| page | scripts | KB | zod |\n|---|---|---|---|')
		for (const row of loads) console.log(`| ${row.page} | ${row.scripts} | ${(row.bytes / 1024).toFixed(1)} | ${row.zod ? 'yes' : 'no'} |`)
		const heaviest = Math.max(...loads.map((row) => row.bytes))
		console.log(`\nheaviest first load: ${(heaviest / 1024).toFixed(1)} KB (budget ${JS_BUDGET_BYTES / 1024} KB)`)
		const withZod = loads.filter((row) => row.zod).map((row) => row.page)
		console.log(`first loads carrying zod: ${withZod.length === 0 ? 'none' : withZod.join(', ')}`)
	}
} finally {
	clearTimeout(watchdog)
	await stopProcess(ferry)
	rmSync(dataDir, { recursive: true, force: true })
}
