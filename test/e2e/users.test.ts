/** The user administration page in Chromium: adding, editing, role and status changes, deactivation, search, paging. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

describe.skipIf(!browserExecutable)('the user administration page in a browser', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(() => harness?.close())

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })

	async function createUser(username: string, fields: Record<string, unknown> = {}) {
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username, display_name: username, password: 'password123' } })
		const id: number = created.body.data.id
		if (Object.keys(fields).length > 0) await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id, ...fields } })
		return id
	}

	const row = (page: Page, id: number) => page.locator(`tr[data-row-key="${id}"]`)
	const toast = (page: Page, kind: 'success' | 'error', text: string) => page.locator(`[data-kind="${kind}"]`).filter({ hasText: text }).first()

	test('adds a user through the drawer, asking for username and password and checking the length first', async () => {
		const opened = await harness.open('/user', { as: asRoot() })
		const { page, paths } = opened
		expect(await page.getByRole('heading', { name: '管理用户' }).isVisible()).toBe(true)
		await page.getByRole('button', { name: '添加用户' }).click()
		const drawer = page.getByRole('dialog')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, 'error', '用户名和密码不能为空').waitFor()
		await drawer.getByLabel('用户名').fill('newbie')
		await drawer.getByLabel('显示名称').fill('New Bie')
		await drawer.getByLabel('密码').fill('short')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, 'error', '密码长度不得小于 8 位').waitFor()
		expect(paths.filter((path) => path === '/api/user/')).toEqual([])
		await drawer.getByLabel('密码').fill('password123')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, 'success', '用户创建成功').waitFor()
		await drawer.waitFor({ state: 'detached' })
		const created = page.locator('tr', { hasText: 'newbie' })
		await created.waitFor()
		expect(await created.textContent()).toContain('New Bie')
		expect(await created.textContent()).toContain('普通用户')
		const login = await harness.ferry.call('POST', '/api/user/login', { body: { username: 'newbie', password: 'password123' } })
		expect(login.body.success).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('edits a user: fields, group, quota through the add-quota dialog, and read-only bindings', async () => {
		const id = await createUser('edited', { email: 'edited@example.com', quota: 1_000_000 })
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await row(page, id).getByRole('button', { name: '编辑' }).click()
		const drawer = page.getByRole('dialog')
		await drawer.getByText(`用户 ID：${id}`).waitFor()
		const email = drawer.getByLabel('已绑定的邮箱账户')
		expect(await email.inputValue()).toBe('edited@example.com')
		expect(await email.getAttribute('readonly')).not.toBeNull()
		expect(await drawer.getByLabel('已绑定的 GitHub 账户').getAttribute('readonly')).not.toBeNull()
		await drawer.getByLabel('显示名称').fill('Renamed')
		await drawer.getByLabel('分组').click()
		await page.getByRole('option', { name: 'vip', exact: true }).click()
		// One money unit: the balance and the change are in dollars, and a deduction may have cents.
		expect(await drawer.getByLabel('剩余额度（美元）').inputValue()).toBe('2')
		await drawer.getByRole('button', { name: '添加额度' }).click()
		const quotaDialog = page.getByRole('dialog', { name: '添加额度' })
		await quotaDialog.getByLabel('增加的额度').fill('-0.5')
		expect(await quotaDialog.getByTestId('quota-preview').textContent()).toBe('$2.00 + (-$0.50) = $1.50')
		await quotaDialog.getByRole('button', { name: '确定' }).click()
		await quotaDialog.waitFor({ state: 'detached' })
		expect(await drawer.getByLabel('剩余额度（美元）').inputValue()).toBe('1.5')
		await harness.screenshot(page, 'user-editor-money-1280')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toast(page, 'success', '用户信息更新成功').waitFor()
		await row(page, id).filter({ hasText: 'Renamed' }).waitFor()
		const text = await row(page, id).textContent()
		expect(text).toContain('vip')
		expect(text).toContain('剩余额度 $1.50')
		const stored = (await harness.ferry.call('GET', `/api/user/${id}`, { as: harness.root })).body.data
		expect(stored).toMatchObject({ display_name: 'Renamed', group: 'vip', quota: 750_000 })
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('refuses a quota that would go negative in the add-quota dialog', async () => {
		const id = await createUser('poor', { quota: 100 })
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await row(page, id).getByRole('button', { name: '编辑' }).click()
		const drawer = page.getByRole('dialog')
		await drawer.getByRole('button', { name: '添加额度' }).click()
		const quotaDialog = page.getByRole('dialog', { name: '添加额度' })
		await quotaDialog.getByLabel('增加的额度').fill('-1')
		expect(await quotaDialog.getByTestId('quota-preview').textContent()).toBe('$0.0002 + (-$1.00) = -$1.00')
		await quotaDialog.getByRole('button', { name: '确定' }).click()
		await toast(page, 'error', '剩余额度不能为负数').waitFor()
		expect(await quotaDialog.isVisible()).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	/** Edit and enable/disable are buttons of the row; promote, demote and deactivate are in its menu. */
	async function chooseInMenu(page: Page, id: number, action: string) {
		await row(page, id).getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: action, exact: true }).click()
	}

	test('promotes and demotes after confirmation, disables and enables, showing the answered role and status', async () => {
		const id = await createUser('climber')
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		const target = row(page, id)
		await chooseInMenu(page, id, '提升')
		const confirm = page.getByRole('alertdialog')
		expect(await confirm.textContent()).toContain('确定要提升此用户吗？')
		await confirm.getByRole('button', { name: '取消' }).click()
		expect(await target.textContent()).toContain('普通用户')
		await chooseInMenu(page, id, '提升')
		await page.getByRole('alertdialog').getByRole('button', { name: '提升' }).click()
		await target.filter({ hasText: '管理员' }).waitFor()
		await chooseInMenu(page, id, '降级')
		expect(await page.getByRole('alertdialog').textContent()).toContain('确定要降级此用户吗？')
		await page.getByRole('alertdialog').getByRole('button', { name: '降级' }).click()
		await target.filter({ hasText: '普通用户' }).waitFor()
		await target.getByRole('button', { name: '禁用' }).click()
		await target.filter({ hasText: '已封禁' }).waitFor()
		await target.getByRole('button', { name: '启用' }).click()
		await target.filter({ hasText: '已激活' }).waitFor()
		const stored = (await harness.ferry.call('GET', `/api/user/${id}`, { as: harness.root })).body.data
		expect(stored).toMatchObject({ role: ROLE.user, status: 1 })
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('deactivates a user after an irreversible-action confirmation: the row gets the tag and loses its actions', async () => {
		const id = await createUser('leaver')
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await chooseInMenu(page, id, '注销')
		const confirm = page.getByRole('alertdialog')
		expect(await confirm.textContent()).toContain('此操作不可逆')
		await confirm.getByRole('button', { name: '注销' }).click()
		await row(page, id).filter({ hasText: '已注销' }).waitFor()
		expect(await row(page, id).getByRole('button').count()).toBe(0)
		const login = await harness.ferry.call('POST', '/api/user/login', { body: { username: 'leaver', password: 'password123' } })
		expect(login.body.success).toBe(false)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	/** The labels of a row's buttons and, when it has one, of its menu's items. */
	async function offeredActions(page: Page, id: number) {
		const buttons = await row(page, id).getByRole('button').allTextContents()
		if (!(await row(page, id).getByRole('button', { name: '更多操作' }).count())) return buttons
		await row(page, id).getByRole('button', { name: '更多操作' }).click()
		const items = await page.getByRole('menuitem').allTextContents()
		await page.keyboard.press('Escape')
		return [...buttons.filter((text) => text !== ''), ...items]
	}

	test('offers on each row only what the signed-in role may do: the super admin\'s row only an edit, an admin nothing on an admin', async () => {
		const opened = await harness.open('/user', { as: asRoot() })
		expect(await offeredActions(opened.page, 1)).toEqual(['编辑'])
		expectNoErrors(opened)
		await opened.close()
		const adminId = await createUser('deputy')
		await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: adminId, action: 'promote' } })
		const otherAdminId = await createUser('deputy2')
		await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: otherAdminId, action: 'promote' } })
		const deputy = await harness.ferry.login('deputy', 'password123')
		const plainId = await createUser('plainone')
		const asAdmin = await harness.open('/user', { as: { ...deputy, username: 'deputy', role: ROLE.admin } })
		const { page } = asAdmin
		expect(await row(page, 1).getByRole('button').count()).toBe(0)
		expect(await row(page, otherAdminId).getByRole('button').count()).toBe(0)
		expect(await row(page, adminId).getByRole('button').count()).toBe(0)
		// An admin neither promotes nor demotes: an ordinary user's row has edit, disable and deactivate.
		expect(await offeredActions(page, plainId)).toEqual(['编辑', '禁用', '注销'])
		// Every offered action is one the server accepts.
		await row(page, plainId).getByRole('button', { name: '禁用' }).click()
		await row(page, plainId).filter({ hasText: '已封禁' }).waitFor()
		expectNoErrors(asAdmin)
		await asAdmin.close()
	}, 30_000)

	test('searches by keyword and by group through the URL, and keeps the chosen page size', async () => {
		const vipId = await createUser('seeker', { group: 'svip' })
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await page.getByLabel('搜索关键字').fill('seek')
		await page.getByRole('button', { name: '查询' }).click()
		await page.waitForURL(/keyword=seek/)
		await row(page, 1).waitFor({ state: 'detached' })
		expect(await page.locator('tr[data-row-key]').count()).toBe(1)
		await page.getByLabel('搜索关键字').fill('')
		await page.getByRole('combobox', { name: '分组' }).click()
		await page.getByRole('option', { name: 'svip', exact: true }).click()
		await page.getByRole('button', { name: '查询' }).click()
		await page.waitForURL(/group=svip/)
		expect(page.url()).not.toContain('keyword=')
		await row(page, 1).waitFor({ state: 'detached' })
		await row(page, vipId).waitFor()
		await page.getByRole('button', { name: '重置' }).click()
		await row(page, 1).waitFor()
		await page.getByRole('combobox', { name: '每页条数' }).click()
		await page.getByRole('option', { name: '20 条/页' }).click()
		await page.waitForURL(/page_size=20/)
		expect(await page.evaluate(() => localStorage.getItem('page-size:users'))).toBe('20')
		await page.goto(`${harness.origin}/user`)
		await page.waitForURL(/page_size=20/)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('works in English, with translated labels and validation', async () => {
		const opened = await harness.open('/user', { as: asRoot(), language: 'en' })
		const { page } = opened
		await page.getByRole('heading', { name: 'Manage users' }).waitFor()
		expect(await row(page, 1).textContent()).toContain('Super admin')
		await page.getByRole('button', { name: 'Add user' }).click()
		await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click()
		await toast(page, 'error', 'Username and password cannot be empty').waitFor()
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('shows an ordinary user the not-allowed state without loading any user', async () => {
		const plain = await harness.ferry.createUser('nobody')
		const opened = await harness.open('/user', { as: { ...plain, username: 'nobody', role: ROLE.user } })
		await opened.page.getByTestId('not-allowed').waitFor()
		expect(await opened.page.locator('tr[data-row-key]').count()).toBe(0)
		expect(opened.paths.filter((path) => path.startsWith('/api/user/search') || path === '/api/user/')).toEqual([])
		expect(opened.pageErrors).toEqual([])
		await opened.close()
	}, 30_000)
	// Last: its user would push others off the first page of the list the tests above read.
	test('in English and dark, on a phone, the editor shows and takes the balance in dollars only', async () => {
		const id = await createUser('dollars', { quota: 1_250_000 })
		const opened = await harness.open('/user', { as: asRoot(), language: 'en', theme: 'dark', width: 390 })
		const { page } = opened
		await row(page, id).getByRole('button', { name: 'Edit' }).click()
		const drawer = page.getByRole('dialog')
		const balance = drawer.getByLabel('Remaining quota (USD)')
		expect(await balance.inputValue()).toBe('2.5')
		expect(await drawer.textContent()).not.toContain('1250000')
		await balance.fill('3.25')
		await harness.screenshot(page, 'user-editor-money-390-en-dark')
		await drawer.getByRole('button', { name: 'Submit' }).click()
		await drawer.waitFor({ state: 'detached' })
		expect((await harness.ferry.call('GET', `/api/user/${id}`, { as: harness.root })).body.data.quota).toBe(1_625_000)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('unbinds a user\'s GitHub account from the editor after confirmation, leaving the user\'s other bindings', async () => {
		const id = await createUser('linked')
		const { users } = harness.ferry.store.tables
		await harness.ferry.store.db.update(users).set({ githubId: '5832', telegramId: '987654' }).where(eq(users.id, id))
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await row(page, id).getByRole('button', { name: '编辑' }).click()
		const drawer = page.getByRole('dialog').filter({ hasText: `用户 ID：${id}` })
		expect(await drawer.getByLabel('已绑定的 GitHub 账户').inputValue()).toBe('5832')
		await drawer.getByTestId('edit-user-unbind-github').click()
		await page.getByRole('alertdialog').getByRole('button', { name: '解绑' }).click()
		await toast(page, 'success', '解绑成功').waitFor()
		expect(await drawer.getByLabel('已绑定的 GitHub 账户').inputValue()).toBe('')
		const [stored] = await harness.ferry.store.db.select({ githubId: users.githubId, telegramId: users.telegramId }).from(users).where(eq(users.id, id))
		expect(stored).toEqual({ githubId: '', telegramId: '987654' })
		expect(await drawer.getByTestId('edit-user-unbind-telegram').isVisible()).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)
})
