/**
 * The channel list in a real browser: row actions, inline priority and weight, page buttons, batch
 * mode and tag rows, in zh and en. The channel tools (test, balances, upstream detection) reach a
 * fake OpenAI-style upstream on loopback, and the page shows what it answered.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'
import { startFakeOpenAI } from '../helpers/fake-openai'

const rootIdentity = { username: 'root', role: ROLE.root }

/** A small OpenAI-style upstream: chat, model list and dashboard billing, with OpenAI's own headers. */
function startToolUpstream() {
	const openAIHeaders = { 'openai-organization': 'org-e2e', 'x-request-id': 'req_e2e' }
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		fetch(request) {
			const { pathname } = new URL(request.url)
			const answer = (body: unknown, status = 200) => Response.json(body, { status, headers: openAIHeaders })
			if (pathname === '/v1/dashboard/billing/subscription') return answer({ object: 'billing_subscription', hard_limit_usd: 20 })
			if (pathname === '/v1/dashboard/billing/usage') return answer({ object: 'list', total_usage: 750 })
			if (pathname === '/v1/chat/completions' && request.method === 'POST') {
				return request.json().then(
					(body: { model?: string }) => body.model?.startsWith('gpt-')
						? answer({ id: 'chatcmpl-e2e', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }], usage: { prompt_tokens: 8, completion_tokens: 1, total_tokens: 9 } })
						: answer({ error: { message: `The model ${body.model} does not exist`, type: 'invalid_request_error', param: null, code: 'model_not_found' } }, 404),
					() => answer({ error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } }, 400),
				)
			}
			return answer({ error: { message: 'Invalid URL', type: 'invalid_request_error', param: null, code: null } }, 404)
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

