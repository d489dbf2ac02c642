/**
 * The documentation pages as the console renders them (`ui/features/docs/docs-markdown.ts`): links
 * between pages stay in the console with their anchors, headings carry GitHub's anchors, and every
 * link of every embedded page reaches a page and a heading the console shows.
 */
import { describe, expect, test } from 'bun:test'
import embedded from '@/api/docs/embedded'
import { consoleHref, renderDocsPage } from '@ui/features/docs/docs-markdown'

const idsOf = (html: string) => new Set([...html.matchAll(/<h[1-6] id="([^"]*)"/g)].map((match) => match[1]!))

describe('a documentation page in the console', () => {
	test('relative links lead to the console\'s /docs pages, with their anchors; other addresses stay as written', () => {
		expect(consoleHref('docs/guide/console.md', 'tokens.md')).toBe('/docs/guide/tokens.md')
		expect(consoleHref('docs/guide/console.md', '../specification/channels.md#routing')).toBe('/docs/specification/channels.md#routing')
		expect(consoleHref('docs/README.md', '../CONTRIBUTING.md')).toBe('/docs/CONTRIBUTING.md')
		expect(consoleHref('CONTRIBUTING.md', 'docs/architecture.md#the-ledger')).toBe('/docs/architecture.md#the-ledger')
		expect(consoleHref('docs/README.md', 'guide/')).toBeUndefined()
		expect(consoleHref('docs/README.md', '../../outside.md')).toBeUndefined()
		expect(consoleHref('docs/README.md', 'https://example.com/x.md')).toBe('https://example.com/x.md')
		expect(consoleHref('docs/README.md', '#guide')).toBe('#guide')
	})

	test('renders links, anchored headings and pictures it does not carry as their alt text, sanitised', () => {
		const html = renderDocsPage('docs/guide/console.md', [
			'# The console',
			'See [tokens](tokens.md#making-one) and [the specification](../specification/console.md).',
			'## Pages for everyone',
			'## Pages for everyone',
			'![The token page](../screenshots/console/quick-start.png)',
			'<script>alert(1)</script><a href="javascript:alert(1)">x</a>',
		].join('\n\n'))
		expect(html).toContain('<a href="/docs/guide/tokens.md#making-one">tokens</a>')
		expect(html).toContain('<a href="/docs/specification/console.md">the specification</a>')
		expect([...idsOf(html)]).toEqual(['the-console', 'pages-for-everyone', 'pages-for-everyone-1'])
		expect(html).toContain('<em>The token page</em>')
		expect(html).not.toContain('<img')
		expect(html).not.toContain('<script')
		expect(html).not.toContain('javascript:')
	})

	test('every link of every embedded page reaches an embedded page, at a heading it has', () => {
		const rendered = new Map(Object.entries(embedded).map(([path, markdown]) => [path, renderDocsPage(path, markdown)]))
		const consolePages = new Map([...rendered].map(([path, html]) => [`/docs/${path.replace(/^docs\//, '')}`, idsOf(html)]))
		const broken: string[] = []
		let links = 0
		for (const [path, html] of rendered) {
			for (const [, href] of html.matchAll(/<a href="(\/docs\/[^"]*)"/g)) {
				links++
				const [page, anchor] = href!.split('#') as [string, string | undefined]
				const ids = consolePages.get(page)
				if (!ids) broken.push(`${path}: ${href} is no page`)
				else if (anchor && !ids.has(decodeURIComponent(anchor))) broken.push(`${path}: ${href} has no such heading`)
			}
		}
		expect(broken).toEqual([])
		expect(links).toBeGreaterThan(50)
	})
})
