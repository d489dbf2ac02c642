/**
 * The redemption code page in Chromium: creating codes in the drawer and downloading them, copying,
 * disabling and enabling, editing, deleting, a code redeemed through the API showing as used, and
 * the 390 px layout; never a console error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { REDEMPTION_STATUS } from '@shared/redemption'
import { ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000

type Code = { id: number; name: string; key: string; status: number; quota: number; used_user_id: number }

describe.skipIf(!browserExecutable)('the redemption code page in a browser', () => {
	let harness: ConsoleHarness
	let redeemer: Caller

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username: 'redeemer', display_name: 'redeemer', password: 'password123' } })
		if (!created.body.success) throw new Error(`creating the redeemer failed: ${created.body.message}`)
		redeemer = await harness.ferry.login('redeemer', 'password123')
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await harness?.close()
	})

	/** The codes whose name contains `keyword`, oldest first, straight from the API. */
	async function codesNamed(keyword: string): Promise<Code[]> {
		const answer = await harness.ferry.call('GET', `/api/redemption/search?keyword=${keyword}&page_size=100`, { as: harness.root })
		return (answer.body.data.items as Code[]).sort((first, second) => first.id - second.id)
	}

	const row = (page: Page, id: number) => page.locator(`tbody tr[data-row-key="${id}"]`)
	const toast = (page: Page, text: string) => page.locator('[data-kind]').filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })
	const rowShows = (page: Page, id: number, text: string) => row(page, id).filter({ hasText: text }).waitFor({ timeout: STEP_TIMEOUT })

	test('creates two codes in the drawer, downloads them as <name>.txt, copies one, disables, enables and edits it', async () => {
		const opened = await harness.open('/redemption', { as: asRoot() })
		const { page, context } = opened
		await page.getByText('还没有兑换码：生成一批，发给要充值的用户').waitFor({ timeout: STEP_TIMEOUT })
		await page.getByRole('button', { name: '复制所选兑换码' }).click()
		await toast(page, '请至少选择一个兑换码')

		await page.getByTestId('empty-state').getByRole('button', { name: '添加兑换码' }).click()
		await page.getByRole('dialog').getByRole('heading', { name: '添加兑换码' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByLabel('额度（美元）').inputValue()).toBe('0.2')
		expect(await page.getByLabel('生成数量').inputValue()).toBe('1')
		await page.getByLabel('名称', { exact: true }).fill('spring-gift')
		await page.getByRole('button', { name: '$10', exact: true }).click()
		await page.getByLabel('生成数量').fill('2')
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '兑换码创建成功')
		const created = page.getByRole('dialog').filter({ hasText: '已生成 2 个兑换码' })
		await created.waitFor({ timeout: STEP_TIMEOUT })

		const codes = await codesNamed('spring-gift')
		expect(codes.map((code) => ({ name: code.name, quota: code.quota, status: code.status }))).toEqual([
			{ name: 'spring-gift', quota: 5_000_000, status: REDEMPTION_STATUS.unused },
			{ name: 'spring-gift', quota: 5_000_000, status: REDEMPTION_STATUS.unused },
		])
		const expectedFile = `${codes.map((code) => code.key).join('\n')}\n`
		expect(await created.getByRole('textbox').inputValue()).toBe(expectedFile)
		const [download] = await Promise.all([
			page.waitForEvent('download', { timeout: STEP_TIMEOUT }),
			created.getByRole('button', { name: '下载 spring-gift.txt' }).click(),
		])
		expect(download.suggestedFilename()).toBe('spring-gift.txt')
		expect(readFileSync((await download.path())!, 'utf8')).toBe(expectedFile)
		await page.keyboard.press('Escape')
		await created.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT })

		const [first, second] = codes as [Code, Code]
		await rowShows(page, first.id, '$10.00')
		await rowShows(page, second.id, '未使用')

		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
		await row(page, second.id).getByRole('button', { name: '复制', exact: true }).click()
		await toast(page, '已复制到剪贴板')
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(second.key)
		await row(page, first.id).getByRole('checkbox', { name: '选择' }).click()
		await page.getByRole('button', { name: '复制所选兑换码' }).click()
		await page.waitForFunction(async (key) => (await navigator.clipboard.readText()).includes(key), first.key, { timeout: STEP_TIMEOUT })
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${first.key}\n`)

		await row(page, first.id).getByRole('button', { name: '禁用' }).click()
		await toast(page, '兑换码已禁用')
		await rowShows(page, first.id, '已禁用')
		expect((await codesNamed('spring-gift'))[0]!.status).toBe(REDEMPTION_STATUS.disabled)
		expect(await row(page, first.id).getByRole('button', { name: '编辑' }).count()).toBe(0)
		await row(page, first.id).getByRole('button', { name: '启用' }).click()
		await toast(page, '兑换码已启用')
		await rowShows(page, first.id, '未使用')
		expect((await codesNamed('spring-gift'))[0]!.status).toBe(REDEMPTION_STATUS.unused)

		await row(page, first.id).getByRole('button', { name: '编辑' }).click()
		await page.getByRole('dialog').getByRole('heading', { name: '编辑兑换码' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByLabel('名称', { exact: true }).inputValue()).toBe('spring-gift')
		expect(await page.getByLabel('额度（美元）').inputValue()).toBe('10')
		expect(await page.getByLabel('生成数量').count()).toBe(0)
		await page.getByLabel('名称', { exact: true }).fill('renamed')
		await page.getByLabel('额度（美元）').fill('3')
		await page.getByRole('button', { name: '提交' }).click()
		await toast(page, '兑换码更新成功')
		await rowShows(page, first.id, 'renamed')
		await rowShows(page, first.id, '$3.00')
		expect((await codesNamed('renamed'))[0]).toMatchObject({ id: first.id, key: first.key, quota: 1_500_000 })
		await harness.screenshot(page, 'redemption-1280')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('fits a 390 px screen with every action of an unused code in reach', async () => {
		const created = await harness.ferry.call('POST', '/api/redemption/', { as: harness.root, body: { name: 'pocket', quota: 1000 } })
		expect(created.body.success).toBe(true)
		const [code] = await codesNamed('pocket')
		const opened = await harness.open('/redemption', { as: asRoot(), width: 390 })
		const { page } = opened
		await row(page, code!.id).waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		expect(await page.getByRole('button', { name: '添加兑换码' }).isVisible()).toBe(true)
		for (const name of ['复制', '禁用', '编辑', '删除']) {
			const box = (await row(page, code!.id).getByRole('button', { name, exact: true }).boundingBox())!
			expect(Math.round(box.x + box.width)).toBeLessThanOrEqual(390)
		}
		await harness.screenshot(page, 'redemption-390')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('closing the success toast with its button leaves the dialog of the new codes open, codes and all', async () => {
		const opened = await harness.open('/redemption', { as: asRoot() })
		const { page } = opened
		await page.getByRole('button', { name: '添加兑换码' }).first().click()
		await page.getByLabel('名称', { exact: true }).fill('toast-check')
		await page.getByRole('button', { name: '提交' }).click()
		const created = page.getByRole('dialog').filter({ hasText: '已生成 1 个兑换码' })
		await created.waitFor({ timeout: STEP_TIMEOUT })
		const success = page.locator('[data-toaster] [data-kind="success"]').filter({ hasText: '兑换码创建成功' })
		// The button takes its toast out of the page in its click, before the dialog hears of the press.
		await success.getByRole('button', { name: '关闭' }).click()
		await success.waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		// Radix closes a dialog in the same click (data-state turns "closed" before its exit animation).
		expect(await created.getAttribute('data-state')).toBe('open')
		const [code] = await codesNamed('toast-check')
		expect(await created.getByRole('textbox').inputValue()).toBe(`${code!.key}\n`)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('a code a user redeems through the API shows as used, by that user, with no actions but copy and delete', async () => {
		const [code] = await codesNamed('spring-gift')
		const redeemed = await harness.ferry.call('POST', '/api/user/topup', { as: redeemer, body: { key: code!.key } })
		expect(redeemed.body).toMatchObject({ success: true, data: 5_000_000 })
		const opened = await harness.open('/redemption', { as: asRoot() })
		const { page } = opened
		await rowShows(page, code!.id, '已使用')
		const text = await row(page, code!.id).textContent()
		expect(text).toContain(String(redeemer.userId))
		expect(text).not.toContain('尚未兑换')
		for (const action of ['启用', '禁用', '编辑']) expect(await row(page, code!.id).getByRole('button', { name: action }).count()).toBe(0)

		await row(page, code!.id).getByRole('button', { name: '删除' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
		await toast(page, '兑换码已删除')
		await row(page, code!.id).waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		expect(await codesNamed('spring-gift')).toHaveLength(0)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)
})
