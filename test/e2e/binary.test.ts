/**
 * The compiled binary (`bun run build`), copied alone into an empty directory: it starts on SQLite
 * there and serves the console's page, bundle, stylesheet and logo from the files embedded in it,
 * with the same caching and gzip headers as `bun run start`, and the documentation it embeds. The
 * provider adaptors it loads only for the channel types in use are bundled too: a Claude channel
 * serves a Claude SDK's call and an OpenAI SDK's converted one. The dashboard export it runs at start
 * finds its reading thread (a worker entrypoint of its own) and counts a log it found in ./data.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { LOG_TYPE } from '@shared/log'
import { openStore } from '@/db'
import { eventually } from '../helpers/eventually'

const projectRoot = resolve(import.meta.dir, '..', '..')
const BUILD_TIMEOUT_MILLISECONDS = 120_000
const START_TIMEOUT_MILLISECONDS = 20_000
const IMMUTABLE = 'public, max-age=31536000, immutable'
/** The export's first run comes at its clock's first tick, 15 s after the start. */
const FIRST_EXPORT_TIMEOUT_MILLISECONDS = 40_000
const HOUR = 3600
/** A consume log already in ./data when the binary starts, on the hour three hours ago (older than the dashboard reads live). */
const EARLIER_CALL_AT = Math.floor(Date.now() / 1000 / HOUR) * HOUR - 3 * HOUR

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
		await mkdir(join(emptyDirectory, 'data'))
		const seeded = await openStore({ databaseUrl: '', dataDir: join(emptyDirectory, 'data') })
		await seeded.db.insert(seeded.tables.logs).values({
			userId: 1, username: 'root', modelName: 'gpt-4o-mini', createdAt: EARLIER_CALL_AT, type: LOG_TYPE.consume, promptTokens: 3, completionTokens: 4, quota: 21,
		})
		await seeded.close()
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

	const signIn = async () => {
		const login = await fetch(`${origin}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: '123456' }) })
		return { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'New-Api-User': '1' }
	}
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
		const page = await fetch(`${origin}/api/docs?path=guide/tokens.md`, { headers: await signIn() })
		const answer = (await page.json()) as { success: boolean; message: string; data: { path: string; markdown: string } }
		expect(answer).toEqual({ success: true, message: '', data: { path: 'docs/guide/tokens.md', markdown: await readFile(join(projectRoot, 'docs', 'guide', 'tokens.md'), 'utf8') } })
	})
	test('loads the adaptor of a channel type it was not started with: a Claude channel answers both SDKs', async () => {
		const model = 'claude-sonnet-4-20250514'
		// A fake Anthropic Messages API on loopback, answering every call with the same message.
		const upstream = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			fetch: async (request) => {
				const body = (await request.json()) as { model: string }
				return Response.json({
					id: 'msg_binary', type: 'message', role: 'assistant', model: body.model, stop_reason: 'end_turn', stop_sequence: null,
					content: [{ type: 'text', text: 'hello from claude' }], usage: { input_tokens: 3, output_tokens: 4 },
				})
			},
		})
		try {
			const headers = { ...(await signIn()), 'content-type': 'application/json' }
			const call = async (method: string, path: string, body: unknown) => {
				const answer = (await (await fetch(`${origin}${path}`, { method, headers, body: JSON.stringify(body) })).json()) as { success: boolean; message: string; data: unknown }
				expect(answer.message).toBe('')
				return answer.data
			}
			await call('PUT', '/api/option/', { key: 'PrivateUpstreamsEnabled', value: 'true' })
			await call('POST', '/api/channel/', { type: 14, name: 'claude', key: 'sk-ant-upstream', group: 'default', models: model, base_url: `http://127.0.0.1:${upstream.port}` })
			const [token] = (await call('POST', '/api/token/', { name: 'binary', remain_quota: 0, unlimited_quota: true })) as { key: string }[]
			const claude = new Anthropic({ apiKey: token!.key, baseURL: origin, maxRetries: 0 })
			const message = await claude.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
			expect(message.content.map((block) => (block.type === 'text' ? block.text : block.type))).toEqual(['hello from claude'])
			const openai = new OpenAI({ apiKey: token!.key, baseURL: `${origin}/v1`, maxRetries: 0 })
			const completion = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
			expect(completion.choices[0]!.message.content).toBe('hello from claude')
		} finally {
			await upstream.stop(true)
		}
	})

	test('runs the dashboard export on its own reading thread: the log found in ./data becomes a bucket', async () => {
		const headers = await signIn()
		const bucket = async () => {
			const answer = (await (await fetch(`${origin}/api/data/`, { headers })).json()) as { success: boolean; data: { id: number; created_at: number; count: number; quota: number }[] }
			// Exported buckets have ids; what the dashboard reads live from the log has 0.
			return answer.data?.find((row) => row.created_at === EARLIER_CALL_AT && row.id > 0)
		}
		await eventually(async () => (await bucket()) !== undefined, FIRST_EXPORT_TIMEOUT_MILLISECONDS, 250)
		expect(await bucket()).toMatchObject({ created_at: EARLIER_CALL_AT, count: 1, quota: 21 })
	}, FIRST_EXPORT_TIMEOUT_MILLISECONDS + 5_000)
})
