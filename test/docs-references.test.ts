/**
 * The code explains itself with what the repository holds: comments point at `docs/` pages
 * (`docs/architecture.md#the-ledger`), never at documents a reader of the repository cannot open.
 * Every `docs/…` path named in the code, and every relative link of the docs, names a page that
 * exists and, with `#…`, a heading that page has.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')
const THIS_FILE = relative(root, import.meta.path)

/** Where the code and its own notes live. */
const CODE_FOLDERS = ['src', 'ui', 'test', 'scripts', 'bench', 'drizzle']
const CODE_FILE = /\.(ts|tsx|js|css|sql|sh|md)$/

/** Names of documents outside the repository: numbered sections, the old specification and design files, shared notes. */
const OUTSIDE_DOCUMENTS: { name: string; pattern: RegExp }[] = [
	{ name: 'a numbered section (§)', pattern: /§/ },
	{ name: 'a seed document', pattern: /\bseeds? ?0\d\d\b/i },
	{ name: 'the seed as a document', pattern: /\bthe seeds?\b/i },
	{ name: 'the design document', pattern: /\bdesign(?:\.md| ?§)/i },
	{ name: 'shared notes outside the repository', pattern: /(?:^|[\s('"`])(?:\.\.\/)+shared\/(?:seeds|reference|design)|\bshared\/(?:seeds|reference)\/|\/work\/shared|user-demands|style-anchors|perf-anchors/ },
]

/** A `docs/…` page named from the repository's root, with its heading anchor if any. */
const DOCS_PATH = /(?<![\w/.-])(docs\/[\w./-]*?\.md)(#[\w-]+)?/g

/** A Markdown link's target that is a relative path (not a URL, not an anchor on the same page). */
const MARKDOWN_LINK = /\]\(((?!https?:|mailto:|#)[^)\s]+?\.md)(#[^)\s]+)?\)/g

function filesUnder(folder: string, pattern: RegExp): string[] {
	const found: string[] = []
	if (!existsSync(join(root, folder))) return found
	for (const entry of readdirSync(join(root, folder))) {
		if (entry === 'node_modules') continue
		const path = join(folder, entry)
		if (statSync(join(root, path)).isDirectory()) found.push(...filesUnder(path, pattern))
		else if (pattern.test(entry)) found.push(path)
	}
	return found
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(path: string): Set<string> {
	const anchors = new Set<string>()
	const seen = new Map<string, number>()
	let fenced = false
	for (const line of readFileSync(join(root, path), 'utf8').split('\n')) {
		if (line.startsWith('```')) fenced = !fenced
		const heading = !fenced && /^#{1,6} (.+)$/.exec(line)
		if (!heading) continue
		const base = heading[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
		const count = seen.get(base) ?? 0
		seen.set(base, count + 1)
		anchors.add(count === 0 ? base : `${base}-${count}`)
	}
	return anchors
}

const anchorCache = new Map<string, Set<string>>()
/** Why `page` (from the root) with `anchor` does not resolve, or undefined when it does. */
function problemWith(page: string, anchor: string | undefined): string | undefined {
	if (!existsSync(join(root, page)) || !statSync(join(root, page)).isFile()) return `${page} does not exist`
	if (!anchor) return undefined
	if (!anchorCache.has(page)) anchorCache.set(page, anchorsOf(page))
	return anchorCache.get(page)!.has(decodeURIComponent(anchor.slice(1))) ? undefined : `${page} has no heading ${anchor}`
}

const codeFiles = CODE_FOLDERS.flatMap((folder) => filesUnder(folder, CODE_FILE)).filter((path) => path !== THIS_FILE)
const documentation = ['README.md', 'CONTRIBUTING.md', ...filesUnder('docs', /\.md$/)]

describe('the repository explains itself', () => {
	test('no code, test or note cites a document that is not in the repository', () => {
		const citations: string[] = []
		for (const path of [...codeFiles, ...documentation]) {
			readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
				for (const { name, pattern } of OUTSIDE_DOCUMENTS) {
					if (pattern.test(line)) citations.push(`${path}:${index + 1} cites ${name}: ${line.trim().slice(0, 120)}`)
				}
			})
		}
		expect(citations).toEqual([])
	})

	test('every docs/ page the code names exists, with the heading its anchor names', () => {
		const broken: string[] = []
		for (const path of codeFiles) {
			readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
				for (const match of line.matchAll(DOCS_PATH)) {
					const problem = problemWith(match[1]!, match[2])
					if (problem) broken.push(`${path}:${index + 1}: ${problem}`)
				}
			})
		}
		expect(broken).toEqual([])
	})

	test('every relative link of the README, CONTRIBUTING and docs/ reaches a page and heading that exist', () => {
		const broken: string[] = []
		for (const path of [...documentation, ...codeFiles.filter((file) => file.endsWith('.md'))]) {
			readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
				for (const match of line.matchAll(MARKDOWN_LINK)) {
					const page = normalize(join(dirname(path), match[1]!))
					const problem = page.startsWith('..') ? `${match[1]} leaves the repository` : problemWith(page, match[2])
					if (problem) broken.push(`${path}:${index + 1}: ${problem}`)
				}
			})
		}
		expect(broken).toEqual([])
	})
})
