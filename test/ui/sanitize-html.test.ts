import { describe, expect, test } from 'bun:test'
import { isSafeUrl, sanitizeHtml } from '@ui/lib/sanitize-html'

describe('sanitising admin-written HTML', () => {
	test('keeps allowed markup and its allowed attributes', () => {
		expect(sanitizeHtml('<h2>Title</h2><p>Hello <strong>you</strong> <a href="https://example.com" title="x">link</a></p>'))
			.toBe('<h2>Title</h2><p>Hello <strong>you</strong> <a href="https://example.com" title="x">link</a></p>')
	})

	test('drops script, style and iframe elements together with their content', () => {
		const output = sanitizeHtml('a<script>alert(1)</script>b<style>p{}</style>c<iframe src="https://x"></iframe>d')
		expect(output).toBe('abcd')
	})

	test('drops event handlers and style attributes', () => {
		const output = sanitizeHtml('<img src="/a.png" onerror="alert(1)" style="x"><p onclick="x()">p</p>')
		expect(output).toBe('<img src="/a.png"><p>p</p>')
	})

	test('removes javascript: and data: URLs, also when hidden with entities or control characters', () => {
		for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'jav&#97;script:alert(1)', 'java\tscript:x', ' javascript:x', 'data:text/html,x', '//evil.example/x']) {
			expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe('<a>x</a>')
		}
		expect(isSafeUrl('/about')).toBe(true)
		expect(isSafeUrl('mailto:a@b.c')).toBe(true)
	})

	test('removes addresses a browser resolves off-site through backslashes, tabs or newlines: /\\evil.com and its kin', () => {
		const offSite = ['/\\evil.com', '\\\\evil.com', '/\\/evil.com', '\\/evil.com', '/\t/evil.com', '/\n/evil.com', ' /\\evil.com', '/&#92;evil.com', '&#92;&#92;evil.com']
		for (const href of offSite) {
			expect(isSafeUrl(href)).toBe(false)
			expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe('<a>x</a>')
			expect(sanitizeHtml(`<img src="${href}">`)).toBe('<img>')
		}
		for (const href of ['jav\nascript:alert(1)', 'java\rscript:alert(1)', 'javascript\t:alert(1)', '\u0000javascript:alert(1)']) expect(isSafeUrl(href)).toBe(false)
		for (const href of ['/about', '/docs/a\\b', 'guide/start', './x', '../x', '#top', '?page=2', 'https://example.com/\\x']) expect(isSafeUrl(href)).toBe(true)
	})

	test('escapes unknown tags and stray angle brackets as text', () => {
		expect(sanitizeHtml('<svg onload=x>1 < 2 & 3</svg>')).toBe('1 &lt; 2 &amp; 3')
		expect(sanitizeHtml('<p>"quoted"</p>')).toBe('<p>&quot;quoted&quot;</p>')
	})

	test('keeps well-formed entities in text and escapes a bare ampersand', () => {
		expect(sanitizeHtml('<p>&copy; 2026 &amp; &#169; &lt;b&gt; R&D</p>')).toBe('<p>&copy; 2026 &amp; &#169; &lt;b&gt; R&amp;D</p>')
	})

	test('closes elements left open and ignores stray closing tags', () => {
		expect(sanitizeHtml('<ul><li>one<li>two')).toBe('<ul><li>one<li>two</li></li></ul>')
		expect(sanitizeHtml('</div>text')).toBe('text')
	})

	test('opens links that ask for a new tab with noopener', () => {
		expect(sanitizeHtml('<a href="https://x.dev" target="_top">x</a>')).toBe('<a href="https://x.dev" target="_blank" rel="noopener noreferrer">x</a>')
	})
})
