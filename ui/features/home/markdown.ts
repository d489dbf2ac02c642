/**
 * Admin-written content (home page, about, notice) as HTML: Markdown for headings, paragraphs,
 * lists, block quotes, rules, links, images, bold, italic, strike-through, inline code and fenced
 * code blocks; HTML written among it passes through. The converter makes no safety decisions (it
 * only quotes attributes): its whole output goes through `sanitizeHtml`, which alone decides what
 * reaches the page.
 */
import { isSafeUrl, sanitizeHtml } from '@ui/lib/sanitize-html'

const fencePattern = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)\s*$/
const headingPattern = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const rulePattern = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/
const listItemPattern = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/
const quotePattern = /^\s{0,3}>\s?(.*)$/
/** `(address "title")`; the address may hold one level of balanced parentheses. */
const linkTarget = String.raw`\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+"([^"]*)")?\s*\)`
const imagePattern = new RegExp(String.raw`!\[([^\]]*)\]` + linkTarget, 'g')
const linkPattern = new RegExp(String.raw`\[([^\]]+)\]` + linkTarget, 'g')
const htmlBlockPattern = /^\s{0,3}(?:<!--|<\/?(?:address|article|aside|blockquote|center|details|div|dl|figure|footer|form|h[1-6]|header|hr|iframe|main|nav|ol|p|pre|script|section|style|summary|table|tbody|td|tfoot|th|thead|tr|ul)(?=[\s>/]|$))/i

/** Code is shown as written: its `&`, `<` and `>` become entities, which `sanitizeHtml` keeps as text. */
function literalText(code: string) {
	return code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function attribute(value: string) {
	return value.replace(/"/g, '&quot;')
}

/** Stand-ins for finished inline HTML, so later rules cannot rewrite it (a `_` in an address). */
function createSlots() {
	const fragments: string[] = []
	return {
		hold: (html: string) => `\u0000${fragments.push(html) - 1}\u0000`,
		release: (text: string) => text.replace(/\u0000(\d+)\u0000/g, (_, index: string) => fragments[Number(index)] ?? ''),
	}
}

function renderLink(label: string, url: string, title: string | undefined) {
	if (!isSafeUrl(url)) return label
	const titleAttribute = title ? ` title="${attribute(title)}"` : ''
	return `<a href="${attribute(url)}"${titleAttribute}>${label}</a>`
}

function renderInline(source: string): string {
	const slots = createSlots()
	let text = source.replace(/\u0000/g, '')
	text = text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => slots.hold(`<code>${literalText(code.trim())}</code>`))
	text = text.replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, (_, character: string) => slots.hold(character))
	text = text.replace(/<(https?:\/\/[^\s<>]+)>/g, (_, url: string) => slots.hold(renderLink(url, url, undefined)))
	text = text.replace(imagePattern, (_, alt: string, url: string, title?: string) => {
		const titleAttribute = title ? ` title="${attribute(title)}"` : ''
		return slots.hold(`<img src="${attribute(url)}" alt="${attribute(alt)}"${titleAttribute}>`)
	})
	text = text.replace(linkPattern, (_, label: string, url: string, title?: string) =>
		slots.hold(renderLink(renderInline(label), url, title)))
	text = text
		.replace(/(\*\*|__)(\S(?:[\s\S]*?\S)?)\1/g, '<strong>$2</strong>')
		.replace(/\*([^\s*](?:[^*]*?[^\s*])?)\*/g, '<em>$1</em>')
		.replace(/(^|\W)_([^\s_](?:[^_]*?[^\s_])?)_(?!\w)/g, '$1<em>$2</em>')
		.replace(/~~(\S(?:[\s\S]*?\S)?)~~/g, '<del>$1</del>')
		.replace(/ {2,}\n/g, '<br>')
	return slots.release(text)
}

type Block = { html: string; next: number }

function readFence(lines: string[], start: number, fence: string): Block {
	const code: string[] = []
	let index = start + 1
	while (index < lines.length && !lines[index]!.trim().startsWith(fence)) code.push(lines[index++]!)
	return { html: `<pre><code>${literalText(code.join('\n'))}</code></pre>`, next: index + 1 }
}

function readList(lines: string[], start: number): Block {
	const ordered = /\d/.test(listItemPattern.exec(lines[start]!)![1]!)
	const items: string[][] = []
	let index = start
	for (; index < lines.length; index++) {
		const line = lines[index]!
		const item = listItemPattern.exec(line)
		if (item && !rulePattern.test(line)) {
			if (/\d/.test(item[1]!) !== ordered) break
			items.push([item[2]!])
		} else if (line.trim() && /^\s+/.test(line) && items.length > 0) {
			items.at(-1)!.push(line.trim())
		} else {
			break
		}
	}
	const tag = ordered ? 'ol' : 'ul'
	return { html: `<${tag}>${items.map((item) => `<li>${renderInline(item.join('\n'))}</li>`).join('')}</${tag}>`, next: index }
}

function readWhile(lines: string[], start: number, belongs: (line: string) => boolean) {
	let index = start
	while (index < lines.length && belongs(lines[index]!)) index++
	return { taken: lines.slice(start, index), next: index }
}

function startsBlock(line: string) {
	return fencePattern.test(line) || headingPattern.test(line) || rulePattern.test(line) || listItemPattern.test(line) || quotePattern.test(line)
}

function renderBlocks(lines: string[]): string {
	let html = ''
	let index = 0
	while (index < lines.length) {
		const line = lines[index]!
		const fence = fencePattern.exec(line)
		const heading = headingPattern.exec(line)
		let block: Block
		if (!line.trim()) {
			block = { html: '', next: index + 1 }
		} else if (fence) {
			block = readFence(lines, index, fence[1]!)
		} else if (heading) {
			const level = heading[1]!.length
			block = { html: `<h${level}>${renderInline(heading[2]!)}</h${level}>`, next: index + 1 }
		} else if (rulePattern.test(line)) {
			block = { html: '<hr>', next: index + 1 }
		} else if (listItemPattern.test(line)) {
			block = readList(lines, index)
		} else if (quotePattern.test(line)) {
			const { taken, next } = readWhile(lines, index, (candidate) => quotePattern.test(candidate))
			block = { html: `<blockquote>${renderBlocks(taken.map((quoted) => quotePattern.exec(quoted)![1]!))}</blockquote>`, next }
		} else if (htmlBlockPattern.test(line)) {
			const { taken, next } = readWhile(lines, index, (candidate) => candidate.trim() !== '')
			block = { html: taken.join('\n'), next }
		} else {
			const { taken, next } = readWhile(lines, index + 1, (candidate) => candidate.trim() !== '' && !startsBlock(candidate))
			block = { html: `<p>${renderInline([line, ...taken].join('\n'))}</p>`, next }
		}
		html += block.html
		index = block.next
	}
	return html
}

/** Markdown (with HTML among it) to sanitised HTML. Content that is a whole HTML document is only sanitised. */
export function renderMarkdown(source: string): string {
	const text = source.replace(/\r\n?/g, '\n')
	const trimmed = text.trim()
	if (trimmed.startsWith('<') && trimmed.endsWith('>')) return sanitizeHtml(trimmed)
	return sanitizeHtml(renderBlocks(text.split('\n')))
}

/** Admin content that is an address is shown in a frame instead of rendered (as the peers do). */
export function isFrameAddress(content: string) {
	return /^https:\/\/\S+$/.test(content.trim())
}
