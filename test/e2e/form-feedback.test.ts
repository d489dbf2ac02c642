/**
 * Feedback of the console's forms in Chromium (issue 16): a new toast replaces the shown one of its
 * kind instead of stacking, a submit with missing or wrong fields marks those fields (aria-invalid and
 * the message under the field, which the control names with aria-describedby), and a resubmit clears
 * the marks of the last one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Locator, Page } from 'playwright-core'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const SUBMITS = 4

describe.skipIf(!browserExecutable)('form feedback in a browser', () => {
	let harness: ConsoleHarness

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(() => harness?.close())

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })
	const toasts = (page: Page, kind: 'success' | 'error' | 'info') => page.locator(`[data-toaster] [data-kind="${kind}"]`)

	/** Whether the control is marked, and the text of the message it names (null without one). */
	async function mark(control: Locator) {
		const invalid = await control.getAttribute('aria-invalid')
		const describedBy = await control.getAttribute('aria-describedby')
		const message = describedBy ? await control.page().locator(`[id="${describedBy}"]`).textContent() : null
		return { invalid: invalid === 'true', message }
	}

	test('the add-user drawer marks the empty fields with the message under each, and a resubmit clears what was fixed', async () => {
		const opened = await harness.open('/user', { as: asRoot() })
		const { page } = opened
		await page.getByRole('button', { name: '添加用户' }).click()
		const drawer = page.getByRole('dialog')
		const username = drawer.getByLabel('用户名')
		const password = drawer.getByLabel('密码')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toasts(page, 'error').filter({ hasText: '用户名和密码不能为空' }).waitFor()
		expect(await mark(username)).toEqual({ invalid: true, message: '用户名和密码不能为空' })
		expect(await mark(password)).toEqual({ invalid: true, message: '用户名和密码不能为空' })
		expect(await mark(drawer.getByLabel('显示名称'))).toEqual({ invalid: false, message: null })

		await username.fill('marked')
		await password.fill('short')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toasts(page, 'error').filter({ hasText: '密码长度不得小于 8 位' }).waitFor()
		expect(await mark(username)).toEqual({ invalid: false, message: null })
		expect(await mark(password)).toEqual({ invalid: true, message: '密码长度不得小于 8 位' })
		expect(await drawer.getByText('用户名和密码不能为空').count()).toBe(0)

		await password.fill('password123')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toasts(page, 'success').filter({ hasText: '用户创建成功' }).waitFor()
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('four failed submits leave one error toast, the latest, and the next failure replaces it and moves the mark', async () => {
		const opened = await harness.open('/token', { as: asRoot() })
		const { page } = opened
		await page.getByRole('button', { name: '添加令牌' }).first().click()
		const drawer = page.getByRole('dialog')
		for (let attempt = 0; attempt < SUBMITS; attempt++) {
			await drawer.getByLabel('名称').fill(attempt % 2 ? '' : 'x'.repeat(100))
			await drawer.getByRole('button', { name: '提交' }).click()
		}
		await toasts(page, 'error').filter({ hasText: '请输入令牌名称' }).waitFor()
		expect(await toasts(page, 'error').count()).toBe(1)
		expect(await mark(drawer.getByLabel('名称'))).toEqual({ invalid: true, message: '请输入令牌名称' })

		await drawer.getByLabel('名称').fill('feedback')
		await drawer.getByLabel(/^额度/).fill('-1')
		await drawer.getByRole('button', { name: '提交' }).click()
		await toasts(page, 'error').filter({ hasText: '额度不能为负数' }).waitFor()
		expect(await toasts(page, 'error').count()).toBe(1)
		expect(await mark(drawer.getByLabel('名称'))).toEqual({ invalid: false, message: null })
		expect(await mark(drawer.getByLabel(/^额度/))).toEqual({ invalid: true, message: '额度不能为负数' })
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('the channel editor marks name and key, then the models, then the JSON field at fault', async () => {
		const opened = await harness.open('/channel/add', { as: asRoot() })
		const { page } = opened
		const save = page.getByRole('button', { name: '保存', exact: true })
		const name = page.getByLabel('名称', { exact: true })
		const key = page.getByLabel('密钥', { exact: true })
		await save.click()
		await toasts(page, 'error').filter({ hasText: '请填写渠道名称和渠道密钥' }).waitFor()
		expect(await mark(name)).toEqual({ invalid: true, message: '请填写渠道名称和渠道密钥' })
		expect(await mark(key)).toEqual({ invalid: true, message: '请填写渠道名称和渠道密钥' })

		await name.fill('marked-channel')
		await save.click()
		await toasts(page, 'error').filter({ hasText: '请填写渠道名称和渠道密钥' }).waitFor()
		expect(await mark(name)).toEqual({ invalid: false, message: null })
		expect(await mark(key)).toEqual({ invalid: true, message: '请填写渠道名称和渠道密钥' })

		await key.fill('sk-marked')
		await save.click()
		await toasts(page, 'error').filter({ hasText: '请至少选择一个模型' }).waitFor()
		expect(await mark(key)).toEqual({ invalid: false, message: null })
		expect(await mark(page.getByRole('button', { name: '选择模型' }))).toEqual({ invalid: true, message: '请至少选择一个模型' })
		expect(await toasts(page, 'error').count()).toBe(1)

		await page.getByLabel('自定义模型名称', { exact: true }).fill('gpt-4o')
		await page.getByRole('button', { name: '填入', exact: true }).click()
		await page.getByLabel('额外设置', { exact: true }).fill('{not json')
		await save.click()
		await toasts(page, 'error').filter({ hasText: '额外设置必须是合法的 JSON 对象' }).waitFor()
		expect(await mark(page.getByRole('button', { name: '选择模型' }))).toEqual({ invalid: false, message: null })
		expect(await mark(page.getByLabel('额外设置', { exact: true }))).toEqual({ invalid: true, message: '额外设置必须是合法的 JSON 对象' })

		// The setting's known keys are checked before sending, with the server's own words.
		await page.getByLabel('额外设置', { exact: true }).fill('{"force_format": "yes"}')
		await save.click()
		await toasts(page, 'error').filter({ hasText: '额外设置中的 force_format 必须是 true 或 false' }).waitFor()
		await page.getByLabel('额外设置', { exact: true }).fill('{"proxy": "http://proxy.example:8080"}')
		await save.click()
		await toasts(page, 'error').filter({ hasText: '额外设置中的 proxy 暂不支持' }).waitFor()
		expect((await mark(page.getByLabel('额外设置', { exact: true }))).invalid).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)
})
