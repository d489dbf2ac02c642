/**
 * Multi-key channels in Chromium: created in the editor from a key list, their keys panel (index,
 * hint, status, last error, response and test time; never a key), testing one key and every key
 * against a fake OpenAI upstream that refuses one key, disabling, enabling, deleting and adding keys
 * with the server's refusals, and the list's key counts; in zh and en, at 1400 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Locator, Page } from 'playwright-core'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { runHealthRound } from '@/api/channels/tools/health'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, screenshotDirectory, startConsoleHarness } from '../helpers/browser'

const KEYS = ['sk-pool-zero-0000000000000000aaaa', 'sk-pool-refused-1111111111111bbbb', 'sk-pool-two-22222222222222222cccc']
const REFUSED = KEYS[1]!
const HINTS = ['…aaaa', '…bbbb', '…cccc']
const STEP_TIMEOUT = 10_000

/** OpenAI's chat and model list, answering 401 `invalid_api_key` to the refused key (and any key it does not know), as OpenAI does. */
function fakeProvider() {
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const path = new URL(request.url).pathname
			const key = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '')
			await request.text()
			if (key === REFUSED || !KEYS.includes(key) && !key.startsWith('sk-added-')) {
				return Response.json({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, { status: 401 })
			}
			if (path.endsWith('/models')) return Response.json({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 1, owned_by: 'openai' }] })
			return Response.json({
				id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini',
				choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
				usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
			})
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

