/**
 * Admin-written HTML (home page, about, footer, notice) rendered safely: the input is tokenised and
 * rebuilt from an allow-list of tags and attributes; everything else is escaped text. No script, no
 * event handler, no style, and links only to http(s), mailto or site-relative addresses.
 * Pure string work, so the server and the browser produce the same markup.
 */
const allowedTags = new Set([
	'a', 'b', 'blockquote', 'br', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img',
	'li', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'u', 'ul',
])
const voidTags = new Set(['br', 'hr', 'img'])
const allowedAttributes: Record<string, Set<string>> = {
	a: new Set(['href', 'title', 'target']),
	img: new Set(['src', 'alt', 'title', 'width', 'height']),
	td: new Set(['colspan', 'rowspan']),
	th: new Set(['colspan', 'rowspan']),
}
const urlAttributes = new Set(['href', 'src'])

export function escapeHtml(text: string) {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Decodes the few entities an attribute value may use, so `jav&#97;script:` cannot hide a scheme. */
function decodeEntities(text: string) {
	return text
		.replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
		.replace(/&#(\d+);?/g, (_, decimal: string) => String.fromCodePoint(Number(decimal) % 0x110000))
		.replace(/&(amp|lt|gt|quot|apos|colon|tab|newline);/gi, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n' })[name.toLowerCase()] ?? '')
}

/**
 * http(s), mailto, or an address on this site (/x, x, ./x, #x, ?x). Checked as a browser reads it:
 * entities decoded, control characters and spaces dropped (a tab or newline may split `java\tscript:`),
 * and a backslash read as a slash, as browsers do in web addresses, so `/\evil.com`, `\\evil.com` and
 * `/\/evil.com` are the protocol-relative `//evil.com` they resolve to, which leaves the site.
 */
export function isSafeUrl(value: string) {
	const url = decodeEntities(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, '').replace(/\\/g, '/')
	if (url === '') return false
	if (/^(https?:|mailto:)/i.test(url)) return true
	return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//')
}

function sanitizeAttributes(tag: string, source: string) {
	const allowed = allowedAttributes[tag]
	if (!allowed) return ''
	let output = ''
	const pattern = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g
	for (const match of source.matchAll(pattern)) {
		const name = match[1]!.toLowerCase()
		if (!allowed.has(name)) continue
		const value = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '')
		if (urlAttributes.has(name) && !isSafeUrl(value)) continue
		if (name === 'target') {
			output += ' target="_blank" rel="noopener noreferrer"'
			continue
		}
		output += ` ${name}="${escapeHtml(value)}"`
	}
	return output
}

/** Text between tags: `<`, `>` and quotes are escaped; a well-formed entity (`&copy;`, `&#169;`, `&lt;`) is kept. */
function escapeText(text: string) {
	return text
		.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
}

export function sanitizeHtml(input: string): string {
	let output = ''
	const open: string[] = []
	const pattern = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g
	let last = 0
	for (const match of input.matchAll(pattern)) {
		output += escapeText(input.slice(last, match.index))
		last = match.index + match[0].length
		if (match[0].startsWith('<!--')) continue
		const closing = match[1] === '/'
		const tag = match[2]!.toLowerCase()
		// Content of script-like elements is dropped with them.
		if (!closing && (tag === 'script' || tag === 'style' || tag === 'iframe' || tag === 'textarea' || tag === 'title')) {
			const end = input.toLowerCase().indexOf(`</${tag}`, last)
			const close = end < 0 ? input.length : input.indexOf('>', end)
			last = close < 0 ? input.length : close + 1
			continue
		}
		if (!allowedTags.has(tag)) continue
		if (closing) {
			const index = open.lastIndexOf(tag)
			if (index < 0) continue
			while (open.length > index) output += `</${open.pop()}>`
			continue
		}
		output += `<${tag}${sanitizeAttributes(tag, match[3] ?? '')}>`
		if (!voidTags.has(tag) && !/\/\s*$/.test(match[3] ?? '')) open.push(tag)
	}
	output += escapeText(input.slice(last))
	while (open.length > 0) output += `</${open.pop()}>`
	return output
}
