/**
 * Where the console's browser files are, and the manifest that names the bundle and stylesheet.
 * scripts/build-assets.ts writes the content-hashed files to .build/console/assets/ and their names to
 * .build/console/manifest.json; ui/public/ holds the files served from the site root (/logo.png).
 * `bun run build` embeds both folders with `--asset`: in the binary they are /$bunfs/root/assets/ and
 * /$bunfs/root/public/, which node:fs and Bun.file() read like any folder.
 *
 * Running from source (bun test, bun src/main.ts) the manifest may be missing (fresh clone) or older
 * than ui/ (someone edited a page): the first console page then runs the build script once and waits
 * for it. A compiled binary never builds; its manifest was bundled at compile time.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

export type AssetManifest = {
	/** File names (content-hashed) of the client bundle and the stylesheet, served under /assets/. */
	client: string
	styles: string
}

const projectRoot = resolve(import.meta.dir, '..', '..')
const manifestPath = join(projectRoot, '.build', 'console', 'manifest.json')

function isCompiled() {
	return import.meta.dir.includes('$bunfs') || import.meta.dir.includes('~BUN')
}

/** The folders served under /assets/ and from the site root. In the binary every module's
 * import.meta.dir is the root of its embedded file system, where `--asset` put the two folders. */
export function assetDirectories() {
	if (isCompiled()) return { assets: join(import.meta.dir, 'assets'), public: join(import.meta.dir, 'public') }
	return { assets: join(projectRoot, '.build', 'console', 'assets'), public: join(projectRoot, 'ui', 'public') }
}

function newestModification(directory: string): number {
	let newest = 0
	for (const entry of readdirSync(directory, { withFileTypes: true })) {
		const path = join(directory, entry.name)
		newest = Math.max(newest, entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs)
	}
	return newest
}

/** The console bundles `ui/` and the `src/shared` modules it imports: a change in either means a new build. */
const BUNDLED_SOURCES = ['ui', join('src', 'shared')]

function needsBuild() {
	if (!existsSync(manifestPath)) return true
	const built = statSync(manifestPath).mtimeMs
	return BUNDLED_SOURCES.some((folder) => newestModification(join(projectRoot, folder)) > built)
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
	// @ts-ignore The file is generated (see above) and absent from a fresh clone; the literal path lets the bundler embed it.
	const module = await import('../../.build/console/manifest.json')
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
