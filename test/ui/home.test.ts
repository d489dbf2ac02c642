/**
 * The home and about pages rendered by a real Ferry app, and the Markdown converter behind them:
 * admin content is rendered, and nothing executable in it ever reaches the HTML.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { renderMarkdown } from '@ui/features/home/markdown'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { markup, renderPage } from './page'

const hostileContent = [
	'# Welcome',
	'',
	'<script>alert("pwned")</script>',
	'',
	'<img src="x" onerror="alert(1)"> <a href="javascript:alert(2)">tap</a> [link](javascript:alert(3)) <div onclick="alert(4)">box</div>',
	'',
	'<iframe src="https://evil.example"></iframe><svg onload="alert(5)"></svg>',
].join('\n')

/** The rendered page without the hydration data (which carries the raw content as JSON). */

function expectNothingExecutable(html: string) {
	expect(html).not.toContain('<script>alert')
	const page = markup(html)
	expect(page).not.toMatch(/onerror|onclick|onload/i)
	expect(page).not.toContain('javascript:')
	expect(page).not.toContain('evil.example')
	expect(page).not.toContain('<svg onload')
}

describe('the public home and about pages rendered by the server', () => {
	let app: TestApp

	beforeEach(async () => {
		app = await createTestApp(databaseTargets()[0]!)
	})

	afterEach(async () => {
		await app.close()
	})

	const render = (path: string, cookie?: string) => renderPage(app, path, [cookie])

	test('without home page content, / shows the default landing with login and register links and the notice', async () => {
		await app.dependencies.options.set('SystemName', 'Harbour Gate')
		await app.dependencies.options.set('Notice', 'Maintenance on **Sunday**')
		const { status, html } = await render('/')
		expect(status).toBe(200)
		expect(markup(html)).toContain('<h1 class="text-3xl font-semibold">Harbour Gate</h1>')
		expect(html).toContain('自托管的大模型 API 网关')
		expect(html).toContain('href="/login"')
		expect(html).toContain('href="/register"')
		expect(html).toContain('公告')
		expect(html).toContain('Maintenance on <strong>Sunday</strong>')
	})

	test('a signed-in visitor gets a link into the console instead of login and register', async () => {
		const caller = await app.createUser('walker')
		const { html } = await render('/', caller.cookie!)
		expect(html).toContain('进入控制台')
		expect(markup(html)).toMatch(/<a[^>]*href="\/token"[^>]*>进入控制台<\/a>/)
	})

	test('the default landing renders in English with the language cookie', async () => {
		const { html } = await render('/', 'language=en')
		expect(html).toContain('<html lang="en"')
		expect(html).toContain('A self-hosted LLM API gateway')
		expect(html).toContain('Log in')
	})

	test('Markdown home page content is rendered instead of the landing, with the notice above it', async () => {
		await app.dependencies.options.set('HomePageContent', '# Harbour\n\nFast **relay** with `code`.\n\n- one\n- two')
		await app.dependencies.options.set('Notice', 'Maintenance on **Sunday**')
		const { html } = await render('/')
		const page = markup(html)
		expect(page).toContain('<h1>Harbour</h1><p>Fast <strong>relay</strong> with <code>code</code>.</p><ul><li>one</li><li>two</li></ul>')
		expect(page).not.toContain('自托管的大模型 API 网关')
		expect(page).toContain('Maintenance on <strong>Sunday</strong>')
		expect(page.indexOf('Maintenance on')).toBeLessThan(page.indexOf('<h1>Harbour</h1>'))
	})

	test('home page content without a notice shows no notice card', async () => {
		await app.dependencies.options.set('HomePageContent', '# Harbour')
		expect(markup((await render('/')).html)).not.toContain('data-testid="site-notice"')
	})

	test('the notice is shown above home page content that is an https address in a frame', async () => {
		await app.dependencies.options.set('HomePageContent', 'https://landing.example/welcome')
		await app.dependencies.options.set('Notice', 'Read the **new terms**')
		const page = markup((await render('/')).html)
		expect(page).toContain('Read the <strong>new terms</strong>')
		expect(page).toMatch(/<iframe src="https:\/\/landing\.example\/welcome"/)
	})

	test('home page content that is an https address is shown in a frame; an http address is not', async () => {
		await app.dependencies.options.set('HomePageContent', 'https://landing.example/welcome')
		expect(markup((await render('/')).html)).toMatch(/<iframe src="https:\/\/landing\.example\/welcome" title="首页"/)
		await app.dependencies.options.set('HomePageContent', 'http://landing.example/welcome')
		expect(markup((await render('/')).html)).not.toContain('<iframe')
	})

	test('script, event handlers and javascript: links in the home page content never reach the HTML', async () => {
		await app.dependencies.options.set('HomePageContent', hostileContent)
		const { status, html } = await render('/')
		expect(status).toBe(200)
		expect(markup(html)).toContain('<h1>Welcome</h1>')
		expect(markup(html)).toContain('<div>box</div>')
		expectNothingExecutable(html)
	})

	test('/about renders the about content, sanitised, and its title', async () => {
		await app.dependencies.options.set('About', `## Who we are\n\n${hostileContent}`)
		const { status, html } = await render('/about')
		expect(status).toBe(200)
		expect(html).toContain('<title>关于 - Ferry</title>')
		expect(markup(html)).toContain('<h2>Who we are</h2>')
		expectNothingExecutable(html)
	})

	test('/about without content says the administrator has not set it, in zh and in en', async () => {
		expect((await render('/about')).html).toContain('管理员暂未设置关于页面的内容。')
		const en = await render('/about', 'language=en')
		expect(en.html).toContain('The administrator has not set the about content yet.')
		expect(en.html).toContain('<title>About - Ferry</title>')
	})

	test('/about shows an https address in a frame', async () => {
		await app.dependencies.options.set('About', 'https://about.example')
		expect(markup((await render('/about')).html)).toMatch(/<iframe src="https:\/\/about\.example" title="关于"/)
	})
})

