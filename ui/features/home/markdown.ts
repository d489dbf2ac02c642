/**
 * Admin-written content (home page, about, notice) as HTML: `marked` converts the Markdown (GitHub
 * flavour; HTML written among it passes through) and makes no safety decisions; its whole output goes
 * through `sanitizeHtml`, which alone decides what reaches the page. Loaded only by the loaders that
 * render such content (`admin-content-view.ts`), so neither library is in any page's first load.
 */
import { Marked } from 'marked'
import { escapeHtml, sanitizeHtml } from '@ui/lib/sanitize-html'

/**
 * The line breaks `marked` puts after its own block tags are dropped, so the markup is as compact as
 * the admin's own HTML; a line break inside a paragraph, or inside HTML written by hand, stays.
 */
const blockTagBreaks = /(<\/(?:h[1-6]|p|li|ol|ul|blockquote|pre|table|thead|tbody|tr|th|td)>|<(?:ol|ul|blockquote|table|thead|tbody|tr)(?:\s[^>]*)?>|<hr>)\n+/g

const markdown = new Marked({
	gfm: true,
	async: false,
	renderer: {
		/** Code is shown as written, without the trailing line break and the language class. */
		code({ text }) {
			return `<pre><code>${escapeHtml(text)}</code></pre>`
		},
	},
	hooks: {
		postprocess: (html) => html.replace(blockTagBreaks, '$1').trim(),
	},
})

/** Markdown (with HTML among it) to sanitised HTML. Content that is a whole HTML document is only sanitised. */
export function renderMarkdown(source: string): string {
	const text = source.replace(/\r\n?/g, '\n')
	const trimmed = text.trim()
	if (trimmed.startsWith('<') && trimmed.endsWith('>')) return sanitizeHtml(trimmed)
	return sanitizeHtml(markdown.parse(text, { async: false }))
}
