/**
 * The usage log page in Chromium: entries written by real relay calls through a fake OpenAI
 * upstream, read by a user and an admin, filtered, expanded and cleaned up, in zh and en.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, startConsoleHarness } from '../helpers/browser'

const CHANNEL_NAME = 'harbour-upstream'
const USER_QUOTA = 10_000_000
const MOBILE_WIDTH = 390
const CONSUME_CALLS = 3
const PAGE_TIMEOUT_MS = 30_000

describe.skipIf(!browserExecutable)('the usage log page in a browser', () => {
	let harness: ConsoleHarness
	let alice: Caller & { username: string; role: number }
	let root: Caller & { username: string; role: number }

	async function waitForConsumeLogs(count: number) {
		const { logs } = harness.ferry.store.tables
		for (let attempt = 0; attempt < 200; attempt++) {
			const rows = await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))
			if (rows.length >= count) return
			await Bun.sleep(25)
		}
		throw new Error(`fewer than ${count} consume logs were written`)
	}

	const rows = (opened: OpenedPage) => opened.page.locator('tbody tr[data-row-key]')
	/** Rows of relayed calls; the admin's quota change for alice is an entry too. */
	const callRows = (opened: OpenedPage) => rows(opened).filter({ hasText: 'gpt-4o' })
	const countCallRows = (opened: OpenedPage, count: number) => opened.page.waitForFunction(
		(expected) => [...document.querySelectorAll('tbody tr[data-row-key]')].filter((row) => row.textContent?.includes('gpt-4o')).length === expected,
		count,
	)

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const upstream = harness.startUpstream({ promptTokens: 100, completionTokens: 20 })
		await harness.createChannel({ name: CHANNEL_NAME, base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o' })
		const aliceCaller = await harness.ferry.createUser('alice')
		alice = { ...aliceCaller, username: 'alice', role: ROLE.user }
		root = { ...harness.root, username: 'root', role: ROLE.root }
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: USER_QUOTA } })
		const aliceClient = harness.client((await harness.createToken({ name: 'alice-laptop' }, alice)).key)
		const rootClient = harness.client((await harness.createToken({ name: 'root-server' })).key)
		await aliceClient.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
		const stream = await aliceClient.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] })
		for await (const _chunk of stream) {
			// drain: the entry is written when the stream ends
		}
		await rootClient.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
		await waitForConsumeLogs(CONSUME_CALLS)
		// The first page request builds the console assets when ui/ changed; do it before the clocks start.
		await fetch(`${harness.origin}/login`)
	}, 90_000)

	afterAll(() => harness?.close(), 30_000)

	test('a user reads their own entries, expands one and sees the pay-as-you-go formula with its numbers', async () => {
		const opened = await harness.open('/log', { as: alice, language: 'zh' })
		const { page } = opened
		await expect(callRows(opened).count()).resolves.toBe(2)
		expect(await page.locator('tbody').textContent()).not.toContain('root-server')
		expect(await page.locator('th[data-column="channel"]').count()).toBe(0)
		expect(await page.getByLabel('渠道 ID').count()).toBe(0)
		expect(await page.getByRole('button', { name: '清除历史日志' }).count()).toBe(0)
		expect(await page.getByTestId('log-stats').textContent()).toContain('TPM：240')
		// The newest entry is the streamed one: a first-token time and the stream tag.
		const streamed = callRows(opened).first()
		expect(await streamed.getByTestId('first-token').count()).toBe(1)
		expect(await streamed.textContent()).toContain('流')
		expect(await streamed.getByTestId('use-time').getAttribute('class')).toContain('emerald')
		await streamed.getByRole('button', { name: '展开' }).click()
		const details = page.getByTestId('log-details')
		await details.waitFor()
		expect(await details.textContent()).toContain('首字时间')
		expect(await details.textContent()).not.toContain('使用渠道')
		// 13.5 quota before rounding; billed 14 (half away from zero), which is what the row says too.
		expect(await page.getByTestId('cost-formula').textContent()).toBe('分组倍率 1 × 模型倍率 0.075 × (提示 100 + 补全 20 × 补全倍率 4) = 13.5，计费 14 额度 = $0.000028')
		expect(await streamed.textContent()).toContain('$0.000028')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('an admin filters by model, user and type through the URL, and resets the filters', async () => {
		const opened = await harness.open('/log', { as: root, language: 'zh' })
		const { page } = opened
		await expect(callRows(opened).count()).resolves.toBe(CONSUME_CALLS)
		expect(await page.locator('th[data-column="channel"]').count()).toBe(1)
		expect(await page.locator('tbody').textContent()).toContain(CHANNEL_NAME)
		await page.getByLabel('模型名称').fill('gpt-4o')
		await page.getByRole('button', { name: '查询' }).click()
		await page.waitForURL(/model_name=gpt-4o(&|$)/)
		await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-row-key]').length === 1)
		expect(await rows(opened).first().textContent()).toContain('root-server')
		await page.getByLabel('模型名称').fill('')
		await page.getByLabel('用户名称').fill('alice')
		await page.getByRole('button', { name: '查询' }).click()
		await page.waitForURL(/username=alice/)
		await countCallRows(opened, 2)
		expect(await page.locator('tbody').textContent()).not.toContain('root-server')
		await page.getByLabel('类型').click()
		await page.getByRole('option', { name: '充值' }).click()
		await page.waitForURL(/type=1/)
		await page.getByText('这段时间没有符合条件的日志').waitFor()
		await page.getByRole('button', { name: '重置' }).click()
		await page.waitForURL((url) => !url.search.includes('type=') && !url.search.includes('username='))
		await countCallRows(opened, CONSUME_CALLS)
		expect(await page.getByLabel('用户名称').inputValue()).toBe('')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('in English an admin sees the channels a call tried and the billing formula', async () => {
		const opened = await harness.open('/log?model_name=gpt-4o', { as: root, language: 'en' })
		const { page } = opened
		expect(await page.getByRole('heading', { name: 'Usage logs' }).count()).toBe(1)
		expect(await page.locator('th[data-column="quota"]').textContent()).toBe('Cost')
		await callRows(opened).first().getByRole('button', { name: 'Expand' }).click()
		const details = await page.getByTestId('log-details').textContent()
		expect(details).toContain('Channels used')
		expect(details).toContain('Billing')
		expect(await page.getByTestId('cost-formula').textContent()).toMatch(/^group ratio 1 × model ratio [\d.]+ × \(prompt 100 \+ completion 20 × completion ratio [\d.]+\) = [\d.]+, charged \d+ quota = \$[\d.]+$/)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the page fits a 390 px phone without sideways scrolling', async () => {
		const opened = await harness.open('/log', { as: alice, language: 'zh', width: MOBILE_WIDTH })
		const { page } = opened
		await expect(callRows(opened).count()).resolves.toBe(2)
		await harness.screenshot(page, 'logs-mobile')
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE_WIDTH)
		expect(await page.getByRole('button', { name: '查询' }).isVisible()).toBe(true)
		expect(await page.locator('th[data-column="prompt_tokens"]').isVisible()).toBe(false)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('a call\'s session affinity shows to its owner; the keys it tried and the key that answered only to an admin (zh 1400 px, en 390 px)', async () => {
		// Written as the relay writes them; the model keeps these entries out of the other tests' rows.
		const { logs } = harness.ferry.store.tables
		const entry = (other: Record<string, unknown>, requestId: string) => ({
			userId: alice.userId, username: 'alice', type: LOG_TYPE.consume, modelName: 'claude-pool', channelId: 3, channelName: CHANNEL_NAME,
			createdAt: Math.floor(Date.now() / 1000), requestId, other: JSON.stringify({ group_ratio: 1, model_ratio: 1, ...other }),
		})
		await harness.ferry.store.db.insert(logs).values([
			entry({
				affinity: { state: 'moved', reason: 'cooling', source: 'prompt_cache_key' },
				admin_info: { use_channel: [3], key_index: 2, attempts: [{ channel: 3, key: 1, outcome: 429 }, { channel: 3, key: 2, outcome: 'ok' }] },
			}, 'req-moved'),
			entry({
				affinity: { state: 'hit', source: 'metadata.user_id' },
				admin_info: { use_channel: [4, 3], key_index: 0, attempts: [{ channel: 4, key: 0, outcome: 'timeout' }, { channel: 4, key: 1, outcome: 'connection' }, { channel: 3, key: 0, outcome: 'ok' }] },
			}, 'req-hit'),
		])
		const expand = async (opened: OpenedPage, requestId: string, label: string) => {
			const row = rows(opened).filter({ hasText: 'claude-pool' }).nth(requestId === 'req-hit' ? 0 : 1)
			await row.getByRole('button', { name: label }).click()
			const details = opened.page.getByTestId('log-details').filter({ hasText: requestId })
			await details.waitFor()
			return details
		}

		const owner = await harness.open('/log?model_name=claude-pool', { as: alice, language: 'zh', width: 1400 })
		const moved = await expand(owner, 'req-moved', '展开')
		expect(await moved.getByTestId('log-affinity').textContent()).toBe('迁移：原密钥冷却中（prompt_cache_key）')
		expect(await moved.getByTestId('log-attempts').count()).toBe(0)
		expect(await moved.textContent()).not.toContain('使用密钥')
		const hit = await expand(owner, 'req-hit', '展开')
		expect(await hit.getByTestId('log-affinity').textContent()).toBe('命中（metadata.user_id）')
		expectNoErrors(owner)
		await owner.close()

		const admin = await harness.open('/log?model_name=claude-pool', { as: root, language: 'en', width: MOBILE_WIDTH })
		const adminMoved = await expand(admin, 'req-moved', 'Expand')
		expect(await adminMoved.getByTestId('log-affinity').textContent()).toBe('moved: its key was cooling down (prompt_cache_key)')
		expect(await adminMoved.getByTestId('log-attempts').getByRole('listitem').allTextContents()).toEqual(['channel 3 key #1 → 429', 'channel 3 key #2 → ok'])
		expect(await adminMoved.textContent()).toContain('Key used#2')
		const adminHit = await expand(admin, 'req-hit', 'Expand')
		expect(await adminHit.getByTestId('log-affinity').textContent()).toBe('hit (metadata.user_id)')
		expect(await adminHit.getByTestId('log-attempts').getByRole('listitem').allTextContents()).toEqual(['channel 4 key #0 → timeout', 'channel 4 key #1 → connection failed', 'channel 3 key #0 → ok'])
		expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE_WIDTH)
		expectNoErrors(admin)
		await admin.close()

		const adminZh = await harness.open('/log?model_name=claude-pool', { as: root, language: 'zh', width: 1400 })
		const zhHit = await expand(adminZh, 'req-hit', '展开')
		expect(await zhHit.getByTestId('log-attempts').getByRole('listitem').allTextContents()).toEqual(['渠道 4 密钥 #0 → 超时', '渠道 4 密钥 #1 → 连接失败', '渠道 3 密钥 #0 → 正常'])
		expect(await zhHit.textContent()).toContain('使用密钥#0')
		expectNoErrors(adminZh)
		await adminZh.close()
	}, PAGE_TIMEOUT_MS)

	test('an admin cleans up old entries after a confirmation, with the time required and a failure explained', async () => {
		const opened = await harness.open('/log', { as: root, language: 'zh' })
		const { page } = opened
		await harness.screenshot(page, 'logs-admin')
		const time = page.getByLabel('清除此时间之前的日志')
		// Chromium leaves out the seconds of a datetime-local value when they are zero.
		expect(await time.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/)
		await time.fill('')
		await page.getByRole('button', { name: '清除历史日志' }).click()
		await page.getByRole('alert').filter({ hasText: '请选择日志时间' }).waitFor()
		expect(await page.getByRole('alertdialog').count()).toBe(0)

		await time.fill('1960-01-01T00:00:00')
		await page.getByRole('button', { name: '清除历史日志' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: '清除' }).click()
		await page.getByRole('alert').filter({ hasText: '日志清理失败：请选择日志时间' }).waitFor()
		await page.getByRole('alertdialog').waitFor({ state: 'detached' })

		const future = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 19)
		await time.fill(future)
		await page.getByRole('button', { name: '清除历史日志' }).click()
		const dialog = page.getByRole('alertdialog').filter({ hasText: future.replace('T', ' ') })
		await dialog.waitFor()
		await dialog.getByRole('button', { name: '取消' }).click()
		await page.getByRole('alertdialog').waitFor({ state: 'detached' })
		expect(await callRows(opened).count()).toBe(CONSUME_CALLS)

		await page.getByRole('button', { name: '清除历史日志' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: '清除' }).click()
		await page.getByRole('status').filter({ hasText: /\d+ 条日志已清理！/ }).waitFor()
		await page.waitForFunction(() => !document.querySelector('tbody')?.textContent?.includes('root-server'))
		const { logs } = harness.ferry.store.tables
		expect(await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))).toEqual([])
		// The refused cleanup is the one failed request, which Chromium reports on the console.
		expect(opened.consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
		expect(opened.pageErrors).toEqual([])
		await opened.close()
	}, PAGE_TIMEOUT_MS)
})
