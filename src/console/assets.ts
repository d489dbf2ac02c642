/**
 * The console's built browser assets. scripts/build-assets.ts writes them with a generated
 * .build/assets/manifest.ts whose `with { type: 'file' }` imports make `bun build --compile` embed
 * every file; in the binary the paths below point into its own file system (/$bunfs/...).
 *
 * Running from source (bun test, bun src/main.ts) the manifest may be missing (fresh clone) or older
 * than ui/ (someone edited a page): the first console request then runs the build script once and
 * waits for it. A compiled binary never builds; its manifest was bundled at compile time.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

export type AssetManifest = {
	/** File names (content-hashed) of the client bundle and the stylesheet, served under /assets/. */
	client: string
	styles: string
	/** Asset name → path of the file on disk or in the binary. */
	files: Record<string, string>
	/** ui/public files served from the site root, name → path. */
	publicFiles: Record<string, string>
}

const projectRoot = resolve(import.meta.dir, '..', '..')
const manifestPath = join(projectRoot, '.build', 'assets', 'manifest.ts')

function isCompiled() {
	return import.meta.dir.includes('$bunfs') || import.meta.dir.includes('~BUN')
}

function newestModification(directory: string): number {
	let newest = 0
	for (const entry of readdirSync(directory, { withFileTypes: true })) {
		const path = join(directory, entry.name)
		newest = Math.max(newest, entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs)
	}
	return newest
}

function needsBuild() {
	if (!existsSync(manifestPath)) return true
	return newestModification(join(projectRoot, 'ui')) > statSync(manifestPath).mtimeMs
}

async function runBuildScript() {
	const build = Bun.spawn([process.execPath, join(projectRoot, 'scripts', 'build-assets.ts')], {
		cwd: projectRoot,
		stdout: 'ignore',
		stderr: 'pipe',
	})
	const [exitCode, errors] = await Promise.all([build.exited, new Response(build.stderr).text()])
	if (exitCode !== 0) throw new Error(`building console assets failed: ${errors}`)
}

async function importManifest(): Promise<AssetManifest> {
	if (!isCompiled() && needsBuild()) await runBuildScript()
	// @ts-ignore The module is generated (see above) and absent from a fresh clone; the literal path lets the bundler embed it.
	const module = await import('../../.build/assets/manifest.ts')
	return module.default as AssetManifest
}

let loading: Promise<AssetManifest> | undefined

export function loadAssets(): Promise<AssetManifest> {
	loading ??= importManifest().catch((error: unknown) => {
		loading = undefined
		throw error
	})
	return loading
}

const contentTypes: Record<string, string> = {
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.png': 'image/png',
	'.svg': 'image/svg+xml',
	'.ico': 'image/x-icon',
}

const compressible = new Set(['.js', '.css', '.svg'])
/** Gzipped bodies of the hashed assets, made on first request; the set is fixed for the process's life. */
const gzipped = new Map<string, Promise<Uint8Array<ArrayBuffer>>>()

function gzippedFile(path: string) {
	let body = gzipped.get(path)
	if (!body) {
		body = Bun.file(path).bytes().then((bytes) => new Uint8Array(Bun.gzipSync(bytes, { level: 9 })))
		body.catch(() => gzipped.delete(path))
		gzipped.set(path, body)
	}
	return body
}

function acceptsGzip(request: Request | undefined) {
	return /\bgzip\b/.test(request?.headers.get('accept-encoding') ?? '')
}

/** Text assets go out gzipped to browsers that accept it (a single binary has no proxy in front to do it). */
export async function fileResponse(name: string, path: string, cacheControl: string, request?: Request) {
	const extension = name.slice(name.lastIndexOf('.'))
	const headers: Record<string, string> = {
		'content-type': contentTypes[extension] ?? 'application/octet-stream',
		'cache-control': cacheControl,
		'x-content-type-options': 'nosniff',
	}
	if (!compressible.has(extension)) return new Response(Bun.file(path), { headers })
	headers.vary = 'accept-encoding'
	if (!acceptsGzip(request)) return new Response(Bun.file(path), { headers })
	return new Response(await gzippedFile(path), { headers: { ...headers, 'content-encoding': 'gzip' } })
}