describe('the Markdown converter for admin content', () => {
	test('renders headings, paragraphs, both list kinds, quotes, rules, emphasis and strike-through', () => {
		const html = renderMarkdown('## Title\n\nOne *two* __three__ ~~four~~\nsame paragraph\n\n1. first\n2. second\n\n* a\n* b\n\n> quoted\n\n---')
		expect(html).toBe('<h2>Title</h2><p>One <em>two</em> <strong>three</strong> <del>four</del>\nsame paragraph</p>'
			+ '<ol><li>first</li><li>second</li></ol><ul><li>a</li><li>b</li></ul><blockquote><p>quoted</p></blockquote><hr>')
	})

	test('renders links and images with safe addresses and leaves underscores in addresses alone', () => {
		expect(renderMarkdown('[docs](https://example.com/a_b_c "Docs") ![logo](/logo.png)')).toBe(
			'<p><a href="https://example.com/a_b_c" title="Docs">docs</a> <img src="/logo.png" alt="logo"></p>')
		expect(renderMarkdown('[wiki](https://en.wikipedia.org/wiki/Ferry_(boat))')).toContain('href="https://en.wikipedia.org/wiki/Ferry_(boat)"')
	})

	test('drops javascript: and entity-disguised addresses from links and images', () => {
		expect(renderMarkdown('[x](javascript:alert(1)) [y](jav&#97;script:alert(1)) ![z](javascript:alert(1))')).not.toMatch(/javascript|href|src=/)
	})

	test('shows code spans and fenced code as text, tags and entities included', () => {
		const html = renderMarkdown('Use `<b>` here.\n\n```js\nif (a < b && c) { <script>alert(1)</script> }\n&amp;\n```')
		expect(html).not.toContain('<b>')
		expect(html).not.toContain('<script')
		const text = html.replace(/<[^>]+>/g, '')
			.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
		expect(text).toBe('Use <b> here.if (a < b && c) { <script>alert(1)</script> }\n&amp;')
	})

	test('passes allowed HTML through and sanitises the rest', () => {
		expect(renderMarkdown('<div class="x" onclick="alert(1)"><b>bold</b></div>')).toBe('<div><b>bold</b></div>')
		expect(renderMarkdown('Text with <span onmouseover="x()">inline</span> html')).toBe('<p>Text with <span>inline</span> html</p>')
	})
})
