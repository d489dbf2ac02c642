/**
 * The console's files, served by @elysiajs/static: the content-hashed bundle, chunks and stylesheet
 * under /assets/ (cached for a year, immutable) and ui/public's files from the site root (a day).
 * The plugin answers with the file as it is; the hook adds what it leaves out: one content type per
 * extension, and gzip for text files when the browser accepts it (a single binary has no proxy in
 * front to do it).
 */
import { mkdir } from 'node:fs/promises'
import { extname } from 'node:path'
import { staticPlugin } from '@elysiajs/static'
import { Elysia } from 'elysia'
import { assetDirectories } from '@/console/assets'

const ONE_YEAR_SECONDS = 31_536_000
const ONE_DAY_SECONDS = 86_400
const GZIP_LEVEL = 9

const contentTypes: Record<string, string> = {
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.png': 'image/png',
	'.svg': 'image/svg+xml',
	'.ico': 'image/x-icon',
}

const compressible = new Set(['.js', '.css', '.svg'])
/** Gzipped bodies by URL path, made on first request. Asset names carry their content's hash, and only
 * paths of existing files get here, so the map stays as small as the set of files. */
const gzipped = new Map<string, Promise<Uint8Array<ArrayBuffer>>>()

function gzippedBody(pathname: string, response: Response) {
	let body = gzipped.get(pathname)
	if (!body) {
		body = response.bytes().then((bytes) => new Uint8Array(Bun.gzipSync(bytes, { level: GZIP_LEVEL })))
		body.catch(() => gzipped.delete(pathname))
		gzipped.set(pathname, body)
	}
	return body
}

function acceptsGzip(request: Request) {
	return /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
}

/**
 * Sets the content type and, for text files, the encoding of a file the plugin answered with. Not
 * `async`: Elysia takes any value a mapResponse hook returns, a promise of undefined included, as the
 * new response, so the hook returns undefined itself when it leaves the response alone.
 */
function encodeFile(request: Request, response: unknown): Response | Promise<Response> | undefined {
	// Misses are errors, not responses; ui/public's files are prebuilt responses (functions) that keep the plugin's headers.
	if (!(response instanceof Response) || response.status !== 200) return
	const pathname = new URL(request.url).pathname
	const extension = extname(pathname)
	response.headers.set('content-type', contentTypes[extension] ?? 'application/octet-stream')
	if (!compressible.has(extension)) return response
	response.headers.set('vary', 'accept-encoding')
	if (!acceptsGzip(request)) return response
	const headers = new Headers(response.headers)
	headers.set('content-encoding', 'gzip')
	return gzippedBody(pathname, response).then((body) => new Response(body, { headers }))
}

export async function consoleFiles(): Promise<Elysia> {
	const directories = assetDirectories()
	// From source the folder fills on the first page view (see assets.ts); the plugin needs it to exist now.
	await mkdir(directories.assets, { recursive: true }).catch(() => undefined)
	const nosniff = { 'x-content-type-options': 'nosniff' }
	return new Elysia()
		.mapResponse(({ request, response }) => encodeFile(request, response))
		.use(
			await staticPlugin({
				assets: directories.assets,
				prefix: '/assets',
				// Looked up per request: from source the files appear after start-up.
				alwaysStatic: false,
				etag: false,
				headers: { 'cache-control': `public, max-age=${ONE_YEAR_SECONDS}, immutable`, ...nosniff },
				silent: true,
			}),
		)
		.use(
			await staticPlugin({
				assets: directories.public,
				prefix: '/',
				// One route per file: a wildcard at the root would take the console's pages.
				alwaysStatic: true,
				etag: false,
				indexHTML: false,
				headers: { 'cache-control': `public, max-age=${ONE_DAY_SECONDS}`, ...nosniff },
				silent: true,
			}),
		)
}
