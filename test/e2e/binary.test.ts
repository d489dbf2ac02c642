/**
 * The compiled binary (`bun run build`), copied alone into an empty directory: it starts on SQLite
 * there and serves the console's page, bundle, stylesheet and logo from the files embedded in it,
 * with the same caching and gzip headers as `bun run start`, and the documentation it embeds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const projectRoot = resolve(import.meta.dir, '..', '..')
const BUILD_TIMEOUT_MILLISECONDS = 120_000
const START_TIMEOUT_MILLISECONDS = 20_000
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Reads the binary's output until it says where it listens. */
async function listeningOrigin(output: ReadableStream<Uint8Array>) {
	const decoder = new TextDecoder()
	let text = ''
	const deadline = AbortSignal.timeout(START_TIMEOUT_MILLISECONDS)
	for await (const chunk of output) {
		text += decoder.decode(chunk, { stream: true })
		const port = text.match(/listening on http:\/\/[^\s:]+:(\d+)/)?.[1]
		if (port) return `http://127.0.0.1:${port}`
		if (deadline.aborted) break
	}
	throw new Error(`the binary did not start:\n${text}`)
}

describe('the compiled binary alone in an empty directory', () => {
	let workspace = ''
	let emptyDirectory = ''
	let binary: Bun.Subprocess<'ignore', 'pipe', 'pipe'> | undefined
	let origin = ''

	beforeAll(async () => {
		workspace = await mkdtemp(join(tmpdir(), 'ferry-binary-'))
		const built = join(workspace, 'build', 'ferry')
		const build = Bun.spawn([process.execPath, 'scripts/build.ts', '--outfile', built], { cwd: projectRoot, stdout: 'ignore', stderr: 'pipe' })
		const [exitCode, errors] = await Promise.all([build.exited, new Response(build.stderr).text()])
		if (exitCode !== 0) throw new Error(`bun run build failed: ${errors}`)
		emptyDirectory = join(workspace, 'empty')
		await mkdir(emptyDirectory)
		await copyFile(built, join(emptyDirectory, 'ferry'))
		await Bun.spawn(['chmod', '+x', join(emptyDirectory, 'ferry')]).exited
		binary = Bun.spawn(['./ferry', '--host', '127.0.0.1', '--port', '0', '--data-dir', './data'], {
			cwd: emptyDirectory,
			// Nothing of the test's environment (database URLs, NODE_ENV) reaches it: SQLite in ./data.
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: emptyDirectory },
			stdin: 'ignore',
			stdout: 'pipe',
			stderr: 'pipe',
		})
		origin = await listeningOrigin(binary.stdout)
	}, BUILD_TIMEOUT_MILLISECONDS)

	afterAll(async () => {
		binary?.kill()
		await binary?.exited
		if (workspace) await rm(workspace, { recursive: true, force: true })
	})

	const get = (path: string, encoding: string) => fetch(origin + path, { headers: { 'accept-encoding': encoding }, decompress: false })

	test('renders the login page that names the bundle and the stylesheet, keeping its data in ./data', async () => {
		const response = await get('/login', 'identity')
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
		const page = await response.text()
		expect(page).toMatch(/<script type="module" src="\/assets\/client-[\w-]+\.js"/)
		expect(page).toMatch(/href="\/assets\/styles-[\w-]+\.css"/)
		expect((await stat(join(emptyDirectory, 'data'))).isDirectory()).toBe(true)
	})

	test('serves the bundle and the stylesheet as immutable, gzipped to a browser that accepts it', async () => {
		const page = await (await get('/login', 'identity')).text()
		const client = page.match(/src="(\/assets\/client-[\w-]+\.js)"/)![1]!
		const stylesheet = page.match(/href="(\/assets\/styles-[\w-]+\.css)"/)![1]!
		for (const [path, contentType] of [[client, 'text/javascript; charset=utf-8'], [stylesheet, 'text/css; charset=utf-8']] as const) {
			const plain = await get(path, 'identity')
			expect(plain.status).toBe(200)
			expect(plain.headers.get('content-type')).toBe(contentType)
			expect(plain.headers.get('cache-control')).toBe(IMMUTABLE)
			expect(plain.headers.get('x-content-type-options')).toBe('nosniff')
			expect(plain.headers.get('vary')).toBe('accept-encoding')
			expect(plain.headers.get('content-encoding')).toBeNull()
			const text = await plain.text()
			const zipped = await get(path, 'gzip, deflate, br')
			expect(zipped.headers.get('content-encoding')).toBe('gzip')
			expect(zipped.headers.get('cache-control')).toBe(IMMUTABLE)
			expect(zipped.headers.get('content-type')).toBe(contentType)
			const body = new Uint8Array(await zipped.arrayBuffer())
			expect(new TextDecoder().decode(Bun.gunzipSync(body))).toBe(text)
			expect(body.byteLength).toBeLessThan(text.length / 2)
		}
		expect(await (await get(client, 'identity')).text()).toContain('window.__documentProps')
	})

	test('serves ui/public/logo.png from the site root for a day', async () => {
		const response = await get('/logo.png', 'gzip')
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('image/png')
		expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await readFile(join(projectRoot, 'ui', 'public', 'logo.png'))))
	})

	test('answers 404 for an asset it does not have', async () => {
		expect((await get('/assets/client-missing.js', 'gzip')).status).toBe(404)
	})

	test('carries the documentation: an admin reads a docs/ page as the repository has it', async () => {
		const login = await fetch(`${origin}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: '123456' }) })
		const cookie = login.headers.get('set-cookie')!.split(';')[0]!
		const page = await fetch(`${origin}/api/docs?path=guide/tokens.md`, { headers: { cookie, 'New-Api-User': '1' } })
		const answer = (await page.json()) as { success: boolean; message: string; data: { path: string; markdown: string } }
		expect(answer).toEqual({ success: true, message: '', data: { path: 'docs/guide/tokens.md', markdown: await readFile(join(projectRoot, 'docs', 'guide', 'tokens.md'), 'utf8') } })
	})
})
