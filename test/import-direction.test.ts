/**
 * Imports point down only (docs/architecture.md#layers-and-the-import-rule): `src/shared` ← `src/lib`, config ← `src/db` ← `src/auth`,
 * `src/billing` ← the relay and the management API ← the console and `app.ts`. The relay never
 * imports `src/api`, and the API never imports the relay's pipeline: what both need lives below
 * them (stores in `src/db/stores`, sessions and token keys in `src/auth`, token counting in
 * `src/billing`, opening an upstream in `src/relay/upstream`). The console's pages import only
 * `src/shared` from the server's code.
 *
 * Inside the relay, the client formats' converters (`src/relay/formats`) and the provider adaptors
 * (`src/relay/providers`) are pure: they never import the app's dependencies, the database, the HTTP
 * edge (`src/relay/edge`) or the stages (`src/relay/stages`), and never take a client's `Request` or
 * `Response` object. What touches HTTP, keys and the database lives in the edge and the stages;
 * the stages never import the edge, which calls them.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')

/** The layers, lowest first; a file may import its own layer or a lower one. */
const LAYERS: { name: string; test(path: string): boolean }[] = [
	{ name: 'shared', test: (path) => path.startsWith('src/shared/') },
	{ name: 'lib', test: (path) => path.startsWith('src/lib/') || path === 'src/config.ts' },
	{ name: 'db', test: (path) => path.startsWith('src/db/') },
	{ name: 'domain', test: (path) => path.startsWith('src/auth/') || path.startsWith('src/billing/') || path === 'src/dependencies.ts' },
	{ name: 'services', test: (path) => path.startsWith('src/relay/') || path.startsWith('src/api/') || path.startsWith('src/workers/') },
	{ name: 'console', test: (path) => path.startsWith('src/console/') || path.startsWith('ui/') },
	{ name: 'app', test: (path) => path === 'src/app.ts' || path === 'src/main.ts' || path.startsWith('src/cli/') },
]

/** Parts of the relay the management API and workers may use: pure providers and formats, and opening an upstream. */
const RELAY_PARTS_FOR_THE_API = ['src/relay/providers/', 'src/relay/formats/', 'src/relay/upstream/', 'src/relay/errors.ts']

/** The relay's pure parts, and what they may not import. */
const PURE_RELAY_PARTS = ['src/relay/formats/', 'src/relay/providers/']
const IMPURE_FOR_PURE_PARTS = ['src/dependencies.ts', 'src/db/', 'src/relay/edge/', 'src/relay/stages/']

const isPureRelayPart = (path: string) => PURE_RELAY_PARTS.some((part) => path.startsWith(part))

/** A client's `Request` or `Response` named as a type (`request: Request`, `Promise<Response>`, `as Request`). */
const HTTP_OBJECT_TYPE = /(?::|\bas|<|\|)\s*(?:Request|Response)\b(?![\w.$])/

function layerOf(path: string) {
	const index = LAYERS.findIndex((layer) => layer.test(path))
	return index < 0 ? undefined : { index, name: LAYERS[index]!.name }
}

function sourceFiles(folder: string): string[] {
	const found: string[] = []
	for (const entry of readdirSync(join(root, folder))) {
		const path = join(folder, entry)
		if (statSync(join(root, path)).isDirectory()) found.push(...sourceFiles(path))
		else if (/\.tsx?$/.test(entry)) found.push(path)
	}
	return found
}

/** Every module a file names in `import … from`, `export … from`, `import '…'` and `import('…')`. */
function specifiersOf(text: string): string[] {
	const found: string[] = []
	const pattern = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm
	for (const match of text.matchAll(pattern)) found.push((match[1] ?? match[2] ?? match[3])!)
	return found
}

