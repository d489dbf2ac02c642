/**
 * The console in a real browser: Ferry from source listening on loopback (fresh SQLite, fake OpenAI
 * upstreams on demand) and Debian's Chromium driven by playwright-core. Pages record console errors,
 * page errors and React hydration errors so that every test can assert there were none.
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium): skipped loudly without it, failed under CI.
 */
import { expect } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import type { Caller } from './app'
import { databaseTargets } from './database'
import { type RelayHarness, startRelayHarness } from './relay'
import { chromiumPath } from './services'

export const browserExecutable = chromiumPath()

const browserFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

/** Screenshots land here (not committed: .gitignore lists it). */
export const screenshotDirectory = resolve(import.meta.dir, '..', '..', '.build', 'screenshots')

export const hydrationErrorPattern = /hydrat|#418|#423|#425|Minified React error/i

export type OpenedPage = {
	page: Page
	context: BrowserContext
	consoleErrors: string[]
	pageErrors: string[]
	/** Every request path the page made, in order. */
	paths: string[]
	close(): Promise<void>
}

/** No hydration error (checked first for a clearer failure), no console error, no page error. */
export function expectNoErrors(opened: Pick<OpenedPage, 'consoleErrors' | 'pageErrors'>) {
	expect(opened.consoleErrors.filter((text) => hydrationErrorPattern.test(text))).toEqual([])
	expect(opened.consoleErrors).toEqual([])
	expect(opened.pageErrors).toEqual([])
}

export type PageOptions = {
	/** Signed in as this caller: its session cookie and the stored login the console keeps. */
	as?: Caller & { username?: string; role?: number }
	language?: 'zh' | 'en'
	theme?: 'light' | 'dark'
	/** Viewport width in px (height follows); 1280 by default. */
	width?: number
	/** Wait for hydration (default true). */
	waitForHydration?: boolean
	/** Runs on the new context before the first navigation: routes that stand in for outside hosts. */
	prepare?: (context: BrowserContext) => Promise<void>
	/** The browser's own language (its Accept-Language); zh-CN by default. */
	locale?: string
	/** The system's colour scheme the browser reports; light by default. */
	colorScheme?: 'light' | 'dark'
}

export type ConsoleHarness = RelayHarness & {
	browser: Browser
	origin: string
	open(path: string, options?: PageOptions): Promise<OpenedPage>
	screenshot(page: Page, name: string): Promise<void>
}

export async function startConsoleHarness(): Promise<ConsoleHarness> {
	const sqlite = databaseTargets()[0]!
	const relay = await startRelayHarness(sqlite)
	const browser = await chromium.launch({ executablePath: browserExecutable!, args: browserFlags })
	const origin = relay.baseUrl
	const host = new URL(origin).hostname

	async function open(path: string, options: PageOptions = {}): Promise<OpenedPage> {
		const width = options.width ?? 1280
		const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, locale: options.locale ?? 'zh-CN', colorScheme: options.colorScheme ?? 'light', timezoneId: 'UTC' })
		const cookies = [] as { name: string; value: string; domain: string; path: string }[]
		if (options.language) cookies.push({ name: 'language', value: options.language, domain: host, path: '/' })
		if (options.theme) cookies.push({ name: 'theme', value: options.theme, domain: host, path: '/' })
		cookies.push({ name: 'tz', value: 'UTC', domain: host, path: '/' })
		if (options.as?.cookie) {
			const [name, value] = options.as.cookie.split('=') as [string, string]
			cookies.push({ name, value, domain: host, path: '/' })
		}
		await context.addCookies(cookies)
		const stored: Record<string, string> = {}
		if (options.language) stored.language = options.language
		if (options.theme) stored.theme = options.theme
		if (options.as) {
			stored.user = JSON.stringify({ id: options.as.userId, username: options.as.username ?? '', display_name: '', role: options.as.role ?? 1, status: 1, group: 'default', password_change_required: false })
		}
		await context.addInitScript((values: Record<string, string>) => {
			if (sessionStorage.getItem('ferry-test-seeded')) return
			sessionStorage.setItem('ferry-test-seeded', '1')
			for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value)
		}, stored)
		await options.prepare?.(context)
		const page = await context.newPage()
		const consoleErrors: string[] = []
		const pageErrors: string[] = []
		const paths: string[] = []
		page.on('console', (message) => {
			if (message.type() === 'error') consoleErrors.push(message.text())
		})
		page.on('pageerror', (error) => pageErrors.push(error.message))
		page.on('request', (request) => paths.push(new URL(request.url()).pathname))
		await page.goto(origin + path)
		if (options.waitForHydration ?? true) await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: 15_000 })
		return { page, context, consoleErrors, pageErrors, paths, close: () => context.close() }
	}

	async function screenshot(page: Page, name: string) {
		mkdirSync(screenshotDirectory, { recursive: true })
		await page.screenshot({ path: join(screenshotDirectory, `${name}.png`), fullPage: true })
	}

	return {
		...relay,
		browser,
		origin,
		open,
		screenshot,
		async close() {
			await browser.close().catch(() => {})
			await relay.close()
		},
	}
}
