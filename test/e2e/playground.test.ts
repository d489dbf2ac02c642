/**
 * The playground in Chromium (issue 6, done-when): a reply streams from a fake upstream through
 * `/pg/chat/completions`, its message goes loading → incomplete → complete, and the call then shows
 * in `/log` under the playground token, its cost taken from the wallet and nowhere else. Issue 32: a
 * reply's Markdown renders (code blocks highlighted) with its tokens and cost, it can be copied,
 * asked again and read raw, and the conversation is kept in the browser.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { en } from '@ui/i18n/en/index'
import { ROLE } from '@shared/user'
import { auditLedger } from '@/billing/audit'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'
import { eventually } from '../helpers/eventually'
import type { FakeOpenAI } from '../helpers/fake-openai'

const FUNDS = 1_000_000
const REPLY = 'Ferry relays this reply one slow word at a time'
/** A reply in Markdown, served by a second upstream for its own model. */
const MARKDOWN_MODEL = 'gpt-4.1-mini'
const MARKDOWN_REPLY = '## Steps\n\nRun **this** first:\n\n```js\nconst answer = 42 // the answer\nconsole.log("ready")\n```\n\n- one\n- <b>two</b>\n'
/** Slow enough for the page to show the half-streamed reply. */
const CHUNK_DELAY_MS = 250
const PAGE_TIMEOUT_MS = 60_000
const STEP_TIMEOUT_MS = 15_000

type Visitor = Caller & { username: string; role: number }

