/**
 * A documentation page as HTML for the console: `marked` converts the Markdown (GitHub flavour) and
 * `sanitizeHtml` decides what reaches the page, as for admin content. On top of that, relative links
 * between pages lead to the console's own `/docs/…` (anchors kept), headings get GitHub's anchors
 * (added after sanitising, which keeps no `id`), and pictures the binary does not carry (the
 * screenshots) show as their alt text. Loaded by the docs loader only, never with a first load.
 */
import { Marked, type Token } from 'marked'
import { consolePathOf, DOCS_CONSOLE_ROOT, headingAnchor, resolveRelativeLink } from '@shared/docs-paths'
import { escapeHtml, sanitizeHtml } from '@ui/lib/sanitize-html'

const hasScheme = /^[a-z][a-z0-9+.-]*:/i

/** Where a link of the page at `from` leads in the console; undefined for a file the console does not show. */
export function consoleHref(from: string, href: string): string | undefined {
	if (hasScheme.test(href) || href.startsWith('/') || href.startsWith('#')) return href
	const target = resolveRelativeLink(from, href)
	if (!target || !target.path.endsWith('.md')) return undefined
	return `${DOCS_CONSOLE_ROOT}/${consolePathOf(target.path)}${target.anchor ? `#${target.anchor}` : ''}`
}

function decodeText(html: string) {
	return html
		.replace(/<[^>]*>/g, '')
		.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '')
}

/** Gives each heading its anchor, numbering repeats as GitHub does (`-1`, `-2`). */
function anchorHeadings(html: string) {
	const seen = new Map<string, number>()
	return html.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_, level: string, inner: string) => {
		const base = headingAnchor(decodeText(inner))
		const count = seen.get(base) ?? 0
		seen.set(base, count + 1)
		return `<h${level} id="${escapeHtml(count === 0 ? base : `${base}-${count}`)}">${inner}</h${level}>`
	})
}

/** The page at repository path `path` as sanitised HTML. */
export function renderDocsPage(path: string, markdown: string): string {
	const marked = new Marked({
		gfm: true,
		async: false,
		walkTokens(token: Token) {
			if (token.type === 'link') token.href = consoleHref(path, token.href) ?? ''
		},
		renderer: {
			code({ text }) {
				return `<pre><code>${escapeHtml(text)}</code></pre>`
			},
			image({ href, text }) {
				return hasScheme.test(href) ? `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}">` : `<em>${escapeHtml(text)}</em>`
			},
		},
	})
	return anchorHeadings(sanitizeHtml(marked.parse(markdown.replace(/\r\n?/g, '\n'), { async: false })))
}
