/**
 * `bun run build`: the console assets, then one executable at dist/ferry that embeds them together with
 * the migrations, the documentation (src/api/docs/embedded.ts, written anew first) and every Bun
 * worker. `--asset` keeps a folder's last name: the binary reads the console's files from
 * /$bunfs/root/assets/ and /$bunfs/root/public/ (see src/console/assets.ts).
 * Ferry's own binary is built twice: the first one runs once to record which bytecode a starting
 * server uses (scripts/bytecode-order.ts), the second lays that bytecode out first.
 * Usage: bun scripts/build.ts [--entry src/main.ts] [--outfile dist/ferry]
 */
import { existsSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { assetsDirectory, buildAssets, publicDirectory } from './build-assets'
import { recordBytecodeOrder, removeBytecodeOrder } from './bytecode-order'
import { EMBEDDED_DOCS_FILE, embeddedDocsSource } from './embed-docs'

const projectRoot = resolve(import.meta.dir, '..')
const { values } = parseArgs({
	args: Bun.argv.slice(2),
	options: { entry: { type: 'string', default: 'src/main.ts' }, outfile: { type: 'string', default: 'dist/ferry' } },
})

const started = performance.now()
await buildAssets()
// The documentation the console shows admins, as it is now.
await Bun.write(join(projectRoot, EMBEDDED_DOCS_FILE), embeddedDocsSource())

// Workers must be entrypoints of their own, or `new Worker(...)` fails inside the binary.
const workersDirectory = join(projectRoot, 'src', 'workers')
const workers = existsSync(workersDirectory)
	? readdirSync(workersDirectory)
			.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
			.map((name) => relative(projectRoot, join(workersDirectory, name)))
	: []

const compileCommand = (orderFile?: string) => [
	process.execPath,
	'build',
	'--compile',
	'--minify',
	'--bytecode',
	...(orderFile ? [`--bytecode-order=${orderFile}`] : []),
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

async function compile(orderFile?: string) {
	const exitCode = await Bun.spawn(compileCommand(orderFile), { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' }).exited
	if (exitCode !== 0) {
		console.error(`bun build --compile failed with exit code ${exitCode}`)
		process.exit(exitCode)
	}
}

await compile()
if (resolve(projectRoot, values.entry) === resolve(projectRoot, 'src/main.ts')) {
	const orderFile = await recordBytecodeOrder(resolve(projectRoot, values.outfile))
	if (orderFile) {
		await compile(orderFile)
		removeBytecodeOrder(orderFile)
	}
}
console.log(`built ${values.outfile} in ${Math.round(performance.now() - started)} ms`)