describe.skipIf(!browserExecutable)('the channel list in the browser', () => {
	let harness: ConsoleHarness
	let channelNumber = 0

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)
	afterAll(() => harness?.close())

	async function createChannel(fields: Record<string, unknown> = {}) {
		channelNumber += 1
		return harness.createChannel({ name: `channel-${channelNumber}`, models: 'gpt-4o,gpt-4o-mini', ...fields })
	}
	const readChannel = async (id: number) => (await harness.ferry.call('GET', `/api/channel/${id}`, { as: harness.root })).body
	const open = (path: string, language: 'zh' | 'en' = 'zh') => harness.open(path, { as: { ...harness.root, ...rootIdentity }, language })
	const row = (page: Page, id: number) => page.locator(`tr[data-row-key="${id}"]`)
	/**
	 * Waits for a toast (alert: error, status: success), then closes every toast so the next check sees
	 * only new ones; not while a dialog is open (a click outside it would close the dialog).
	 */
	async function toast(page: Page, kind: 'alert' | 'status', text: string | RegExp) {
		await page.getByRole(kind).filter({ hasText: text }).first().waitFor({ timeout: 5_000 })
		if (await page.getByRole('dialog').count() > 0) return
		const toasts = page.locator('section[aria-live] > div')
		while (await toasts.count() > 0) await toasts.first().getByRole('button').click()
	}

	test('a normal user opening /channel gets the not-allowed state and no channel call', async () => {
		const user = await harness.ferry.createUser('chan-reader', ROLE.user)
		const opened = await harness.open('/channel', { as: { ...user, username: 'chan-reader', role: ROLE.user } })
		await opened.page.getByTestId('not-allowed').waitFor()
		expect(opened.paths.filter((path) => path.startsWith('/api/channel'))).toEqual([])
		await opened.close()
	}, 30_000)

	test('disables and enables a channel, edits priority and weight inline, and deletes after confirming', async () => {
		const id = await createChannel({ priority: 1, weight: 2 })
		const opened = await open('/channel')
		const { page } = opened
		// Test and edit are the row's buttons; enabling and disabling are in its menu.
		await row(page, id).getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '禁用', exact: true }).click()
		await toast(page, 'status', '已禁用')
		expect((await readChannel(id)).data.status).toBe(2)
		await row(page, id).getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '启用', exact: true }).click()
		await toast(page, 'status', '已启用')
		expect((await readChannel(id)).data.status).toBe(1)

		const name = `channel-${channelNumber}`
		await page.getByLabel(`${name} 的优先级`).fill('-1000')
		await page.getByLabel(`${name} 的优先级`).press('Enter')
		await toast(page, 'alert', '优先级不能小于 -999')
		expect(await page.getByLabel(`${name} 的优先级`).inputValue()).toBe('1')
		await page.getByLabel(`${name} 的优先级`).fill('-999')
		await page.getByLabel(`${name} 的优先级`).press('Enter')
		await toast(page, 'status', '保存成功')
		await page.getByLabel(`${name} 的权重`).fill('-4')
		await page.getByLabel(`${name} 的权重`).press('Enter')
		await toast(page, 'status', '保存成功')
		expect(await page.getByLabel(`${name} 的权重`).inputValue()).toBe('0')
		expect((await readChannel(id)).data).toMatchObject({ priority: -999, weight: 0 })

		await row(page, id).getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '删除' }).click()
		const confirm = page.getByRole('alertdialog')
		await confirm.getByText(`确定删除渠道 ${name} 吗？`).waitFor()
		await confirm.getByRole('button', { name: '删除' }).click()
		await toast(page, 'status', '删除成功')
		await row(page, id).waitFor({ state: 'detached' })
		expect((await readChannel(id)).success).toBe(false)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('copies a channel, key included, without sending the key from the browser', async () => {
		const id = await createChannel({ key: 'sk-copied-key' })
		const opened = await open('/channel?id_sort=true')
		const { page } = opened
		const copyRequest = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/channel/', { timeout: 5_000 })
		await row(page, id).getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '复制' }).click()
		const body = JSON.parse((await copyRequest).postData() ?? '{}')
		expect(body).toMatchObject({ copy_from: id, name: `channel-${channelNumber}` })
		expect(body.key).toBeUndefined()
		await toast(page, 'status', '渠道复制成功')
		const copies = (await harness.ferry.call('GET', `/api/channel/search?keyword=channel-${channelNumber}`, { as: harness.root })).body.data.items
		expect(copies).toHaveLength(2)
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('the tool buttons call their endpoints and show the answer: test, test with a model, balance, detect upstream, test all, update all', async () => {
		const upstream = startToolUpstream()
		const id = await createChannel({ base_url: upstream.url })
		const opened = await open('/channel')
		const { page, paths } = opened
		/** Runs `action` and waits for a request whose path and query start with `url`. */
		async function expectRequest(url: string, action: () => Promise<void>) {
			const request = page.waitForRequest((candidate) => new URL(candidate.url()).href.startsWith(`${harness.origin}${url}`), { timeout: 5_000 })
			await action()
			await request
		}

		try {
			await expectRequest(`/api/channel/test/${id}`, () => row(page, id).getByRole('button', { name: '测试', exact: true }).click())
			// A quick upstream's time is in milliseconds (never "0.00 s"), a slower one's in seconds.
			await toast(page, 'status', new RegExp(`渠道 channel-${channelNumber} 测试成功，耗时 (\\d+ 毫秒|\\d+\\.\\d\\d 秒)`))
			expect((await readChannel(id)).data.test_time).toBeGreaterThan(0)
			await expectRequest(`/api/channel/test/${id}?model=gpt-4o-mini`, async () => {
				await row(page, id).getByRole('button', { name: '选择测试模型' }).click()
				await page.getByRole('menuitem', { name: 'gpt-4o-mini' }).click()
			})
			await toast(page, 'status', '测试成功')
			// Never read: it says so, rather than $0.00.
			expect(await row(page, id).getByRole('button', { name: '更新余额' }).textContent()).toBe('未获取')
			await expectRequest(`/api/channel/update_balance/${id}/`, () => row(page, id).getByRole('button', { name: '更新余额' }).click())
			await toast(page, 'status', '余额已更新')
			await row(page, id).getByRole('button', { name: '更新余额' }).filter({ hasText: '$12.50' }).waitFor()
			expect((await readChannel(id)).data.balance).toBe(12.5)
			await expectRequest(`/api/channel/test_upstream/${id}`, async () => {
				await row(page, id).getByRole('button', { name: '更多操作' }).click()
				await page.getByRole('menuitem', { name: '检测上游' }).click()
			})
			const group = page.getByTestId('upstream-group')
			await group.first().waitFor()
			expect(await group.count()).toBe(1)
			expect(await group.first().innerText()).toContain('OpenAI: 3')
			await page.keyboard.press('Escape')
			await expectRequest('/api/channel/test', () => page.getByRole('button', { name: '测试所有渠道' }).click())
			await toast(page, 'status', '已在后台开始测试所有已启用和自动禁用的渠道')
			await expectRequest('/api/channel/update_balance', () => page.getByRole('button', { name: '更新所有已启用渠道余额' }).click())
			await toast(page, 'status', '已更新 1 个渠道的余额')
			expect(paths).toContain('/api/channel/test')
			expect(paths).toContain('/api/channel/update_balance')
			expectNoErrors(opened)
		} finally {
			await opened.close()
			upstream.stop()
		}
	}, 30_000)

	test('sync upstream models: the row menu lists added and removed models, applies the ticked ones; the toolbar checks all in English with each failure', async () => {
		const upstream = startFakeOpenAI({ models: ['gpt-4o', 'gpt-4o-mini', 'gpt-5-fresh'] })
		const id = await createChannel({ base_url: upstream.url, models: 'gpt-4o,gpt-4o-mini,old-gone' })
		const broken = await createChannel({ base_url: 'http://127.0.0.1:9' })
		const opened = await open('/channel')
		const { page } = opened
		try {
			await row(page, id).getByRole('button', { name: '更多操作' }).click()
			await page.getByRole('menuitem', { name: '同步上游模型' }).click()
			const section = page.getByTestId('model-sync-channel')
			await section.first().waitFor()
			expect(await section.count()).toBe(1)
			const added = page.getByRole('checkbox', { name: '上游新增 gpt-5-fresh' })
			const removed = page.getByRole('checkbox', { name: '上游已移除 old-gone' })
			expect(await added.getAttribute('data-state')).toBe('checked')
			expect(await removed.getAttribute('data-state')).toBe('unchecked')
			await removed.click()
			await page.getByRole('button', { name: '应用所选' }).click()
			await toast(page, 'status', '已同步 1 个渠道的模型')
			expect((await readChannel(id)).data.models).toBe('gpt-4o,gpt-4o-mini,gpt-5-fresh')
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
		const english = await open('/channel', 'en')
		try {
			await english.page.getByRole('button', { name: 'Sync upstream models' }).click()
			const failure = english.page.getByTestId('model-sync-channel').filter({ hasText: `#${broken}` })
			await failure.waitFor()
			const reason = await failure.getByTestId('model-sync-error').innerText()
			expect(reason).toContain('127.0.0.1:9')
			expect(reason).not.toMatch(/[\u4e00-\u9fff]/)
			// The channel just synced matches its upstream: it is not listed.
			expect(await english.page.getByTestId('model-sync-channel').filter({ hasText: `#${id}` }).count()).toBe(0)
		} finally {
			await english.close()
			await upstream.stop()
		}
	}, 30_000)

	test('a failing channel test shows the upstream\'s message', async () => {
		const upstream = startToolUpstream()
		const id = await createChannel({ base_url: upstream.url, models: 'no-such-model', test_model: 'no-such-model' })
		const opened = await open('/channel')
		try {
			await row(opened.page, id).getByRole('button', { name: '测试', exact: true }).click()
			await toast(opened.page, 'alert', '上游返回 404：The model no-such-model does not exist')
		} finally {
			await opened.close()
			upstream.stop()
		}
	}, 30_000)

	test('deletes disabled channels after confirming and fixes the database, each showing the count', async () => {
		const disabled = await createChannel()
		await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: disabled, status: 2 } })
		const opened = await open('/channel')
		const { page } = opened
		await page.getByRole('button', { name: '删除所有已禁用渠道' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
		await toast(page, 'status', '已删除 1 个已禁用渠道')
		expect((await readChannel(disabled)).success).toBe(false)
		// One channel loses its abilities: the fix says it repaired exactly that one, then that nothing is left.
		const broken = await createChannel()
		const { abilities } = harness.ferry.store.tables
		await harness.ferry.store.db.delete(abilities).where(eq(abilities.channelId, broken))
		await page.getByRole('button', { name: '修复数据库一致性' }).click()
		await toast(page, 'status', '已修复 1 个渠道')
		await page.getByRole('button', { name: '修复数据库一致性' }).click()
		await toast(page, 'status', '数据库一致，无需修复')
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('batch mode: asks for a selection, deletes the selected after confirming, sets a tag on the selected', async () => {
		const [first, second, third] = [await createChannel(), await createChannel(), await createChannel()]
		const opened = await open('/channel?id_sort=true')
		const { page } = opened
		await page.getByRole('switch', { name: '批量操作' }).click()
		await page.getByRole('button', { name: '删除所选渠道' }).click()
		await toast(page, 'alert', '请先选择要删除的渠道')
		await page.getByRole('button', { name: '批量设置标签' }).click()
		await toast(page, 'alert', '请先选择渠道')

		await row(page, first).getByRole('checkbox').click()
		await row(page, second).getByRole('checkbox').click()
		await page.getByRole('button', { name: '删除所选渠道' }).click()
		await page.getByRole('alertdialog').getByText('确定删除所选的 2 个渠道吗？').waitFor()
		await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
		await toast(page, 'status', '已删除 2 个渠道')
		expect((await readChannel(first)).success).toBe(false)

		await row(page, third).getByRole('checkbox').click()
		await page.getByRole('button', { name: '批量设置标签' }).click()
		const dialog = page.getByRole('dialog')
		await dialog.getByRole('button', { name: '确定' }).click()
		await toast(page, 'alert', '标签不能为空')
		await dialog.getByLabel('标签').fill('fleet')
		await dialog.getByRole('button', { name: '确定' }).click()
		await toast(page, 'status', '已为 1 个渠道设置标签')
		expect((await readChannel(third)).data.tag).toBe('fleet')
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('tag rows: the edit dialog validates, says when nothing changed, overwrites, and disables and enables the whole tag', async () => {
		const [north, south] = [await createChannel({ tag: 'harbour', type: CHANNEL_TYPE.openai }), await createChannel({ tag: 'harbour' })]
		const opened = await open('/channel?tag_mode=true')
		const { page } = opened
		const tagRow = page.locator('tr[data-row-key="tag:harbour"]')
		await tagRow.getByText('2 个渠道').waitFor()

		await tagRow.getByRole('button', { name: '编辑标签' }).click()
		const dialog = page.getByRole('dialog')
		await dialog.getByRole('button', { name: '保存' }).click()
		await toast(page, 'alert', '没有变更')
		await dialog.getByLabel('模型重定向').fill('{"gpt-4o": ')
		await dialog.getByRole('button', { name: '保存' }).click()
		await toast(page, 'alert', '模型映射必须是合法的 JSON 格式')
		await dialog.getByLabel('模型重定向').fill('{"gpt-4o": "gpt-4o-2024"}')
		await dialog.getByLabel('优先级').fill('1.5')
		await dialog.getByRole('button', { name: '保存' }).click()
		await toast(page, 'alert', '优先级必须是整数')
		await dialog.getByLabel('优先级').fill('5')
		await dialog.getByLabel('权重').fill('-1')
		await dialog.getByRole('button', { name: '保存' }).click()
		await toast(page, 'alert', '权重必须是非负整数')
		await dialog.getByLabel('权重').fill('4')
		await dialog.getByRole('button', { name: '保存' }).click()
		await toast(page, 'status', '已更新 2 个渠道')
		for (const id of [north, south]) expect((await readChannel(id)).data).toMatchObject({ priority: 5, weight: 4, model_mapping: '{"gpt-4o": "gpt-4o-2024"}', tag: 'harbour' })

		await tagRow.getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '禁用全部' }).click()
		await toast(page, 'status', '已更新 2 个渠道')
		expect((await readChannel(south)).data.status).toBe(2)
		await tagRow.getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '启用全部' }).click()
		await toast(page, 'status', '已更新 2 个渠道')
		expect((await readChannel(north)).data.status).toBe(1)

		await tagRow.getByRole('button', { name: '展开' }).click()
		await page.locator(`tr[data-row-key="${north}"]`).waitFor()
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('searches by keyword and remembers the id-sort choice across visits', async () => {
		await createChannel({ name: 'lighthouse-search' })
		const opened = await open('/channel')
		const { page } = opened
		await page.getByLabel('搜索渠道 ID、名称或 Base URL').fill('lighthouse')
		await page.getByRole('button', { name: '搜索' }).click()
		await page.waitForURL(/keyword=lighthouse/)
		await page.getByText('共 1 条').waitFor()
		await page.getByRole('switch', { name: 'ID 排序' }).click()
		await page.waitForURL(/id_sort=true/)
		expect(await page.evaluate(() => localStorage.getItem('channel-id-sort'))).toBe('true')
		await page.goto(`${harness.origin}/channel`)
		await page.waitForURL(/id_sort=true/)
		// The URL changes first; the list and the switch follow once the new search has loaded.
		await page.getByRole('switch', { name: 'ID 排序', checked: true }).waitFor({ timeout: 10_000 })
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)

	test('works in English: labels, confirmations and toasts', async () => {
		const id = await createChannel()
		const opened = await open('/channel', 'en')
		const { page } = opened
		await page.getByRole('button', { name: 'Test all channels' }).waitFor()
		await row(page, id).getByRole('button', { name: 'More actions' }).click()
		await page.getByRole('menuitem', { name: 'Disable', exact: true }).click()
		await toast(page, 'status', 'Disabled')
		await page.getByRole('switch', { name: 'Batch mode' }).click()
		await page.getByRole('button', { name: 'Delete selected channels' }).click()
		await toast(page, 'alert', 'Please select channels to delete first')
		await row(page, id).getByRole('button', { name: 'More actions' }).click()
		await page.getByRole('menuitem', { name: 'Delete' }).click()
		await page.getByRole('alertdialog').getByText(`Delete channel channel-${channelNumber}?`).waitFor()
		await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
		await toast(page, 'status', 'Deleted')
		expectNoErrors(opened)
		await opened.close()
	}, 30_000)
})
