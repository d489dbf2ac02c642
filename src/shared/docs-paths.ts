/**
 * Where the repository's documentation shows in the console, zod-free for the docs page. A page is
 * named by its path in the repository (`docs/guide/tokens.md`, `CONTRIBUTING.md`); the console shows
 * it at that path without the `docs/` prefix (`/docs/guide/tokens.md`, `/docs/CONTRIBUTING.md`), and
 * `/docs` alone is `docs/README.md`.
 */
export const DOCS_HOME = 'docs/README.md'
export const DOCS_CONSOLE_ROOT = '/docs'

/** The console path (after `/docs/`) of a page of the repository. */
export function consolePathOf(repositoryPath: string): string {
	return repositoryPath.startsWith('docs/') ? repositoryPath.slice('docs/'.length) : repositoryPath
}

/** The repository paths a console path may name, the docs/ page first. */
export function repositoryPathsFor(consolePath: string): string[] {
	const path = consolePath.replace(/^\/+/, '')
	return path === '' ? [DOCS_HOME] : [`docs/${path}`, path]
}

/** `a/b/../c.md` → `a/c.md`; undefined when the path climbs out of the repository. */
export function normalizePath(path: string): string | undefined {
	const parts: string[] = []
	for (const part of path.split('/')) {
		if (part === '' || part === '.') continue
		if (part === '..') {
			if (parts.length === 0) return undefined
			parts.pop()
		} else parts.push(part)
	}
	return parts.join('/')
}

/** The repository path a relative link of the page at `from` points at, with its `#anchor` kept apart. */
export function resolveRelativeLink(from: string, href: string): { path: string; anchor: string } | undefined {
	const [target = '', anchor = ''] = href.split('#', 2)
	const directory = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : ''
	const path = target === '' ? from : normalizePath(directory + target)
	return path === undefined ? undefined : { path, anchor }
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(text: string): string {
	return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}
