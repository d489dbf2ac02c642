/**
 * The repository's documentation as the binary carries it (`embedded.ts`, made by
 * scripts/embed-docs.ts). Loaded on the first read, so a node that never serves a docs page never
 * holds the text.
 */
import { repositoryPathsFor } from '@shared/docs-paths'
import type { DocsPage } from '@shared/docs'
import { notFound } from '../errors'

/** The page a console path names, or a 404 (`..` and unknown names alike: only embedded pages exist). */
export async function readDocsPage(consolePath: string): Promise<DocsPage> {
	const { default: pages } = await import('./embedded')
	for (const path of repositoryPathsFor(consolePath)) {
		if (Object.hasOwn(pages, path)) return { path, markdown: pages[path]! }
	}
	throw notFound()
}