/** The repository path a specifier names, or undefined for a package. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
	let path: string
	if (specifier.startsWith('@/')) path = join('src', specifier.slice(2))
	else if (specifier.startsWith('@shared/')) path = join('src/shared', specifier.slice('@shared/'.length))
	else if (specifier.startsWith('@ui/')) path = join('ui', specifier.slice('@ui/'.length))
	else if (specifier.startsWith('.')) path = relative(root, resolve(root, dirname(from), specifier))
	else return undefined
	for (const candidate of [path, `${path}.ts`, `${path}.tsx`, join(path, 'index.ts'), join(path, 'index.tsx')]) {
		try {
			if (statSync(join(root, candidate)).isFile()) return candidate
		} catch {}
	}
	return path
}

interface Arrow { from: string; to: string }

function arrows(): Arrow[] {
	const found: Arrow[] = []
	for (const from of [...sourceFiles('src'), ...sourceFiles('ui')]) {
		for (const specifier of specifiersOf(readFileSync(join(root, from), 'utf8'))) {
			const to = resolveSpecifier(from, specifier)
			if (to) found.push({ from, to })
		}
	}
	return found
}

/** Why an import breaks the rule, or undefined when it is allowed. */
function violation({ from, to }: Arrow): string | undefined {
	const source = layerOf(from)
	const target = layerOf(to)
	if (!source || !target) return undefined
	if (target.index > source.index) return `${source.name} imports ${target.name}`
	if (from.startsWith('src/relay/') && to.startsWith('src/api/')) return 'the relay imports the management API'
	if (from.startsWith('src/api/') && to.startsWith('src/relay/') && !RELAY_PARTS_FOR_THE_API.some((part) => to.startsWith(part))) {
		return 'the management API imports the relay beyond its providers, formats and upstream'
	}
	if (from.startsWith('src/workers/') && (to.startsWith('src/api/') || (to.startsWith('src/relay/') && !RELAY_PARTS_FOR_THE_API.some((part) => to.startsWith(part))))) {
		return 'a worker imports a service layer beyond the relay\'s pure parts'
	}
	if (from.startsWith('ui/') && to.startsWith('src/') && !to.startsWith('src/shared/')) return 'the console imports server code other than src/shared'
	if (isPureRelayPart(from) && IMPURE_FOR_PURE_PARTS.some((part) => to.startsWith(part))) {
		return 'a pure converter or adaptor imports the dependencies, the database, the edge or the stages'
	}
	if (from.startsWith('src/relay/stages/') && to.startsWith('src/relay/edge/')) return 'a stage imports the HTTP edge'
	return undefined
}

describe('import direction', () => {
	const all = arrows()

	test('finds the imports it checks (the walk itself works)', () => {
		expect(all.length).toBeGreaterThan(500)
		expect(all).toContainEqual({ from: 'src/app.ts', to: 'src/api/index.ts' })
		expect(violation({ from: 'src/relay/index.ts', to: 'src/api/channels/service.ts' })).toBe('the relay imports the management API')
		expect(violation({ from: 'src/api/channels/tools/models.ts', to: 'src/relay/stages/send.ts' })).toBeDefined()
		expect(violation({ from: 'src/db/lease.ts', to: 'src/billing/ledger.ts' })).toBe('db imports domain')
		expect(violation({ from: 'src/relay/formats/claude/request.ts', to: 'src/dependencies.ts' })).toBeDefined()
		expect(violation({ from: 'src/relay/providers/anthropic/index.ts', to: 'src/db/stores/channels.ts' })).toBeDefined()
		expect(violation({ from: 'src/relay/formats/openai/client.ts', to: 'src/relay/edge/respond.ts' })).toBeDefined()
		expect(violation({ from: 'src/relay/providers/registry.ts', to: 'src/relay/stages/index.ts' })).toBeDefined()
		expect(violation({ from: 'src/relay/edge/claude.ts', to: 'src/relay/formats/claude/request.ts' })).toBeUndefined()
		expect(violation({ from: 'src/relay/stages/admit.ts', to: 'src/relay/edge/token-auth.ts' })).toBe('a stage imports the HTTP edge')
	})

	test('every arrow points down: no layer imports a higher one, the relay and the API never import each other\'s core', () => {
		const wrong = all.flatMap((arrow) => {
			const why = violation(arrow)
			return why ? [`${arrow.from} → ${arrow.to}: ${why}`] : []
		})
		expect(wrong).toEqual([])
	})

	test('the relay\'s converters and adaptors never take a client\'s Request or Response object', () => {
		expect(HTTP_OBJECT_TYPE.test('function relay(request: Request, address: string): Promise<Response> {')).toBe(true)
		expect(HTTP_OBJECT_TYPE.test('const answer: OpenedResponse = await open(); Response.json(body)')).toBe(false)
		const pure = PURE_RELAY_PARTS.flatMap((part) => sourceFiles(part.slice(0, -1)))
		expect(pure.length).toBeGreaterThan(100)
		const taking = pure.filter((path) => readFileSync(join(root, path), 'utf8').split('\n').some((line) => !/^\s*(\*|\/\/)/.test(line) && HTTP_OBJECT_TYPE.test(line)))
		expect(taking).toEqual([])
	})
})