describe.skipIf(!browserExecutable)('the playground in a browser', () => {
	let harness: ConsoleHarness
	let upstream: FakeOpenAI
	let alice: Visitor

	async function balance(userId: number) {
		const { users } = harness.ferry.store.tables
		const [user] = await harness.ferry.store.db.select().from(users).where(eq(users.id, userId))
		return user!.quota
	}
	async function consumeLogs(userId: number) {
		const { logs } = harness.ferry.store.tables
		return (await harness.ferry.store.db.select().from(logs).where(eq(logs.userId, userId))).filter((log) => log.type === LOG_TYPE.consume)
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		upstream = harness.startUpstream({ reply: REPLY, promptTokens: 100, completionTokens: 20, fault: `slow-chunks=${CHUNK_DELAY_MS}` })
		await harness.createChannel({ name: 'harbour', base_url: upstream.url, models: 'gpt-4o,gpt-4o-mini' })
		const markdown = harness.startUpstream({ reply: MARKDOWN_REPLY, promptTokens: 30, completionTokens: 40 })
		await harness.createChannel({ name: 'scribe', base_url: markdown.url, models: MARKDOWN_MODEL })
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username: 'alice', password: 'password123', display_name: 'alice' } })
		const caller = await harness.ferry.login('alice', 'password123')
		alice = { ...caller, username: 'alice', role: ROLE.user }
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: created.body.data.id, quota: FUNDS } })
		// The first page request builds the console assets when ui/ changed.
		await fetch(`${harness.origin}/login`)
	}, 90_000)

	afterAll(() => harness?.close(), 30_000)

	test('streams a reply through its states and the call appears in /log, charged to the wallet only', async () => {
		const tokenBefore = await harness.createToken({ name: 'spare', unlimited_quota: false, remain_quota: 5_000 }, alice)
		const opened = await harness.open('/playground', { as: alice, language: 'zh' })
		const { page } = opened
		expect(await page.locator('#playground-model').textContent()).toBe('gpt-4o-mini')
		expect(await page.locator('#playground-temperature').inputValue()).toBe('0.1')
		await page.getByLabel('系统提示词').fill('You answer briefly.')
		await page.getByLabel('消息').fill('Say something')
		await page.getByLabel('消息').press('Enter')

		const reply = page.locator('li[data-role="assistant"]')
		const replyText = reply.locator('[data-slot="message-content"]')
		await page.locator('li[data-role="user"]').filter({ hasText: 'Say something' }).waitFor({ timeout: STEP_TIMEOUT_MS })
		await reply.and(page.locator('[data-state="incomplete"]')).waitFor({ timeout: STEP_TIMEOUT_MS })
		const partial = await replyText.textContent()
		expect(partial && REPLY.startsWith(partial.trim())).toBe(true)
		expect(partial!.trim().length).toBeLessThan(REPLY.length)
		expect(await page.getByRole('button', { name: '停止' }).count()).toBe(1)
		await reply.and(page.locator('[data-state="complete"]')).waitFor({ timeout: STEP_TIMEOUT_MS })
		expect((await replyText.textContent())!.trim()).toBe(REPLY)
		expect(await page.getByRole('button', { name: '发送' }).count()).toBe(1)
		await harness.screenshot(page, 'playground-1280')

		// What went upstream: the system prompt first, the chosen settings, no max_tokens (0 = not sent).
		const sent = upstream.requests.at(-1)!.body
		expect(sent.messages).toEqual([{ role: 'system', content: 'You answer briefly.' }, { role: 'user', content: 'Say something' }])
		expect(sent).toMatchObject({ model: 'gpt-4o-mini', stream: true, temperature: 0.1 })
		expect(sent).not.toHaveProperty('max_tokens')
		expect(sent).not.toHaveProperty('group')
		expectNoErrors(opened)
		await opened.close()

		const [log] = await eventually(async () => { const found = await consumeLogs(alice.userId); return found.length > 0 && found })
		expect(log!.tokenName).toBe('playground-default')
		expect(log!.tokenId).toBe(0)
		expect(log!.quota).toBeGreaterThan(0)
		expect(await balance(alice.userId)).toBe(FUNDS - log!.quota)
		const { tokens } = harness.ferry.store.tables
		const [spare] = await harness.ferry.store.db.select().from(tokens).where(eq(tokens.id, tokenBefore.id))
		expect(spare).toMatchObject({ remainQuota: 5_000, usedQuota: 0 })
		expect(await auditLedger(harness.ferry.store)).toEqual([])

		const logPage = await harness.open('/log', { as: alice, language: 'zh' })
		const entry = logPage.page.locator('tbody tr[data-row-key]').filter({ hasText: 'playground-default' })
		await entry.waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await entry.count()).toBe(1)
		expect(await entry.textContent()).toContain('gpt-4o-mini')
		expect(await entry.getByTestId('log-cost').getAttribute('data-quota')).toBe(String(log!.quota))
		expectNoErrors(logPage)
		await logPage.close()
	}, PAGE_TIMEOUT_MS)

	test('shows the server\'s refusal in English on an English page, though the browser asks for Chinese', async () => {
		const opened = await harness.open('/playground', { as: alice, language: 'en' })
		const { page } = opened
		const funds = await balance(alice.userId)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 0 } })
		try {
			await page.getByLabel(en['消息']!).fill('Hello?')
			await page.getByRole('button', { name: en['发送']! }).click()
			const reply = page.locator('li[data-role="assistant"][data-state="error"]')
			await reply.waitFor({ timeout: STEP_TIMEOUT_MS })
			expect(await reply.getByRole('alert').textContent()).toBe('insufficient user quota')
		} finally {
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: funds } })
		}
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('shows the server\'s refusal, in the page\'s language, as the reply\'s error, and starts a new conversation', async () => {
		const opened = await harness.open('/playground', { as: alice, language: 'zh' })
		const { page } = opened
		// An empty wallet: the relay refuses before any upstream call.
		const funds = await balance(alice.userId)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 0 } })
		const calls = upstream.requests.length
		await page.getByLabel('消息').fill('Hello?')
		await page.getByRole('button', { name: '发送' }).click()
		const reply = page.locator('li[data-role="assistant"][data-state="error"]')
		await reply.waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await reply.getByRole('alert').textContent()).toBe('用户额度不足')
		expect(upstream.requests.length).toBe(calls)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: funds } })
		await page.getByRole('button', { name: '新对话' }).click()
		await page.getByText('在下方输入消息，开始对话').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect(await page.locator('li[data-role]').count()).toBe(0)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('stops a streaming reply and keeps what arrived', async () => {
		const opened = await harness.open('/playground', { as: alice, language: 'zh' })
		const { page } = opened
		await page.getByLabel('消息').fill('Tell me more')
		await page.getByLabel('消息').press('Enter')
		const reply = page.locator('li[data-role="assistant"]')
		await reply.and(page.locator('[data-state="incomplete"]')).waitFor({ timeout: STEP_TIMEOUT_MS })
		await page.getByRole('button', { name: '停止' }).click()
		await reply.and(page.locator('[data-state="complete"]')).waitFor({ timeout: STEP_TIMEOUT_MS })
		const kept = (await reply.locator('[data-slot="message-content"]').textContent())!.trim()
		expect(kept.length).toBeGreaterThan(0)
		expect(kept.length).toBeLessThan(REPLY.length)
		expect(REPLY.startsWith(kept)).toBe(true)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('renders model output as text, never as markup', async () => {
		const opened = await harness.open('/playground', { as: alice, language: 'zh' })
		const { page } = opened
		const markup = '<img src=x onerror="window.__injected=1"><b>bold</b>'
		await page.route('**/pg/chat/completions', (route) => route.fulfill({
			status: 200,
			contentType: 'text/event-stream',
			body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: markup } }] })}\n\ndata: [DONE]\n\n`,
		}))
		await page.getByLabel('消息').fill('Markup please')
		await page.getByLabel('消息').press('Enter')
		const reply = page.locator('li[data-role="assistant"][data-state="complete"]')
		await reply.waitFor({ timeout: STEP_TIMEOUT_MS })
		await reply.getByTestId('markdown').waitFor({ timeout: STEP_TIMEOUT_MS })
		expect((await reply.locator('[data-slot="message-content"]').textContent())!.trim()).toBe(markup)
		expect(await reply.locator('img, b').count()).toBe(0)
		expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined()
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	for (const [language, theme, width] of [['zh', 'light', 1400], ['en', 'dark', 390]] as const) {
		test(`renders a reply's Markdown with a highlighted code block, its tokens and cost, copy, regenerate and the raw exchange, and keeps the conversation (${language}, ${theme}, ${width} px)`, async () => {
			const text = (zh: string) => (language === 'en' ? en[zh]! : zh)
			const opened = await harness.open('/playground', { as: alice, language, theme, width })
			const { page, context } = opened
			await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
			if (width < 600) await page.getByRole('button', { name: text('设置') }).click()
			await page.locator('#playground-model').click()
			await page.getByRole('option', { name: MARKDOWN_MODEL, exact: true }).click()
			await page.getByLabel(text('消息')).fill('How do I start?')
			await page.getByLabel(text('消息')).press('Enter')
			const reply = page.locator('li[data-role="assistant"][data-state="complete"]')
			const code = reply.getByTestId('code-block')
			await code.waitFor({ timeout: STEP_TIMEOUT_MS })
			// Markdown as elements: a heading, bold text, a list, and the fenced code with its language, highlighted.
			expect(await reply.getByRole('heading', { name: 'Steps' }).count()).toBe(1)
			expect(await reply.locator('strong').textContent()).toBe('this')
			expect(await reply.locator('ul > li').count()).toBe(2)
			expect(await code.getAttribute('data-language')).toBe('js')
			expect(await code.locator('pre').textContent()).toBe('const answer = 42 // the answer\nconsole.log("ready")')
			expect(await code.locator('pre span').allTextContents()).toEqual(expect.arrayContaining(['const', '42', '// the answer', '"ready"']))
			// The list item's markup stays text.
			expect(await reply.locator('b').count()).toBe(0)
			expect(await reply.locator('ul').textContent()).toContain('<b>two</b>')
			// Its tokens and cost, as its log entry says.
			const usage = reply.getByTestId('reply-usage')
			await usage.waitFor({ timeout: STEP_TIMEOUT_MS })
			const [log] = await eventually(async () => {
				const found = (await consumeLogs(alice.userId)).filter((entry) => entry.modelName === MARKDOWN_MODEL)
				return found.length > 0 && found
			})
			const cost = `$${(log!.quota / 500_000).toFixed(6)}`
			expect(await usage.textContent()).toContain(language === 'en' ? `Prompt 30 · completion 40 · cost ${cost}` : `提示 30 · 补全 40 · 花费 ${cost}`)
			await harness.screenshot(page, `playground-markdown-${width}-${language}-${theme}`)
			// Copy the code block and the whole reply.
			await code.getByRole('button', { name: text('复制代码') }).click()
			await page.waitForFunction(async () => (await navigator.clipboard.readText()).startsWith('const answer'))
			await reply.getByRole('button', { name: text('复制'), exact: true }).click()
			await page.waitForFunction(async () => (await navigator.clipboard.readText()).startsWith('## Steps'))
			// The raw request and answer.
			await reply.getByRole('button', { name: text('查看原始请求和响应') }).click()
			const raw = page.getByTestId('exchange-dialog')
			await raw.waitFor()
			expect(JSON.parse((await raw.getByTestId('raw-request').textContent())!)).toMatchObject({ model: MARKDOWN_MODEL, stream: true, messages: [{ role: 'user', content: 'How do I start?' }] })
			expect(await raw.getByTestId('raw-answer').textContent()).toContain('data: [DONE]')
			await page.keyboard.press('Escape')
			await raw.waitFor({ state: 'detached' })
			// Asked again: one reply still, a second call upstream.
			const before = (await consumeLogs(alice.userId)).filter((entry) => entry.modelName === MARKDOWN_MODEL).length
			await reply.getByRole('button', { name: text('重新生成') }).click()
			await eventually(async () => (await consumeLogs(alice.userId)).filter((entry) => entry.modelName === MARKDOWN_MODEL).length === before + 1)
			await page.locator('li[data-role="assistant"][data-state="complete"] [data-testid="reply-usage"]').waitFor({ timeout: STEP_TIMEOUT_MS })
			expect(await page.locator('li[data-role="assistant"]').count()).toBe(1)
			expect(await page.locator('li[data-role="user"]').count()).toBe(1)
			// Kept in the browser: a reload finds the conversation, Markdown and cost included.
			await page.reload()
			await page.waitForFunction(() => window.__hydrated === true)
			await page.locator('li[data-role="assistant"] [data-testid="code-block"]').waitFor({ timeout: STEP_TIMEOUT_MS })
			expect(await page.locator('li[data-role="assistant"] [data-testid="reply-usage"]').count()).toBe(1)
			await page.getByRole('button', { name: text('新对话') }).click()
			expect(await page.locator('li[data-role]').count()).toBe(0)
			await page.getByRole('button', { name: text('历史对话') }).click()
			await page.getByRole('menuitem', { name: 'How do I start?' }).click()
			await page.locator('li[data-role="assistant"] [data-testid="code-block"]').waitFor({ timeout: STEP_TIMEOUT_MS })
			expectNoErrors(opened)
			await opened.close()
		}, PAGE_TIMEOUT_MS)
	}

	test('on a 390 px screen the settings fold away behind a button', async () => {
		const opened = await harness.open('/playground', { as: alice, language: 'en', width: 390 })
		const { page } = opened
		const sidebar = page.getByRole('complementary', { name: 'Settings' })
		expect(await sidebar.isVisible()).toBe(false)
		await page.getByRole('button', { name: 'Settings' }).click()
		expect(await sidebar.isVisible()).toBe(true)
		expect(await page.getByLabel('System prompt').isVisible()).toBe(true)
		await harness.screenshot(page, 'playground-390')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)
})
