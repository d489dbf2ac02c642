/**
 * The API reference page (`/openapi`) in Chromium: it renders the document with requests to Ferry
 * alone, so it works where the internet is out of reach.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { browserExecutable, type ConsoleHarness, startConsoleHarness } from '../helpers/browser'

describe.skipIf(!browserExecutable)('the API reference page in the browser', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(async () => {
		await harness?.close()
	})

	test('renders the management and relay operations with no request leaving this server', async () => {
		const elsewhere: string[] = []
		const opened = await harness.open('/openapi', {
			waitForHydration: false,
			prepare: async (context) => {
				await context.route((url) => !url.href.startsWith(harness.origin), (route) => {
					elsewhere.push(route.request().url())
					return route.abort()
				})
			},
		})
		const { page } = opened
		await page.locator('.swagger-ui .info .title').filter({ hasText: 'Ferry' }).waitFor({ timeout: 15_000 })
		await page.locator('.opblock-summary-path', { hasText: '/api/channel/' }).first().waitFor({ timeout: 15_000 })
		expect(await page.locator('.opblock-summary-path', { hasText: '/v1/chat/completions' }).count()).toBe(1)
		await harness.screenshot(page, 'openapi')
		expect(elsewhere).toEqual([])
		expect(opened.pageErrors).toEqual([])
		await opened.close()
	}, 60_000)
})
