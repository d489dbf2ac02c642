/**
 * The playground in Chromium (issue 6, done-when): a reply streams from a fake upstream through
 * `/pg/chat/completions`, its message goes loading → incomplete → complete, and the call then shows
 * in `/log` under the playground token, its cost taken from the wallet and nowhere else.
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
		await page.locator('li[data-role="user"]').filter({ hasText: 'Say something' }).waitFor({ timeout: STEP_TIMEOUT_MS })
		await reply.and(page.locator('[data-state="incomplete"]')).waitFor({ timeout: STEP_TIMEOUT_MS })
		const partial = await reply.textContent()
		expect(partial && REPLY.startsWith(partial.trim())).toBe(true)
		expect(partial!.trim().length).toBeLessThan(REPLY.length)
		expect(await page.getByRole('button', { name: '停止' }).count()).toBe(1)
		await reply.and(page.locator('[data-state="complete"]')).waitFor({ timeout: STEP_TIMEOUT_MS })
		expect((await reply.textContent())!.trim()).toBe(REPLY)
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
		const kept = (await reply.textContent())!.trim()
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
		expect((await reply.textContent())!.trim()).toBe(markup)
		expect(await reply.locator('img, b').count()).toBe(0)
		expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined()
		await opened.close()
	}, PAGE_TIMEOUT_MS)

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
