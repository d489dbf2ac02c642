/**
 * `bun run build`: the console assets, then one executable at dist/ferry that embeds them together with
 * the migrations and every Bun worker. `--asset` keeps a folder's last name: the binary reads the console's
 * files from /$bunfs/root/assets/ and /$bunfs/root/public/ (see src/console/assets.ts).
 * Usage: bun scripts/build.ts [--entry src/main.ts] [--outfile dist/ferry]
 */
import { existsSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { assetsDirectory, buildAssets, publicDirectory } from './build-assets'

const projectRoot = resolve(import.meta.dir, '..')
const { values } = parseArgs({
	args: Bun.argv.slice(2),
	options: { entry: { type: 'string', default: 'src/main.ts' }, outfile: { type: 'string', default: 'dist/ferry' } },
})

const started = performance.now()
await buildAssets()

// Workers must be entrypoints of their own, or `new Worker(...)` fails inside the binary.
const workersDirectory = join(projectRoot, 'src', 'workers')
const workers = existsSync(workersDirectory)
	? readdirSync(workersDirectory)
			.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
			.map((name) => relative(projectRoot, join(workersDirectory, name)))
	: []

const command = [
	process.execPath,
	'build',
	'--compile',
	'--minify',
	'--bytecode',
	'--format=esm',
	// What main.ts imports when first needed (the console's React pages, the tokenizer) goes into chunks
	// of its own, read from the binary only then: without it, one bundle holds them all and idle
	// memory is about 10 MB higher.
	'--splitting',
	'--sourcemap',
	'--define',
	'process.env.NODE_ENV="production"',
	`--asset=${relative(projectRoot, assetsDirectory)}`,
	`--asset=${relative(projectRoot, publicDirectory)}`,
	values.entry,
	...workers,
	'--outfile',
	values.outfile,
]
const compile = Bun.spawn(command, { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' })
const exitCode = await compile.exited
if (exitCode !== 0) {
	console.error(`bun build --compile failed with exit code ${exitCode}`)
	process.exit(exitCode)
}
console.log(`built ${values.outfile} in ${Math.round(performance.now() - started)} ms`)
