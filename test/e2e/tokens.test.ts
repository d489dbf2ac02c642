/**
 * The token page in Chromium: creating, validating, editing, switching, deleting, searching and
 * copying tokens end to end, the chat menu, English, and the 390 px layout; never a console error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000

type Visitor = Caller & { username: string; role: number }

describe.skipIf(!browserExecutable)('the token page in a browser', () => {
	let harness: ConsoleHarness
	/** Starts without tokens, for the empty state; the other journeys share `sailor` and tell their tokens apart by name. */
	let newcomer: Visitor
	let sailor: Visitor

	/** Created with root's existing session, so that the suite stays under the login rate limit. */
	async function createVisitor(username: string): Promise<Visitor> {
		const password = 'password123'
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username, password, display_name: username } })
		if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`)
		return { ...(await harness.ferry.login(username, password)), username, role: ROLE.user }
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const upstream = harness.startUpstream()
		await harness.createChannel({ name: 'harbour', base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o', group: 'default' })
		newcomer = await createVisitor('newcomer')
		sailor = await createVisitor('sailor')
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await harness?.close()
	})

	/** The owner's tokens whose name contains `keyword`, straight from the API. */
	async function tokensOf(owner: Caller, keyword = '') {
		const answer = await harness.ferry.call('GET', `/api/token/search?keyword=${keyword}&page_size=100`, { as: owner })
		return answer.body.data.items as { id: number; name: string; key: string; status: number; unlimited_quota: boolean; remain_quota: number; model_limits: string; model_limits_enabled: boolean; concurrency_limit: number }[]
	}

	const row = (page: Page, name: string) => page.locator('tbody tr').filter({ has: page.getByText(name, { exact: true }) })
	const toast = (page: Page, text: string) => page.locator('[data-kind]').filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })
	const drawer = (page: Page) => page.getByRole('dialog')

	test('creates a token through the drawer after checking the name and the expiry format, in a chosen group', async () => {
		const user = newcomer
		const opened = await harness.open('/token', { as: user })
		const { page } = opened
		await page.getByText('还没有令牌：创建一个令牌，用它调用 API').waitFor({ timeout: STEP_TIMEOUT })
		// The empty list offers the same button as the toolbar.
		await page.getByTestId('empty-state').getByRole('button', { name: '添加令牌' }).click()
		await drawer(page).getByRole('heading', { name: '添加令牌' }).waitFor()
		expect(await page.getByLabel('额度（美元）').inputValue()).toBe('1')
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '请输入令牌名称')
		await page.getByLabel('名称', { exact: true }).fill('harbour-key')
		await page.getByLabel('过期时间').fill('next tuesday')
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '过期时间格式错误')
		await page.getByRole('button', { name: '一天', exact: true }).click()
		expect(await page.getByLabel('过期时间').inputValue()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
		await page.getByRole('button', { name: '$10', exact: true }).click()
		await page.getByRole('combobox', { name: '分组' }).click()
		// The server's default description reads in the console's language.
		const vip = page.getByRole('option').filter({ hasText: 'VIP 分组' })
		expect(await vip.textContent()).toContain('1 倍率')
		await vip.click()
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '令牌创建成功')
		await row(page, 'harbour-key').waitFor({ timeout: STEP_TIMEOUT })
		expect(await row(page, 'harbour-key').textContent()).toContain('$10.00')
		expect(await row(page, 'harbour-key').textContent()).toContain('已启用')
		await harness.screenshot(page, 'token-1280')
		const [token] = await tokensOf(user)
		expect(token).toMatchObject({ name: 'harbour-key', remain_quota: 5_000_000, status: 1, group: 'vip' })
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('creates a batch with a count preset, limits it to a model and an unlimited quota', async () => {
		const user = sailor
		const opened = await harness.open('/token', { as: user })
		const { page } = opened
		// The toolbar's button (an empty list offers a second one).
		await page.getByRole('button', { name: '添加令牌' }).first().click()
		await page.getByLabel('名称', { exact: true }).fill('fleet')
		await page.getByRole('switch', { name: '无限额度' }).click()
		await page.getByRole('button', { name: '10 个', exact: true }).click()
		await page.getByLabel('新建数量').fill('3')
		await page.getByRole('switch', { name: '限制可用模型' }).click()
		await page.getByTestId('model-picker').getByText('gpt-4o-mini', { exact: true }).click()
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '已创建 3 个令牌')
		await row(page, 'fleet').waitFor({ timeout: STEP_TIMEOUT })
		const tokens = await tokensOf(user, 'fleet')
		expect(tokens.map((token) => token.name).sort()[0]).toBe('fleet')
		expect(tokens.filter((token) => /^fleet-[A-Za-z0-9]{6}$/.test(token.name))).toHaveLength(2)
		for (const token of tokens) expect(token).toMatchObject({ unlimited_quota: true, model_limits_enabled: true, model_limits: 'gpt-4o-mini' })
		expect(await row(page, 'fleet').textContent()).toContain('限制模型')
		expect(await row(page, 'fleet').textContent()).toContain('无限额度')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('edits a token: the drawer starts from its values and the change shows in the row', async () => {
		const user = sailor
		await harness.createToken({ name: 'old-name', unlimited_quota: false, remain_quota: 500_000 }, user)
		const opened = await harness.open('/token', { as: user })
		const { page } = opened
		await row(page, 'old-name').getByRole('button', { name: '编辑' }).click()
		await drawer(page).getByRole('heading', { name: '编辑令牌' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByLabel('名称', { exact: true }).inputValue()).toBe('old-name')
		expect(await page.getByLabel('过期时间').inputValue()).toBe('-1')
		expect(await page.getByLabel('新建数量').count()).toBe(0)
		await page.getByLabel('名称', { exact: true }).fill('new-name')
		await page.getByLabel('IP 白名单').fill('10.0.0.0/8\n192.168.1.10')
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '令牌更新成功')
		await row(page, 'new-name').waitFor({ timeout: STEP_TIMEOUT })
		const [token] = await tokensOf(user, 'new-name')
		expect(token).toMatchObject({ name: 'new-name', remain_quota: 500_000 })
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	const concurrencyCases = [
		{ language: 'zh', width: 1400, texts: { edit: '编辑', field: '并发上限', submit: '提交', invalid: '并发上限须为 0 到 100000 之间的整数（0 表示不限）', updated: '令牌更新成功', badge: '并发 ≤ 8' } },
		{ language: 'en', width: 390, texts: { edit: 'Edit', field: 'Concurrency limit', submit: 'Submit', invalid: 'The concurrency limit must be a whole number from 0 to 100000 (0: no limit)', updated: 'Token updated', badge: 'Concurrency ≤ 8' } },
	] as const
	for (const { language, width, texts } of concurrencyCases) {
		test(`the concurrency limit is checked as the server checks it, saved, shown on the row and again in the drawer (${language}, ${width} px)`, async () => {
			const user = sailor
			const name = `busy-${language}`
			await harness.createToken({ name, unlimited_quota: true }, user)
			const opened = await harness.open('/token', { as: user, language, width })
			const { page } = opened
			await row(page, name).getByRole('button', { name: texts.edit, exact: true }).click()
			const field = drawer(page).getByLabel(texts.field, { exact: true })
			expect(await field.inputValue()).toBe('0')
			for (const wrong of ['2.5', '-1', '100001']) {
				await field.fill(wrong)
				await drawer(page).getByRole('button', { name: texts.submit }).click()
				await toast(page, texts.invalid)
				expect(await field.getAttribute('aria-invalid')).toBe('true')
			}
			expect((await tokensOf(user, name))[0]).toMatchObject({ concurrency_limit: 0 })
			await field.fill('8')
			await drawer(page).getByRole('button', { name: texts.submit }).click()
			await toast(page, texts.updated)
			await row(page, name).getByTestId('concurrency-limit').filter({ hasText: texts.badge, visible: true }).waitFor({ timeout: STEP_TIMEOUT })
			expect((await tokensOf(user, name))[0]).toMatchObject({ concurrency_limit: 8 })
			await row(page, name).getByRole('button', { name: texts.edit, exact: true }).click()
			expect(await drawer(page).getByLabel(texts.field, { exact: true }).inputValue()).toBe('8')
			expectNoErrors(opened)
			await opened.close()
		}, SUITE_TIMEOUT)
	}

	const windowCases = [
		{ language: 'zh', texts: { edit: '编辑', field: '每天', submit: '提交', invalid: '额度窗口上限须为大于 0 的数字', updated: '令牌更新成功', usage: '1 天：已用' } },
		{ language: 'en', texts: { edit: 'Edit', field: 'A day', submit: 'Submit', invalid: 'A window\'s spend limit must be a number above 0', updated: 'Token updated', usage: '1 d: ' } },
	] as const
	for (const { language, texts } of windowCases) {
		test(`a daily spend limit is typed in the display currency, checked, saved as a window of quota, shown on the row and again in the drawer (${language})`, async () => {
			const user = sailor
			const name = `capped-${language}`
			await harness.createToken({ name, unlimited_quota: true }, user)
			const opened = await harness.open('/token', { as: user, language, width: 1400 })
			const { page } = opened
			await row(page, name).getByRole('button', { name: texts.edit, exact: true }).click()
			const field = drawer(page).getByLabel(texts.field, { exact: true })
			expect(await field.inputValue()).toBe('')
			for (const wrong of ['0', '-1', 'lots']) {
				await field.fill(wrong)
				await drawer(page).getByRole('button', { name: texts.submit }).click()
				await toast(page, texts.invalid)
				expect(await field.getAttribute('aria-invalid')).toBe('true')
			}
			await field.fill('2')
			await drawer(page).getByRole('button', { name: texts.submit }).click()
			await toast(page, texts.updated)
			const answer = await harness.ferry.call('GET', `/api/token/search?keyword=${name}`, { as: user })
			expect(answer.body.data.items[0].quota_windows).toMatchObject([{ seconds: 86_400, quota: 2 * 500_000, used: 0 }])
			await row(page, name).locator('[data-token-window="86400"]').filter({ hasText: texts.usage, visible: true }).waitFor({ timeout: STEP_TIMEOUT })
			await row(page, name).getByRole('button', { name: texts.edit, exact: true }).click()
			expect(await drawer(page).getByLabel(texts.field, { exact: true }).inputValue()).toBe('2')
			expectNoErrors(opened)
			await opened.close()
		}, SUITE_TIMEOUT)
	}

	test('disables and enables a token, and shows the server\'s reason for an expired one', async () => {
		const user = sailor
		await harness.createToken({ name: 'switchable', unlimited_quota: false, remain_quota: 500_000 }, user)
		const expired = await harness.createToken({ name: 'bygone', unlimited_quota: false, remain_quota: 500_000 }, user)
		const { tokens } = harness.ferry.store.tables
		await harness.ferry.store.db.update(tokens).set({ expiredTime: 1_000 }).where(eq(tokens.id, expired.id))
		const opened = await harness.open('/token', { as: user })
		const { page } = opened
		expect(await row(page, 'bygone').textContent()).toContain('已过期')
		await row(page, 'switchable').getByRole('button', { name: '禁用' }).click()
		await toast(page, '令牌已禁用')
		await row(page, 'switchable').locator('[data-column="status"]').getByText('已禁用').waitFor({ timeout: STEP_TIMEOUT })
		await row(page, 'switchable').getByRole('button', { name: '启用' }).click()
		await toast(page, '令牌已启用')
		await row(page, 'switchable').locator('[data-column="status"]').getByText('已启用').waitFor({ timeout: STEP_TIMEOUT })
		await row(page, 'bygone').getByRole('button', { name: '启用' }).click()
		await toast(page, '令牌已过期，无法启用，请先修改过期时间')
		expect(await row(page, 'bygone').textContent()).toContain('已过期')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('deletes a token only after the confirmation', async () => {
		const user = sailor
		await harness.createToken({ name: 'doomed' }, user)
		const opened = await harness.open('/token', { as: user })
		const { page } = opened
		await row(page, 'doomed').getByRole('button', { name: '删除' }).click()
		const confirm = page.getByRole('alertdialog')
		expect(await confirm.textContent()).toContain('确定删除令牌 doomed 吗？')
		await confirm.getByRole('button', { name: '取消' }).click()
		expect(await tokensOf(user, 'doomed')).toHaveLength(1)
		await row(page, 'doomed').getByRole('button', { name: '删除' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
		await toast(page, '令牌已删除')
		await row(page, 'doomed').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		expect(await tokensOf(user, 'doomed')).toHaveLength(0)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('searches by name and by key through the URL', async () => {
		const user = sailor
		await harness.createToken({ name: 'north-wind' }, user)
		const south = await harness.createToken({ name: 'south-wind' }, user)
		const opened = await harness.open('/token', { as: user })
		const { page } = opened
		await page.getByLabel('令牌名称').fill('north')
		await page.getByRole('button', { name: '搜索' }).click()
		await page.waitForURL(/keyword=north/)
		await row(page, 'south-wind').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		expect(await row(page, 'north-wind').count()).toBe(1)
		await page.getByLabel('令牌名称').fill('')
		await page.getByLabel('令牌密钥').fill(south.key)
		await page.getByRole('button', { name: '搜索' }).click()
		await row(page, 'south-wind').waitFor({ timeout: STEP_TIMEOUT })
		expect(await row(page, 'north-wind').count()).toBe(0)
		expect(new URL(page.url()).searchParams.get('token')).toBe(south.key)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('copies a row\'s full sk- key with its 复制 button, and the selected tokens, asking for a selection first', async () => {
		const user = sailor
		const token = await harness.createToken({ name: 'copied' }, user)
		const opened = await harness.open('/token', { as: user })
		const { page, context } = opened
		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		await page.getByRole('button', { name: '复制所选令牌' }).click()
		await toast(page, '请至少选择一个令牌')
		await row(page, 'copied').getByRole('button', { name: '复制', exact: true }).click()
		await toast(page, '已复制到剪贴板')
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token.key)
		expect(token.key).toMatch(/^sk-/)
		await row(page, 'copied').getByRole('checkbox').click()
		await page.getByRole('button', { name: '复制所选令牌' }).click()
		await page.waitForFunction(async (key) => (await navigator.clipboard.readText()).includes(key), token.key, { timeout: STEP_TIMEOUT })
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`copied\t${token.key}`)
		// without the clipboard the key is offered for copying by hand
		await page.evaluate(() => {
			navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))
		})
		await row(page, 'copied').getByRole('button', { name: '复制', exact: true }).click()
		expect(await page.getByRole('dialog').getByRole('textbox').inputValue()).toBe(token.key)
		await page.keyboard.press('Escape')
		// 查看密钥 shows the key whole in the row
		expect(await row(page, 'copied').getByTestId('token-key').textContent()).not.toBe(token.key)
		await row(page, 'copied').getByRole('button', { name: '查看密钥' }).click()
		expect(await row(page, 'copied').getByTestId('token-key').textContent()).toBe(token.key)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('opens a configured chat link with the key and the server address filled in', async () => {
		const user = sailor
		const token = await harness.createToken({ name: 'chatty' }, user)
		await harness.ferry.dependencies.options.set('Chats', JSON.stringify([{ 'Harbour Chat': `${harness.origin}/about?key={key}&server={address}` }]))
		const opened = await harness.open('/token', { as: user })
		const { page, context } = opened
		try {
			await row(page, 'chatty').getByRole('button', { name: '聊天' }).click()
			const popup = context.waitForEvent('page')
			await page.getByRole('menuitem', { name: 'Harbour Chat' }).click()
			const chat = await popup
			await chat.waitForURL(/\/about/, { timeout: STEP_TIMEOUT })
			const search = new URL(chat.url()).searchParams
			expect(search.get('key')).toBe(token.key)
			expect(search.get('server')).toBe(harness.origin)
			expectNoErrors(opened)
		} finally {
			await harness.ferry.dependencies.options.set('Chats', '[]')
			await opened.close()
		}
	}, SUITE_TIMEOUT)

	test('works in English: labels, validation message and tags', async () => {
		const user = sailor
		await harness.createToken({ name: 'english' }, user)
		const opened = await harness.open('/token', { as: user, language: 'en' })
		const { page } = opened
		expect(await row(page, 'english').textContent()).toContain('Enabled')
		await page.getByRole('button', { name: 'Add token' }).click()
		await page.getByRole('button', { name: 'Submit' }).click()
		await toast(page, 'Please enter a token name')
		await page.getByLabel('Name', { exact: true }).fill('english-second')
		await page.getByRole('button', { name: 'Submit' }).click()
		await toast(page, 'Token created')
		await row(page, 'english-second').waitFor({ timeout: STEP_TIMEOUT })
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('counts the rows in English with the plural the number asks for: 1 item, then 2 items', async () => {
		const user = await createVisitor('counter')
		await harness.createToken({ name: 'only' }, user)
		const opened = await harness.open('/token', { as: user, language: 'en' })
		const { page } = opened
		const pager = page.getByRole('navigation', { name: 'Pagination' })
		await pager.getByText('1 item', { exact: true }).waitFor({ timeout: STEP_TIMEOUT })
		await page.getByRole('button', { name: 'Add token' }).click()
		await page.getByLabel('Name', { exact: true }).fill('second')
		await page.getByRole('button', { name: 'Submit' }).click()
		await toast(page, 'Token created')
		await pager.getByText('2 items', { exact: true }).waitFor({ timeout: STEP_TIMEOUT })
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('under 600 px the table leaves out its narrow-screen columns, and takes them back when the window widens', async () => {
		const user = sailor
		await harness.createToken({ name: 'folding' }, user)
		const opened = await harness.open('/token', { as: user, width: 390 })
		const { page } = opened
		const foldedColumns = ['status', 'used', 'remaining', 'created', 'expiry', 'group']
		const countColumns = () => page.evaluate((ids) => ids.map((id) => document.querySelectorAll(`[data-column="${id}"]`).length), foldedColumns)
		await page.waitForFunction(() => document.querySelectorAll('[data-column="status"]').length === 0, undefined, { timeout: STEP_TIMEOUT })
		expect(await countColumns()).toEqual(foldedColumns.map(() => 0))
		expect(await row(page, 'folding').locator('[data-column="name"]').count()).toBe(1)
		await page.setViewportSize({ width: 1280, height: 900 })
		await row(page, 'folding').locator('[data-column="status"]').waitFor({ timeout: STEP_TIMEOUT })
		expect((await countColumns()).every((count) => count >= 2)).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('fits a 390 px screen with every row\'s 复制 button in reach', async () => {
		const user = sailor
		await harness.createToken({ name: 'pocket' }, user)
		const opened = await harness.open('/token', { as: user, width: 390 })
		const { page } = opened
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		expect(await page.getByRole('button', { name: '添加令牌' }).isVisible()).toBe(true)
		const copy = row(page, 'pocket').getByRole('button', { name: '复制', exact: true })
		expect(await copy.textContent()).toBe('复制')
		// every action sits inside the screen without scrolling the table sideways
		for (const name of ['复制', '聊天', '禁用', '编辑', '删除']) {
			const box = (await row(page, 'pocket').getByRole('button', { name, exact: true }).boundingBox())!
			expect(Math.round(box.x + box.width)).toBeLessThanOrEqual(390)
		}
		await harness.screenshot(page, 'token-390')
		await page.getByRole('button', { name: '添加令牌' }).click()
		const submit = drawer(page).getByRole('button', { name: '提交' })
		await submit.waitFor()
		await page.waitForFunction(() => document.querySelector('[data-slot="sheet-content"]')?.getAnimations().length === 0)
		const box = (await drawer(page).boundingBox())!
		expect(Math.round(box.x + box.width)).toBeLessThanOrEqual(390)
		expect(await submit.isVisible()).toBe(true)
		await harness.screenshot(page, 'token-390-drawer')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)
})
