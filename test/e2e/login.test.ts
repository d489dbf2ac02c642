/**
 * The shipped binary in a real browser: `bun run build` inside this run (a stale binary proves nothing),
 * the executable copied alone into an empty directory, started on loopback, and the login journey in
 * Chromium. Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium): skipped loudly without it, failed under CI.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { chromiumPath } from '../helpers/services'

const executablePath = chromiumPath()
const projectRoot = resolve(import.meta.dir, '..', '..')
const browserFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

function freePort() {
	const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
	const port = probe.port
	probe.stop(true)
	return port!
}

async function readLogs(directory: string) {
	const read = (name: string) => readFile(join(directory, name), 'utf8').catch(() => '')
	return `stdout:\n${await read('ferry.out.log')}\nstderr:\n${await read('ferry.err.log')}`
}

async function waitForServer(origin: string, server: Bun.Subprocess, logDirectory: string) {
	const deadline = Date.now() + 20_000
	while (Date.now() < deadline) {
		if (server.exitCode !== null) throw new Error(`ferry exited with ${server.exitCode}\n${await readLogs(logDirectory)}`)
		const response = await fetch(`${origin}/api/status`).catch(() => undefined)
		if (response?.ok) return
		await Bun.sleep(100)
	}
	throw new Error(`ferry did not answer /api/status within 20 s\n${await readLogs(logDirectory)}`)
}

describe.skipIf(!executablePath)('the login journey in the built binary', () => {
	let workDirectory = ''
	let server: Bun.Subprocess | undefined
	let browser: Browser | undefined
	let origin = ''

	beforeAll(async () => {
		workDirectory = await mkdtemp(join(tmpdir(), 'ferry-e2e-'))
		const buildOutput = join(workDirectory, 'build', 'ferry')
		// `bun run build`, written outside dist/ so a concurrent build elsewhere cannot swap the binary under us.
		const build = Bun.spawn([process.execPath, 'run', 'build', '--outfile', buildOutput], { cwd: projectRoot, stdout: 'pipe', stderr: 'pipe' })
		const [exitCode, output, errors] = await Promise.all([build.exited, new Response(build.stdout).text(), new Response(build.stderr).text()])
		if (exitCode !== 0) throw new Error(`bun run build failed:\n${output}\n${errors}`)

		const runDirectory = join(workDirectory, 'run')
		await mkdir(runDirectory)
		await copyFile(buildOutput, join(runDirectory, 'ferry'))
		await chmod(join(runDirectory, 'ferry'), 0o755)
		const port = freePort()
		origin = `http://127.0.0.1:${port}`
		server = Bun.spawn([join(runDirectory, 'ferry')], {
			cwd: runDirectory,
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: runDirectory, PORT: String(port), HOST: '127.0.0.1' },
			stdout: Bun.file(join(workDirectory, 'ferry.out.log')),
			stderr: Bun.file(join(workDirectory, 'ferry.err.log')),
		})
		await waitForServer(origin, server, workDirectory)
		browser = await chromium.launch({ executablePath, args: browserFlags })
	}, 180_000)

	afterAll(async () => {
		await browser?.close().catch(() => {})
		if (server && server.exitCode === null) {
			server.kill()
			await server.exited
		}
		if (workDirectory) await rm(workDirectory, { recursive: true, force: true })
	})

	/** Opens a page, in a browser asking for Chinese, that records console errors, page errors and every host it contacts. */
	async function openPage(path: string) {
		const page = await browser!.newPage({ locale: 'zh-CN' })
		const consoleErrors: string[] = []
		const pageErrors: string[] = []
		const hosts = new Set<string>()
		const paths: string[] = []
		page.on('console', (message) => {
			if (message.type() === 'error') consoleErrors.push(message.text())
		})
		page.on('pageerror', (error) => pageErrors.push(error.message))
		page.on('request', (request) => {
			const url = new URL(request.url())
			hosts.add(url.host)
			paths.push(url.pathname)
		})
		await page.goto(origin + path)
		await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: 15_000 })
		return { page, consoleErrors, pageErrors, hosts, paths }
	}

	async function submit(page: Page, username: string, password: string) {
		await page.getByLabel('用户名', { exact: true }).fill(username)
		await page.getByLabel('密码', { exact: true }).fill(password)
		await page.getByRole('button', { name: '登录', exact: true }).click()
	}

	test('hydrates /login without a hydration error, a page error or a request leaving loopback', async () => {
		const { page, consoleErrors, pageErrors, hosts } = await openPage('/login')
		expect(await page.title()).toBe('登录 - Ferry')
		expect(consoleErrors.filter((text) => /hydrat|#418|#423|#425|Minified React error/i.test(text))).toEqual([])
		expect(consoleErrors).toEqual([])
		expect(pageErrors).toEqual([])
		expect([...hosts]).toEqual([new URL(origin).host])
		await page.close()
	})

	test('asks for both fields before calling the server', async () => {
		const { page, paths } = await openPage('/login')
		await submit(page, 'root', '')
		await page.getByRole('alert').filter({ hasText: '请输入用户名和密码' }).waitFor({ timeout: 5_000 })
		expect(paths).not.toContain('/api/user/login')
		await page.close()
	})

	test('logging in as root with the default password opens the change-password modal', async () => {
		const { page, pageErrors } = await openPage('/login')
		await submit(page, 'root', '123456')
		const dialog = page.getByRole('dialog')
		await dialog.waitFor({ timeout: 10_000 })
		expect(await dialog.textContent()).toContain('请立即修改默认密码')
		const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'))
		expect(stored).toMatchObject({ username: 'root', password_change_required: true })
		await dialog.getByRole('button', { name: '前往修改密码' }).click()
		await page.waitForURL(`${origin}/setting`)
		expect(pageErrors).toEqual([])
		await page.close()
	})
})
