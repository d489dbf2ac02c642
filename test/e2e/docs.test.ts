/**
 * The documentation in the console, in Chromium and in both languages: the About page offers admins
 * a link to it, the pages' links lead from page to page and to their headings without leaving the
 * console, and a user sees neither the link nor the pages.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { en } from '@ui/i18n/en'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const STEP_TIMEOUT = 15_000
const label = (language: 'zh' | 'en', zh: string) => (language === 'en' ? en[zh]! : zh)

describe.skipIf(!browserExecutable)('the documentation in the console', () => {
	let harness: ConsoleHarness
	const root = () => ({ ...harness.root, username: 'root', role: ROLE.root })

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(async () => {
		await harness?.close()
	})

	for (const language of ['zh', 'en'] as const) {
		test(`in ${language}, an admin goes from the About page to the docs, from page to page and to a heading`, async () => {
			const opened = await harness.open('/about', { as: root(), language })
			const { page } = opened
			const docsLink = page.getByRole('link', { name: label(language, '阅读 Ferry 的文档（仅管理员可见）') })
			await docsLink.click()
			await page.waitForURL(`${harness.origin}/docs`, { timeout: STEP_TIMEOUT })
			await page.getByRole('heading', { level: 1, name: 'Ferry\'s documentation' }).waitFor({ timeout: STEP_TIMEOUT })
			expect(await page.getByRole('link', { name: label(language, '文档首页') }).isVisible()).toBe(true)
			expect(await page.title()).toContain(label(language, '文档'))

			// A link between pages is a navigation inside the console, not a page load.
			await page.evaluate(() => {
				;(window as unknown as { sameDocument: boolean }).sameDocument = true
			})
			await page.locator('article[data-slot="docs-page"] a[href="/docs/guide/tokens.md"]').click()
			await page.waitForURL(`${harness.origin}/docs/guide/tokens.md`, { timeout: STEP_TIMEOUT })
			await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor({ timeout: STEP_TIMEOUT })

			// A link with an anchor lands on that heading of the other page.
			await page.locator('article[data-slot="docs-page"] a[href="/docs/specification/tokens-and-money.md#api-tokens"]').first().click()
			await page.waitForURL(`${harness.origin}/docs/specification/tokens-and-money.md#api-tokens`, { timeout: STEP_TIMEOUT })
			const heading = page.locator('h2#api-tokens')
			await heading.waitFor({ timeout: STEP_TIMEOUT })
			await page.waitForFunction(() => {
				const top = document.getElementById('api-tokens')?.getBoundingClientRect().top ?? -1
				return top >= 0 && top < window.innerHeight / 2
			}, undefined, { timeout: STEP_TIMEOUT })
			expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
			await harness.screenshot(page, `docs-${language}`)
			expectNoErrors(opened)
			await opened.close()
		}, 60_000)
	}

	test('a page opened by its address renders on the server, anchors and all; a missing page says so', async () => {
		const opened = await harness.open('/docs/architecture.md#the-ledger', { as: root(), language: 'en' })
		const { page } = opened
		await page.locator('h2#the-ledger').waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.locator('a[href="/docs/CONTRIBUTING.md"]').count()).toBeGreaterThan(0)
		await page.goto(`${harness.origin}/docs/guide/no-such-page.md`)
		await page.getByRole('alert').filter({ hasText: en['没有这篇文档。']! }).waitFor({ timeout: STEP_TIMEOUT })
		expectNoErrors(opened)
		await opened.close()
	}, 60_000)

	test('a user sees no docs link on the About page, and /docs is not allowed', async () => {
		const user = await harness.ferry.createUser('docs-reader')
		const about = await harness.open('/about', { as: { ...user, username: 'docs-reader', role: ROLE.user }, language: 'zh' })
		await about.page.getByRole('heading', { name: '关于' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await about.page.locator('[data-slot="docs-link"]').count()).toBe(0)
		await about.page.goto(`${harness.origin}/docs`)
		await about.page.getByTestId('not-allowed').waitFor({ timeout: STEP_TIMEOUT })
		expect(await about.page.locator('article[data-slot="docs-page"]').count()).toBe(0)
		await about.close()
	}, 60_000)
})
