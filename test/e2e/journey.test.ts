/**
 * The console's whole journey in Chromium, against a fresh server, every step through the pages:
 * root signs in with the default password and is made to change it; root creates a user; that user
 * invites another through the invitation link; root adds a channel to a fake OpenAI upstream and a
 * token; the token is copied from the token page and used for a real chat completion with the
 * official SDK; the call shows on /log with its cost, and root's balance on /setting fell by exactly
 * that cost. It runs in Chinese and in English (issue 16): the English journey switches the
 * console's language from the header's menu as a user does (the others carry the language
 * cookie), every browser asking for Chinese; on each page it visits, and in every toast, a zh page
 * shows no English-only sentence and an en page no Chinese.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { DEFAULT_ROOT_PASSWORD } from '@shared/user'
import { en } from '@ui/i18n/en/index'
import { channelTypes } from '@/api/channels/channel-types'
import { browserExecutable, type ConsoleHarness, startConsoleHarness } from '../helpers/browser'

const STEP_TIMEOUT = 15_000
const NEW_ROOT_PASSWORD = 'harbour-master-7'
const chinese = /[\u4e00-\u9fff]/
/** Two Latin words in a row: a sentence (a model, user or channel name alone is one word). */
const latinWords = /[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}/

type Language = 'zh' | 'en'

/** Texts that break the page's language: English-only ones on zh, any with Chinese on en. */
function foreign(language: Language, texts: string[]) {
	return texts.filter((text) => (language === 'zh' ? latinWords.test(text) && !chinese.test(text) : chinese.test(text)))
}