describe.skipIf(!browserExecutable)('multi-key channels in a browser', () => {
	let harness: ConsoleHarness
	let provider: ReturnType<typeof fakeProvider>

	beforeAll(async () => {
		harness = await startConsoleHarness()
		provider = fakeProvider()
		// The first page request builds the console assets when ui/ changed.
		await fetch(`${harness.origin}/login`)
	}, 90_000)
	afterAll(async () => {
		provider?.stop()
		await harness?.close()
	})

	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })
	const toast = (page: Page, kind: 'success' | 'error' | 'info', text: string) =>
		page.locator(`[data-kind="${kind}"]`).filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })
	const keyRows = (page: Page) => page.getByTestId('channel-key')
	const keyRow = (page: Page, index: number) => page.locator(`[data-testid="channel-key"][data-key-index="${index}"]`)
	const createPool = (name: string, keys: readonly string[] = KEYS) =>
		harness.createChannel({ name, mode: 'multi_key', key: keys.join('\n'), base_url: provider.url, models: 'gpt-4o-mini' })

	async function storedKeys(channelId: number) {
		const { store } = harness.ferry
		const { channelKeys } = store.tables
		return store.db.select().from(channelKeys).where(eq(channelKeys.channelId, channelId)).orderBy(channelKeys.position)
	}

	/** No key, whole or in part beyond its hint, anywhere in the page's HTML (hydration data included). */
	async function expectNoKeyIn(page: Page) {
		const html = await page.content()
		for (const key of KEYS) expect(html).not.toContain(key.slice(0, 16))
	}

	/** The keys panel alone (docs/screenshots/console keeps a copy), once the toasts are dismissed. */
	async function screenshotPanel(page: Page, name: string) {
		await page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('section[aria-live] button').forEach((button) => button.click()))
		const panel: Locator = page.getByRole('region', { name: /^(密钥池|Key pool)$/ })
		// A window tall enough for the panel, so that the sticky header is not stitched over it; the
		// save bar stays at the window's bottom, over whatever part of the panel is there.
		const viewport = page.viewportSize()!
		await page.setViewportSize({ width: viewport.width, height: Math.ceil((await panel.boundingBox())!.height) + 400 })
		await panel.evaluate((element) => element.scrollIntoView({ block: 'center' }))
		const actions = page.getByTestId('editor-actions')
		await actions.evaluate((element) => { element.style.visibility = 'hidden' })
		mkdirSync(screenshotDirectory, { recursive: true })
		await panel.screenshot({ path: join(screenshotDirectory, `${name}.png`) })
		await actions.evaluate((element) => { element.style.visibility = '' })
		await page.setViewportSize(viewport)
	}

	async function withPage(path: string, options: Parameters<ConsoleHarness['open']>[1], run: (opened: OpenedPage) => Promise<void>) {
		const opened = await harness.open(path, { as: asRoot(), ...options })
		try {
			await run(opened)
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}

	const creations = [
		{
			language: 'zh', width: 1400, theme: 'light', name: 'pool-zh',
			labels: { name: '名称', mode: '多密钥渠道', keys: '密钥列表', baseUrl: '代理地址', custom: '自定义模型名称', fill: '填入', pick: '密钥选择方式', polling: '依次轮流', save: '保存' },
			texts: { created: '已创建 1 个渠道', duplicates: '已忽略 1 个重复的密钥', enabled: '已启用', untested: '未测试' },
		},
		{
			language: 'en', width: 390, theme: 'dark', name: 'pool-en',
			labels: { name: 'Name', mode: 'Multi-key channel', keys: 'Keys', baseUrl: 'Base URL', custom: 'Custom model names', fill: 'Add', pick: 'Key selection', polling: 'In turn (polling)', save: 'Save' },
			texts: { created: 'Created 1 channel', duplicates: '1 duplicate key left out', enabled: 'Enabled', untested: 'Not tested' },
		},
	] as const

	for (const { language, width, theme, name, labels, texts } of creations) {
		test(`creating a multi-key channel of three keys opens its keys panel: three rows by index and hint, never a key, the repeat left out (${language}, ${width} px)`, async () => {
			await withPage('/channel/add', { language, width, theme }, async ({ page }) => {
				await page.getByLabel(labels.name, { exact: true }).fill(name)
				await page.getByLabel(labels.mode, { exact: true }).click()
				await page.getByLabel(labels.keys, { exact: true }).fill(`${KEYS.join('\n')}\n${KEYS[0]}\n`)
				await page.getByLabel(labels.baseUrl, { exact: true }).fill(provider.url)
				await page.getByLabel(labels.custom, { exact: true }).fill('gpt-4o-mini')
				await page.getByRole('button', { name: labels.fill, exact: true }).click()
				await page.getByLabel(labels.pick, { exact: true }).click()
				await page.getByRole('option', { name: labels.polling, exact: true }).click()
				await page.getByRole('button', { name: labels.save, exact: true }).click()
				await toast(page, 'success', texts.created)
				await toast(page, 'info', texts.duplicates)
				await page.waitForURL(/\/channel\/edit\/\d+$/)
				const id = Number(new URL(page.url()).pathname.split('/').at(-1))
				await keyRows(page).first().waitFor()
				expect(await keyRows(page).count()).toBe(3)
				expect(await page.getByTestId('key-hint').allTextContents()).toEqual(HINTS)
				for (const index of [0, 1, 2]) {
					const row = keyRow(page, index)
					expect(await row.textContent()).toContain(`#${index}`)
					expect(await row.textContent()).toContain(texts.enabled)
					expect(await row.textContent()).toContain(texts.untested)
				}
				await expectNoKeyIn(page)
				// The pool's way of picking a key is kept and shown again.
				expect(await page.getByLabel(labels.pick, { exact: true }).textContent()).toBe(labels.polling)
				const { channels } = harness.ferry.store.tables
				const [saved] = await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id))
				expect(saved).toMatchObject({ name, mode: 'multi_key', multiKeyMode: 'polling' })
				expect((await storedKeys(id)).map((row) => harness.ferry.dependencies.secrets.decrypt(row.key))).toEqual(KEYS)
				await harness.screenshot(page, `channel-keys-${width}-${language}-${theme}`)
			})
		}, 60_000)
	}

	test('testing one key shows the upstream\'s refusal on that key\'s row; testing every key counts it (en, 390 px)', async () => {
		const id = await createPool('pool-tests')
		await withPage(`/channel/edit/${id}`, { language: 'en', width: 390, theme: 'dark' }, async ({ page }) => {
			await page.getByRole('button', { name: 'Test key #1', exact: true }).click()
			await toast(page, 'error', 'upstream answered 401: Incorrect API key provided: ***.')
			const refused = keyRow(page, 1).getByTestId('key-last-error')
			await refused.waitFor()
			expect(await refused.textContent()).toBe('Last error: upstream answered 401: Incorrect API key provided: ***.')
			expect(await keyRow(page, 1).textContent()).toContain('Tested at')
			expect(await keyRow(page, 0).getByTestId('key-last-error').count()).toBe(0)

			await page.getByRole('button', { name: 'Test key #2', exact: true }).click()
			await toast(page, 'success', 'Key #2 tested successfully in')
			await page.getByRole('button', { name: 'Test all keys', exact: true }).click()
			await toast(page, 'error', '3 keys tested, 1 failed, 0 still being tested')
			await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="channel-key"]')].every((row) => row.textContent?.includes('Tested at')))
			expect(await page.getByTestId('key-last-error').count()).toBe(1)
			await expectNoKeyIn(page)
			await screenshotPanel(page, 'channel-keys-panel-390-en-dark')
		})
	}, 60_000)

	test('testing one key in Chinese shows the refusal in Chinese on its row (zh, 1400 px)', async () => {
		const id = await createPool('pool-tests-zh')
		await withPage(`/channel/edit/${id}`, { language: 'zh', width: 1400 }, async ({ page }) => {
			await page.getByRole('button', { name: '测试密钥 #1', exact: true }).click()
			await toast(page, 'error', '上游返回 401：Incorrect API key provided: ***.')
			await keyRow(page, 1).getByTestId('key-last-error').waitFor()
			expect(await keyRow(page, 1).getByTestId('key-last-error').textContent()).toBe('最近错误：上游返回 401：Incorrect API key provided: ***.')
		})
	}, 60_000)

	test('disabling, enabling and deleting keys, with the server\'s refusals of the last enabled key and the last key (zh, 1400 px)', async () => {
		const id = await createPool('pool-manage')
		const statuses = async () => (await storedKeys(id)).map((row) => [row.position, row.status])
		await withPage(`/channel/edit/${id}`, { language: 'zh', width: 1400 }, async ({ page }) => {
			await page.getByRole('button', { name: '禁用密钥 #0', exact: true }).click()
			await toast(page, 'success', '密钥已禁用')
			await keyRow(page, 0).getByText('手动禁用', { exact: true }).waitFor()
			expect(await keyRow(page, 0).getByTestId('key-status-reason').textContent()).toContain('原因：')
			await page.getByRole('button', { name: '禁用密钥 #1', exact: true }).click()
			await toast(page, 'success', '密钥已禁用')
			await page.getByRole('button', { name: '禁用密钥 #2', exact: true }).click()
			await toast(page, 'error', '这是已启用渠道的最后一个启用的密钥：请先启用另一个密钥，或禁用渠道')
			expect(await statuses()).toEqual([[0, CHANNEL_STATUS.manuallyDisabled], [1, CHANNEL_STATUS.manuallyDisabled], [2, CHANNEL_STATUS.enabled]])

			await page.getByRole('button', { name: '启用密钥 #0', exact: true }).click()
			await toast(page, 'success', '密钥已启用')
			await keyRow(page, 0).getByText('已启用', { exact: true }).waitFor()
			// The filter lists the keys of one status.
			await page.getByRole('button', { name: /^手动禁用/ }).click()
			expect(await keyRows(page).count()).toBe(1)
			await page.getByRole('button', { name: /^全部/ }).click()
			expect(await keyRows(page).count()).toBe(3)

			await page.getByRole('button', { name: '删除密钥 #1', exact: true }).click()
			await page.getByRole('alertdialog').getByRole('button', { name: '删除', exact: true }).click()
			await toast(page, 'success', '密钥已删除')
			await page.waitForFunction(() => document.querySelectorAll('[data-testid="channel-key"]').length === 2)
			await page.getByRole('button', { name: '删除密钥 #2', exact: true }).click()
			await page.getByRole('alertdialog').getByRole('button', { name: '删除', exact: true }).click()
			await toast(page, 'success', '密钥已删除')
			await page.getByRole('button', { name: '删除密钥 #0', exact: true }).click()
			await page.getByRole('alertdialog').getByRole('button', { name: '删除', exact: true }).click()
			await toast(page, 'error', '渠道至少要有一个密钥：要停用它，请禁用或删除渠道')
			expect(await statuses()).toEqual([[0, CHANNEL_STATUS.enabled]])
			expect(await keyRows(page).count()).toBe(1)
		})
	}, 60_000)

	test('adding keys says how many were added and how many repeats were left out; the new key gets the next index; the way of picking a key saves with the channel (en, 1400 px)', async () => {
		const id = await createPool('pool-add', KEYS.slice(0, 2))
		await withPage(`/channel/edit/${id}`, { language: 'en', width: 1400 }, async ({ page }) => {
			await page.getByRole('button', { name: 'Add keys', exact: true }).click()
			await toast(page, 'error', 'Fill in the keys to add')
			await page.getByLabel('Add keys', { exact: true }).fill(`sk-added-key-0000000000000dddd\n${KEYS[0]}`)
			await page.getByRole('button', { name: 'Add keys', exact: true }).click()
			await toast(page, 'success', '1 key added, 1 duplicate left out')
			await keyRow(page, 2).waitFor()
			expect(await page.getByTestId('key-hint').allTextContents()).toEqual(['…aaaa', '…bbbb', '…dddd'])
			expect(await page.getByLabel('Add keys', { exact: true }).inputValue()).toBe('')
			expect(await page.content()).not.toContain('sk-added-key')
			// The channel's own fields save as for any channel, with its way of picking a key and no key.
			await page.getByLabel('Key selection', { exact: true }).click()
			await page.getByRole('option', { name: 'In turn (polling)', exact: true }).click()
			await page.getByRole('button', { name: 'Save', exact: true }).click()
			await toast(page, 'success', 'Channel updated')
			await page.waitForURL(`${harness.origin}/channel`)
			const { channels } = harness.ferry.store.tables
			const [saved] = await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id))
			expect(saved).toMatchObject({ multiKeyMode: 'polling', mode: 'multi_key' })
			expect((await storedKeys(id)).map((row) => harness.ferry.dependencies.secrets.decrypt(row.key))).toEqual([...KEYS.slice(0, 2), 'sk-added-key-0000000000000dddd'])
		})
	}, 60_000)

	test('a key the health check auto-disabled shows why and when; the list shows the pool\'s key counts, by status in a tooltip (zh 1400 px, en 390 px)', async () => {
		const id = await createPool('pool-health')
		const setKey = (index: number, status: number) => harness.ferry.call('PUT', `/api/channel/${id}/keys/${index}`, { as: harness.root, body: { status } })
		// The health round tests a pool with its first enabled key: with #0 set aside, the refused #1.
		await setKey(0, CHANNEL_STATUS.manuallyDisabled)
		await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'true')
		try {
			await runHealthRound(harness.ferry.dependencies)
		} finally {
			await harness.ferry.dependencies.options.set('AutomaticDisableChannelEnabled', 'false')
		}
		await setKey(0, CHANNEL_STATUS.enabled)
		// Tested since: each key has its time and #1 its error too.
		await harness.ferry.call('GET', `/api/channel/test/${id}?keys=all`, { as: harness.root })
		expect((await storedKeys(id)).map((row) => row.status)).toEqual([CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled, CHANNEL_STATUS.enabled])

		await withPage(`/channel/edit/${id}`, { language: 'zh', width: 1400 }, async ({ page }) => {
			await keyRow(page, 1).getByText('已自动禁用', { exact: true }).waitFor()
			const reason = await keyRow(page, 1).getByTestId('key-status-reason').textContent()
			expect(reason).toContain('原因：')
			expect(reason).toContain('上游返回 401')
			expect(reason).toMatch(/时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
			await screenshotPanel(page, 'channel-keys-panel-1400-zh-light')
		})
		await withPage(`/channel?keyword=pool-health`, { language: 'zh', width: 1400 }, async ({ page }) => {
			const counts = page.locator('tbody tr').filter({ hasText: 'pool-health' }).locator('td[data-column="status"]').getByTestId('key-counts')
			expect(await counts.textContent()).toBe('2/3')
			await counts.hover()
			await page.getByRole('tooltip').filter({ hasText: '3 个密钥：2 个启用，1 个自动禁用，0 个手动禁用' }).first().waitFor({ timeout: STEP_TIMEOUT })
		})
		await withPage(`/channel?keyword=pool-health`, { language: 'en', width: 390, theme: 'dark' }, async ({ page }) => {
			const counts = page.getByTestId('phone-summary').getByTestId('key-counts')
			expect(await counts.isVisible()).toBe(true)
			expect(await counts.textContent()).toBe('2/3')
			expect(await counts.getAttribute('aria-label')).toBe('3 keys: 2 enabled, 1 auto-disabled, 0 disabled by hand')
		})
	}, 90_000)
})
