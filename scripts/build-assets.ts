/**
 * Builds the console's browser files into .build/console/assets/ (content-hashed names) and writes
 * .build/console/manifest.json, the names src/console/assets.ts reads. ui/public/ is served as it is.
 * `bun run build` embeds .build/console/assets/ and ui/public/ into the binary with `--asset`.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'

const projectRoot = resolve(import.meta.dir, '..')
const buildDirectory = join(projectRoot, '.build', 'console')
/** Every file in it is served under /assets/: nothing else (temporary files, the manifest) goes there. */
export const assetsDirectory = join(buildDirectory, 'assets')
export const publicDirectory = join(projectRoot, 'ui', 'public')
/** Files of a build running at the same time (another test process) are younger than this. */
const STALE_AFTER_MILLISECONDS = 10 * 60_000

function contentHash(content: Uint8Array | string) {
	return createHash('sha256').update(content).digest('hex').slice(0, 12)
}

async function buildClient() {
	const result = await Bun.build({
		entrypoints: [join(projectRoot, 'ui', 'entry.client.tsx')],
		outdir: assetsDirectory,
		// Pages are lazy routes: each becomes a chunk, so the first load carries only the page it shows.
		splitting: true,
		naming: { entry: 'client-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: 'asset-[hash].[ext]' },
		target: 'browser',
		format: 'esm',
		minify: true,
		define: { 'process.env.NODE_ENV': '"production"' },
	})
	if (!result.success) throw new AggregateError(result.logs, 'client bundle failed')
	const entry = result.outputs.find((output) => output.kind === 'entry-point')
	if (!entry) throw new Error('client bundle produced no entry point')
	const chunks = result.outputs.filter((output) => output !== entry).map((output) => basename(output.path))
	return { client: basename(entry.path), chunks }
}

async function buildStyles() {
	const temporary = join(buildDirectory, `styles.${process.pid}.tmp.css`)
	const tailwind = Bun.spawn(
		[process.execPath, join(projectRoot, 'node_modules', '.bin', 'tailwindcss'), '-i', join(projectRoot, 'ui', 'styles', 'index.css'), '-o', temporary, '--minify'],
		{ cwd: projectRoot, stdout: 'ignore', stderr: 'pipe' },
	)
	const [exitCode, errors] = await Promise.all([tailwind.exited, new Response(tailwind.stderr).text()])
	if (exitCode !== 0) throw new Error(`tailwindcss failed: ${errors}`)
	const name = `styles-${contentHash(await readFile(temporary))}.css`
	await rename(temporary, join(assetsDirectory, name))
	return name
}

export async function buildAssets() {
	await mkdir(assetsDirectory, { recursive: true })
	const building = [buildClient(), buildStyles()] as const
	// Settle all first: a failing step must not leave another one still writing into the directory.
	await Promise.allSettled(building)
	const [{ client, chunks }, styles] = [await building[0], await building[1]]
	const temporary = join(buildDirectory, `manifest.${process.pid}.tmp`)
	await writeFile(temporary, `${JSON.stringify({ client, styles }, null, '\t')}\n`)
	// Renamed into place last, so a concurrent reader sees either the old manifest or the complete new one.
	await rename(temporary, join(buildDirectory, 'manifest.json'))
	const keep = new Set([client, ...chunks, styles])
	const staleBefore = Date.now() - STALE_AFTER_MILLISECONDS
	for (const name of await readdir(assetsDirectory)) {
		if (keep.has(name)) continue
		const path = join(assetsDirectory, name)
		const modified = await stat(path).then((info) => info.mtimeMs, () => 0)
		if (modified < staleBefore) await rm(path, { force: true })
	}
	return { client, chunks, styles }
}

if (import.meta.main) {
	const started = performance.now()
	const built = await buildAssets()
	const names = [built.client, `${built.chunks.length} chunks`, built.styles].join(', ')
	console.log(`console assets built in ${Math.round(performance.now() - started)} ms: ${names}`)
}
