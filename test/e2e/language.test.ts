/**
 * The console in each of its languages, in Chromium (issue 16): the same failing and succeeding
 * actions on a zh page and on an en page — a wrong sign-in, a wrong and a right redemption code,
 * testing all channels — and the log that records them. On the zh page no toast and no log line is
 * English-only; on the en page none holds Chinese. The browser itself asks for Chinese
 * (`Accept-Language: zh-CN`), so the en page passes only if the console names its own language.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import { en } from '@ui/i18n/en/index'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000
const TEST_TIMEOUT = 60_000
const chinese = /[\u4e00-\u9fff]/
/** Two Latin words in a row: a sentence (a model or channel name alone is one word). */
const latinWords = /[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}/

type Language = 'zh' | 'en'
const label = (language: Language, zh: string) => (language === 'en' ? en[zh] ?? zh : zh)

/** Texts that break the page's language: English-only ones on zh, any with Chinese on en. */
function foreign(language: Language, texts: string[]) {
	return texts.filter((text) => (language === 'zh' ? latinWords.test(text) && !chinese.test(text) : chinese.test(text)))
}

describe.skipIf(!browserExecutable)('the console in the reader\'s language', () => {
	let harness: ConsoleHarness
	const root = () => ({ ...harness.root, username: 'root', role: ROLE.root })

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const upstream = harness.startUpstream()
		await harness.createChannel({ name: 'harbour', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' })
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await harness?.close()
	})

	/** Waits for a toast of the kind, and answers its text. */
	async function toastText(page: Page, kind: 'success' | 'error') {
		const toast = page.locator(`[data-kind="${kind}"]`).last()
		await toast.waitFor({ timeout: STEP_TIMEOUT })
		const text = (await toast.textContent()) ?? ''
		// Dismissing it (with its close button: the toaster owns these nodes) keeps the next wait from finding this one.
		await page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('[data-kind] button').forEach((button) => button.click()))
		await page.waitForFunction(() => document.querySelectorAll('[data-kind]').length === 0)
		return text
	}

	async function newCode(name: string) {
		const created = await harness.ferry.call('POST', '/api/redemption/', { as: harness.root, body: { name, quota: 1000, count: 1 } })
		return created.body.data[0] as string
	}

	for (const language of ['zh', 'en'] as const) {
		test(`on the ${language} page, toasts and log lines from the server are in ${language}`, async () => {
			const toasts: string[] = []

			// A wrong password.
			const login = await harness.open('/login', { language })
			await login.page.locator('#login-username').fill('root')
			await login.page.locator('#login-password').fill('not-the-password')
			await login.page.locator('#login-password').press('Enter')
			const refusal = await toastText(login.page, 'error')
			expect(refusal).toContain(language === 'zh' ? '用户名或密码错误' : 'username or password is wrong')
			toasts.push(refusal)
			expectNoErrors(login)
			await login.close()

			// A wrong redemption code, then a right one.
			const wallet = await harness.open('/topup', { as: root(), language })
			await wallet.page.locator('#redemption-key').fill('no-such-code')
			await wallet.page.locator('#redemption-key').press('Enter')
			const invalid = await toastText(wallet.page, 'error')
			expect(invalid).toContain(language === 'zh' ? '兑换码无效' : 'invalid, used or missing redemption code')
			toasts.push(invalid)
			await wallet.page.locator('#redemption-key').fill(await newCode(`gift-${language}`))
			await wallet.page.locator('#redemption-key').press('Enter')
			toasts.push(await toastText(wallet.page, 'success'))
			expectNoErrors(wallet)
			await wallet.close()

			// Testing all channels answers with the server's message.
			const channels = await harness.open('/channel', { as: root(), language })
			await channels.page.getByRole('button', { name: label(language, '测试所有渠道'), exact: true }).click()
			const started = await toastText(channels.page, 'success')
			expect(started).toContain(language === 'zh' ? '已在后台开始测试' : 'testing all enabled and auto-disabled channels')
			toasts.push(started)
			expectNoErrors(channels)
			await channels.close()

			expect(foreign(language, toasts)).toEqual([])

			// The log: the redemption, root's initial quota and the admin's own lines.
			const log = await harness.open('/log', { as: root(), language })
			const contents = log.page.locator('td[data-column="content"]')
			await contents.first().waitFor({ timeout: STEP_TIMEOUT })
			const lines = (await contents.allTextContents()).map((text) => text.trim()).filter(Boolean)
			expect(lines.some((line) => line.includes(`gift-${language}`))).toBe(true)
			expect(lines.length).toBeGreaterThan(2)
			expect(foreign(language, lines)).toEqual([])
			// The expanded details repeat the stored content: in the language too.
			await log.page.locator('tbody tr').first().click()
			const details = log.page.getByTestId('log-details').first()
			if (await details.isVisible()) expect(foreign(language, [(await details.textContent()) ?? ''])).toEqual([])
			expectNoErrors(log)
			await log.close()
		}, TEST_TIMEOUT)
	}

	test('the language switch words the log lines again in the chosen language, without a reload', async () => {
		const redeemed = await harness.ferry.call('POST', '/api/user/topup', { as: harness.root, body: { key: await newCode('switch-gift') } })
		expect(redeemed.body.success).toBe(true)
		const log = await harness.open('/log', { as: root(), language: 'zh' })
		const { page } = log
		const line = page.locator('td[data-column="content"]').filter({ hasText: 'switch-gift' })
		await line.filter({ hasText: '使用兑换码' }).waitFor({ timeout: STEP_TIMEOUT })
		await page.evaluate(() => { (window as { notReloaded?: boolean }).notReloaded = true })
		await page.getByRole('button', { name: '切换语言' }).click()
		await page.getByRole('menuitem', { name: 'English' }).click()
		await line.filter({ hasText: 'redeemed code' }).waitFor({ timeout: STEP_TIMEOUT })
		const lines = (await page.locator('td[data-column="content"]').allTextContents()).map((text) => text.trim()).filter(Boolean)
		expect(foreign('en', lines)).toEqual([])
		expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true)
		expectNoErrors(log)
		await log.close()
	}, TEST_TIMEOUT)
})