for (const language of ['zh', 'en'] as const) describe.skipIf(!browserExecutable)(`the console journey from first sign-in to a billed call, in ${language}`, () => {
	let harness: ConsoleHarness
	/** The console's text for a Chinese source text, in the journey's language. */
	const label = (zh: string) => (language === 'en' ? en[zh] ?? zh : zh)
	/** What each page showed (its lines, by path) and every toast, checked for the language at the end. */
	const shown: string[] = []
	const toasts: string[] = []

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)

	afterAll(async () => {
		await harness?.close()
	})

	/** A browser asking for Chinese, recording every toast it shows; `withCookie` names the journey's language by cookie. */
	async function newContext(options: { withCookie: boolean; viewport?: { width: number; height: number } }) {
		const context = await harness.browser.newContext({ viewport: options.viewport, locale: 'zh-CN', timezoneId: 'UTC' })
		if (options.withCookie) await context.addCookies([{ name: 'language', value: language, domain: new URL(harness.origin).hostname, path: '/' }])
		await context.exposeFunction('recordToast', (text: string) => { toasts.push(text) })
		await context.addInitScript(() => {
			const seen = new WeakSet<Element>()
			new MutationObserver(() => {
				for (const toast of document.querySelectorAll('[data-kind]')) {
					if (seen.has(toast) || !toast.textContent) continue
					seen.add(toast)
					void (window as unknown as { recordToast(text: string): Promise<void> }).recordToast(toast.textContent)
				}
			}).observe(document, { childList: true, subtree: true, characterData: true })
		})
		return context
	}

	/** Records the lines the page shows now, to check them for the journey's language (code shown as code is in no language). */
	async function note(page: Page) {
		const path = new URL(page.url()).pathname
		const lines = (await page.evaluate(() => {
			const copy = document.body.cloneNode(true) as HTMLElement
			for (const code of copy.querySelectorAll('pre, code')) code.remove()
			// innerText needs a rendered element: the copy is measured off screen, then removed.
			copy.style.position = 'absolute'
			copy.style.left = '-99999px'
			document.documentElement.append(copy)
			const text = copy.innerText
			copy.remove()
			return text
		})).split('\n').map((line) => line.trim()).filter(Boolean)
		shown.push(...lines.map((line) => `${path}: ${line}`))
	}

	const toast = (page: Page, kind: 'success' | 'error', text: string) =>
		page.locator(`[data-kind="${kind}"]`).filter({ hasText: label(text) }).first().waitFor({ timeout: STEP_TIMEOUT })

	async function signIn(page: Page, username: string, password: string) {
		await page.getByLabel(label('用户名'), { exact: true }).fill(username)
		await page.getByLabel(label('密码'), { exact: true }).fill(password)
		await page.getByRole('button', { name: label('登录'), exact: true }).click()
	}

	/** Opens a page and waits until React has hydrated it, so clicks reach their handlers. */
	async function visit(page: Page, path: string, { noted = true } = {}) {
		await page.goto(path.startsWith('http') ? path : `${harness.origin}${path}`)
		await page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: STEP_TIMEOUT })
		if (noted) await note(page)
	}

	/** The way a user switches: the header's language menu. */
	async function chooseLanguage(page: Page) {
		await page.getByRole('button', { name: '切换语言' }).click({ timeout: STEP_TIMEOUT })
		await page.getByRole('menuitem', { name: language === 'en' ? 'English' : '中文' }).click()
		await page.waitForFunction((lang) => document.documentElement.lang.startsWith(lang), language, { timeout: STEP_TIMEOUT })
	}

	async function balanceOf(page: Page) {
		await visit(page, '/setting')
		return Number(await page.getByTestId('balance').getAttribute('data-quota'))
	}

	test(`root, a user and an invitee go from sign-in to a billed call in ${language}, and the balance falls by the logged cost`, async () => {
		const upstream = harness.startUpstream()
		const rootContext: BrowserContext = await newContext({ withCookie: false, viewport: { width: 1280, height: 900 } })
		await rootContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		const rootPage = await rootContext.newPage()
		const errors: string[] = []
		rootPage.on('pageerror', (error) => errors.push(error.message))

		// 1. Root signs in with the default password, meets the modal and changes the password.
		await visit(rootPage, '/', { noted: false })
		await chooseLanguage(rootPage)
		await note(rootPage)
		await visit(rootPage, '/login')
		await signIn(rootPage, 'root', DEFAULT_ROOT_PASSWORD)
		const modal = rootPage.getByRole('dialog')
		await modal.getByText(label('请立即修改默认密码')).waitFor({ timeout: STEP_TIMEOUT })
		await note(rootPage)
		await modal.getByRole('button', { name: label('前往修改密码') }).click()
		// The prompt opens the change-password dialog itself, on the personal tab.
		await rootPage.waitForURL(`${harness.origin}/setting`)
		const passwordDialog = rootPage.getByRole('dialog')
		await passwordDialog.getByLabel(label('新密码'), { exact: true }).fill(NEW_ROOT_PASSWORD)
		await passwordDialog.getByLabel(label('确认新密码')).fill(NEW_ROOT_PASSWORD)
		await note(rootPage)
		await passwordDialog.getByRole('button', { name: label('确认修改') }).click()
		await passwordDialog.waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		await note(rootPage)
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'root', password: DEFAULT_ROOT_PASSWORD } })).body.success).toBe(false)
		expect((await harness.ferry.call('POST', '/api/user/login', { body: { username: 'root', password: NEW_ROOT_PASSWORD } })).body.success).toBe(true)

		// 2. Root creates a user on /user.
		await visit(rootPage, '/user')
		await rootPage.getByRole('button', { name: label('添加用户') }).click()
		const addUser = rootPage.getByRole('dialog')
		await addUser.getByLabel(label('用户名')).fill('mariner')
		await addUser.getByLabel(label('显示名称')).fill('Mariner')
		await addUser.getByLabel(label('密码')).fill('mariner-pass-1')
		await note(rootPage)
		await addUser.getByRole('button', { name: label('提交') }).click()
		await rootPage.locator('tbody tr').filter({ hasText: 'mariner' }).first().waitFor({ timeout: STEP_TIMEOUT })
		await note(rootPage)

		// 3. The user signs in, copies the invitation link, and someone registers through it.
		const userContext = await newContext({ withCookie: true })
		const userPage = await userContext.newPage()
		userPage.on('pageerror', (error) => errors.push(error.message))
		await visit(userPage, '/login')
		await signIn(userPage, 'mariner', 'mariner-pass-1')
		await userPage.waitForURL(`${harness.origin}/token`)
		await visit(userPage, '/setting')
		// Without a configured server address the link becomes absolute (the page's origin) once hydrated.
		await userPage.waitForFunction(() => document.querySelector('[data-testid="invitation-link"]')?.textContent?.startsWith('http'), undefined, { timeout: STEP_TIMEOUT })
		const invitationLink = (await userPage.getByTestId('invitation-link').textContent())!.trim()
		expect(invitationLink).toMatch(new RegExp(`^${harness.origin}/register\\?aff=\\w+$`))

		const inviteeContext = await newContext({ withCookie: true })
		const inviteePage = await inviteeContext.newPage()
		inviteePage.on('pageerror', (error) => errors.push(error.message))
		await visit(inviteePage, invitationLink)
		await inviteePage.getByLabel(label('用户名'), { exact: true }).fill('deckhand')
		await inviteePage.getByLabel(label('密码'), { exact: true }).fill('deckhand-pass-1')
		await inviteePage.getByLabel(label('确认密码'), { exact: true }).fill('deckhand-pass-1')
		await inviteePage.getByRole('button', { name: label('注册'), exact: true }).click()
		await inviteePage.waitForURL(`${harness.origin}/login`, { timeout: STEP_TIMEOUT })
		await note(inviteePage)
		const rootCaller = await harness.ferry.login('root', NEW_ROOT_PASSWORD)
		const found = await harness.ferry.call('GET', '/api/user/search?keyword=deckhand', { as: rootCaller })
		const mariner = await harness.ferry.call('GET', '/api/user/search?keyword=mariner', { as: rootCaller })
		expect(found.body.data.items[0].inviter_id).toBe(mariner.body.data.items[0].id)

		// 4. Root adds a channel to the fake upstream on /channel/add.
		await visit(rootPage, '/channel/add')
		await rootPage.getByLabel(label('名称'), { exact: true }).fill('harbour-upstream')
		await rootPage.locator('#channel-base-url').fill(upstream.url)
		await rootPage.getByLabel(label('密钥'), { exact: true }).fill('sk-upstream-secret')
		await rootPage.getByLabel(label('自定义模型名称'), { exact: true }).fill('gpt-4o-mini')
		await rootPage.getByRole('button', { name: label('填入'), exact: true }).click()
		await note(rootPage)
		await rootPage.getByRole('button', { name: label('保存'), exact: true }).click()
		await rootPage.waitForURL(`${harness.origin}/channel`, { timeout: STEP_TIMEOUT })
		await rootPage.locator('tbody tr').filter({ hasText: 'harbour-upstream' }).first().waitFor({ timeout: STEP_TIMEOUT })
		await note(rootPage)

		// 5. Root creates a token on /token and copies its key from the row's copy button.
		await visit(rootPage, '/token')
		await rootPage.getByRole('button', { name: label('添加令牌') }).first().click()
		await rootPage.getByLabel(label('名称'), { exact: true }).fill('voyage')
		await rootPage.getByRole('button', { name: label('提交') }).click()
		const tokenRow = rootPage.locator('tbody tr').filter({ has: rootPage.getByText('voyage', { exact: true }) })
		await tokenRow.waitFor({ timeout: STEP_TIMEOUT })
		await tokenRow.getByRole('button', { name: label('复制'), exact: true }).click()
		await toast(rootPage, 'success', '已复制到剪贴板')
		await note(rootPage)
		const key = await rootPage.evaluate(() => navigator.clipboard.readText())
		expect(key).toMatch(/^sk-\w+$/)

		// 6. The copied key makes a real call through the relay with the official SDK.
		const balanceBefore = await balanceOf(rootPage)
		const completion = await harness.client(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Ahoy' }] })
		expect(completion.choices[0]!.message.content).toBeTruthy()
		expect(upstream.requests.length).toBe(1)

		// 7. The call is on /log with its cost; the balance fell by exactly that cost.
		await visit(rootPage, '/log')
		const logRow = rootPage.locator('tbody tr').filter({ hasText: 'voyage' }).first()
		await logRow.waitFor({ timeout: STEP_TIMEOUT })
		// The log as it stands: root's initial quota, the admin's lines (user created, quota), the call.
		const contents = (await rootPage.locator('td[data-column="content"]').allTextContents()).map((text) => text.trim()).filter(Boolean)
		expect(contents.length).toBeGreaterThan(1)
		shown.push(...contents.map((line) => `/log content: ${line}`))
		await note(rootPage)
		expect(await logRow.textContent()).toContain('gpt-4o-mini')
		const cost = Number(await logRow.getByTestId('log-cost').getAttribute('data-quota'))
		expect(cost).toBeGreaterThan(0)
		const balanceAfter = await balanceOf(rootPage)
		expect(balanceBefore - balanceAfter).toBe(cost)
		expect(await rootPage.getByTestId('balance').textContent()).toMatch(/^\$\d+\.\d\d$/)

		expect(errors).toEqual([])
		expect(toasts.length).toBeGreaterThan(0)
		expect(foreign(language, toasts)).toEqual([])
		// Names are not sentences: the channel types' and the clients' product names and root's display name, stored data.
		const names = new Set([...channelTypes().map((type) => type.name), 'Root User', 'OpenAI SDK', 'Claude Code', 'Gemini CLI'])
		const lines = shown.filter((line) => !names.has(line.slice(line.indexOf(': ') + 2)))
		expect(lines.filter((line) => foreign(language, [line.slice(line.indexOf(': ') + 2)]).length > 0)).toEqual([])
		await Promise.all([rootContext.close(), userContext.close(), inviteeContext.close()])
	}, 180_000)
})
