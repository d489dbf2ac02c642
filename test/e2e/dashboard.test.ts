/**
 * The usage dashboard in Chromium (issue 6 "Done when"): real calls through the relay with the
 * official OpenAI SDK reach `/detail` within one export interval, for the caller and for an admin
 * looking at all users or one; in light and dark themes, in English, never a console error.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { LOG_TYPE } from '@shared/log'
import { formatDollars, renderQuota } from '@shared/quota-display'
import { ROLE } from '@shared/user'
import type { ExportSummary } from '@/api/data/export'
import { startDataExport, type DataExportSchedule } from '@/api/data/schedule'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'
import { eventually } from '../helpers/eventually'

const EXPORT_WORKER_URL = new URL('../../src/workers/data-export.ts', import.meta.url)

const SUITE_TIMEOUT = 60_000
const STEP_TIMEOUT = 10_000
/** The test's export interval: the option's minutes shortened for the test. */
const EXPORT_INTERVAL_MS = 1_000
const CALLS = 3

type Visitor = Caller & { username: string; role: number }

describe.skipIf(!browserExecutable)('the usage dashboard in a browser', () => {
	let harness: ConsoleHarness
	let schedule: DataExportSchedule
	const runs: ExportSummary[] = []
	let sailor: Visitor
	let admin: Visitor
	/** What the consume logs say the sailor's calls cost. */
	let spent = 0
	let tokens = 0
	/** The hours the sailor's calls fell in (one, unless the test straddles the hour). */
	let hours = 0

	async function createVisitor(username: string, role: number): Promise<Visitor> {
		const password = 'password123'
		const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username, password, display_name: username } })
		if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`)
		if (role >= ROLE.admin) await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: created.body.data.id, action: 'promote' } })
		return { ...(await harness.ferry.login(username, password)), username, role }
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		schedule = startDataExport(harness.ferry.dependencies, {
			workerUrl: new URL('../../src/workers/schedule-clock.ts', import.meta.url), holder: 'e2e/1', exportWorkerUrl: EXPORT_WORKER_URL,
			intervalMs: EXPORT_INTERVAL_MS, tickMs: 50, onRun: (summary) => runs.push(summary),
		})
		const upstream = harness.startUpstream({ promptTokens: 120, completionTokens: 30 })
		await harness.createChannel({ name: 'harbour', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' })
		sailor = await createVisitor('sailor', ROLE.user)
		admin = await createVisitor('bosun', ROLE.admin)
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: sailor.userId, quota: 50_000_000 } })
	}, SUITE_TIMEOUT)

	afterAll(async () => {
		await schedule?.stop()
		await harness?.close()
	})

	/** The sailor's consume logs, once all `count` are written. */
	async function consumeLogs(count: number) {
		const { logs } = harness.ferry.store.tables
		return eventually(async () => {
			const rows = await harness.ferry.store.db.select().from(logs).where(eq(logs.userId, sailor.userId))
			const consumed = rows.filter((row) => row.type === LOG_TYPE.consume)
			return consumed.length >= count && consumed
		}, STEP_TIMEOUT)
	}

	const totalOf = async (page: Page, metric: string) => Number(await page.getByTestId('usage-totals').locator(`[data-metric="${metric}"]`).getAttribute('data-value'))

	test('calls made with the SDK show on /detail within one export interval, with their calls, tokens and cost by model', async () => {
		const { key } = await harness.createToken({ name: 'sailor-laptop' }, sailor)
		const client = harness.client(key)
		for (let call = 0; call < CALLS; call++) {
			const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Ahoy ${call}` }] })
			expect(reply.choices[0]!.message.content).toContain('Hello')
		}
		const logs = await consumeLogs(CALLS)
		spent = logs.reduce((sum, row) => sum + row.quota, 0)
		tokens = logs.reduce((sum, row) => sum + row.promptTokens + row.completionTokens, 0)
		expect(spent).toBeGreaterThan(0)
		expect(tokens).toBe(CALLS * 150)
		hours = new Set(logs.map((row) => row.createdAt - (row.createdAt % 3600))).size

		// The next export, which comes within one interval, carries the calls.
		const runsBefore = runs.length
		await eventually(async () => runs.length > runsBefore, EXPORT_INTERVAL_MS + STEP_TIMEOUT)

		const opened = await harness.open('/detail', { as: sailor })
		const { page } = opened
		await page.getByRole('heading', { name: '数据看板' }).waitFor({ timeout: STEP_TIMEOUT })
		await page.getByText('每 5 分钟汇总一次，最近的调用直接取自使用日志').waitFor()
		expect(await totalOf(page, 'count')).toBe(CALLS)
		expect(await totalOf(page, 'token_used')).toBe(tokens)
		expect(await totalOf(page, 'quota')).toBe(spent)
		// Quota shows as money, as the status says (500 000 quota a dollar), a sub-cent total to two significant digits.
		expect(await page.getByTestId('usage-totals').locator('[data-metric="quota"] dd').textContent()).toBe(formatDollars(spent / 500_000))

		const legend = page.getByTestId('share-chart').locator('[data-model="gpt-4o-mini"]')
		expect(await legend.getAttribute('data-value')).toBe(String(spent))
		await expect(legend.textContent()).resolves.toContain('100.0%')
		expect(await page.getByTestId('stacked-bar-chart').locator('rect[data-series]').count()).toBe(hours)
		await page.getByRole('img', { name: '消耗额度：按时间（每小时）' }).waitFor()

		// The metric switch redraws the charts for calls; the table gives the exact numbers.
		await page.getByRole('button', { name: '调用次数', exact: true }).click()
		await page.getByRole('img', { name: '调用次数：按模型' }).waitFor()
		expect(await legend.getAttribute('data-value')).toBe(String(CALLS))
		await page.getByText('查看数据表').click()
		const rows = page.getByTestId('usage-table').locator('tbody tr')
		expect(await rows.count()).toBe(hours)
		const counts = await rows.evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-count'))))
		expect(counts.reduce((sum, count) => sum + count, 0)).toBe(CALLS)
		expectNoErrors(opened)
		await harness.screenshot(page, 'dashboard-user')
		await opened.close()
	}, SUITE_TIMEOUT)

	test('an admin sees every user by default and one user through the username filter, with granularity day', async () => {
		// Root makes a call too, so "all users" differs from the sailor alone.
		const { key } = await harness.createToken({ name: 'root-server' })
		await harness.client(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
		const runsBefore = runs.length
		await eventually(async () => runs.length > runsBefore, EXPORT_INTERVAL_MS + STEP_TIMEOUT)
		await eventually(async () => {
			const answer = await harness.ferry.call('GET', '/api/data/', { as: admin })
			return answer.body.data.reduce((sum: number, row: { count: number }) => sum + row.count, 0) === CALLS + 1
		}, EXPORT_INTERVAL_MS + STEP_TIMEOUT)

		const opened = await harness.open('/detail', { as: admin, theme: 'dark' })
		const { page } = opened
		await page.getByRole('heading', { name: '数据看板' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await totalOf(page, 'count')).toBe(CALLS + 1)

		await page.getByLabel('用户名称').fill('sailor')
		await page.getByLabel('时间粒度').click()
		await page.getByRole('option', { name: '天' }).click()
		await page.getByRole('button', { name: '查询' }).click()
		await page.waitForURL(/username=sailor/, { timeout: STEP_TIMEOUT })
		await page.getByRole('img', { name: '消耗额度：按时间（每天）' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await totalOf(page, 'count')).toBe(CALLS)
		expect(await totalOf(page, 'quota')).toBe(spent)
		expectNoErrors(opened)
		await harness.screenshot(page, 'dashboard-admin-dark')
		await opened.close()
	}, SUITE_TIMEOUT)

	test('reads in English', async () => {
		const opened = await harness.open('/detail', { as: sailor, language: 'en' })
		const { page } = opened
		await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: STEP_TIMEOUT })
		await page.getByText('Summed up every 5 minutes; the latest calls come straight from the usage log').waitFor()
		await page.getByRole('img', { name: 'Quota used over time (per hour)' }).waitFor()
		expect(await totalOf(page, 'count')).toBe(CALLS)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	/** A fixed past range with buckets written straight into quota_data (the export's table), so the numbers are known. */
	const HOUR = 3600
	const PAST_HOUR = 1_740_000_000 - (1_740_000_000 % HOUR)
	const LONG_RANGE_START = PAST_HOUR + 10 * 24 * HOUR
	const LONG_RANGE_HOURS = 120
	let bucketsWritten = false

	async function writePastBuckets() {
		if (bucketsWritten) return
		bucketsWritten = true
		const bucket = (userId: number, username: string, modelName: string, hour: number, count: number, quota: number) =>
			({ userId, username, modelName, createdAt: PAST_HOUR + hour * HOUR, count, quota, tokenUsed: count * 100 })
		const { store } = harness.ferry
		await store.db.insert(store.tables.quotaData).values([
			bucket(9001, 'ahab', 'gpt-4o-mini', 0, 5, 500_000),
			bucket(9002, 'ishmael', 'claude-3-haiku', 1, 2, 2_000_000),
			bucket(9003, 'queequeg', 'gemini-flash', 2, 1, 100_000),
			bucket(9001, 'ahab', 'claude-3-haiku', 2, 4, 300_000),
			bucket(sailor.userId, 'sailor', 'gemini-flash', 1, 1, 50_000),
		])
		// A long range: one bucket in each of LONG_RANGE_HOURS hours.
		await store.db.insert(store.tables.quotaData).values(Array.from({ length: LONG_RANGE_HOURS }, (_, hour) =>
			({ userId: 9001, username: 'ahab', modelName: 'gpt-4o-mini', createdAt: LONG_RANGE_START + hour * HOUR, count: 1 + (hour % 7), quota: 1000, tokenUsed: 10 })))
	}

	const pastRange = `start_timestamp=${PAST_HOUR - 60}&end_timestamp=${PAST_HOUR + 4 * HOUR}&granularity=hour`
	const names = (page: Page, list: string) => page.getByTestId(list).locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-name')))

	test('admins see the range\'s top models and top users by the chosen metric; a user sees only the top models', async () => {
		await writePastBuckets()
		const opened = await harness.open(`/detail?${pastRange}`, { as: admin })
		const { page } = opened
		await page.getByTestId('top-models').waitFor({ timeout: STEP_TIMEOUT })
		expect(await names(page, 'top-models')).toEqual(['claude-3-haiku', 'gpt-4o-mini', 'gemini-flash'])
		expect(await names(page, 'top-users')).toEqual(['ishmael', 'ahab', 'queequeg', 'sailor'])
		expect(await page.getByTestId('top-users').locator('li').first().textContent()).toContain(formatDollars(4))
		await page.getByRole('button', { name: '调用次数', exact: true }).click()
		await page.getByRole('heading', { name: '用户排行（按调用次数）' }).waitFor()
		expect(await names(page, 'top-users')).toEqual(['ahab', 'ishmael', 'queequeg', 'sailor'])
		expectNoErrors(opened)
		await opened.close()

		const mine = await harness.open(`/detail?${pastRange}`, { as: sailor })
		await mine.page.getByTestId('top-models').waitFor({ timeout: STEP_TIMEOUT })
		expect(await names(mine.page, 'top-models')).toEqual(['gemini-flash'])
		expect(await mine.page.getByTestId('top-users').count()).toBe(0)
		expectNoErrors(mine)
		await mine.close()
	}, SUITE_TIMEOUT)

	test('a bar shows its period\'s breakdown when hovered, a slice its model, amount and share when focused', async () => {
		await writePastBuckets()
		const opened = await harness.open(`/detail?${pastRange}`, { as: admin })
		const { page } = opened
		const tooltip = page.getByTestId('chart-tooltip')
		const firstBar = page.getByTestId('stacked-bar-chart').locator('g[data-period]').first()
		await firstBar.hover()
		await tooltip.waitFor()
		const period = await firstBar.getAttribute('data-period')
		expect(await tooltip.textContent()).toBe(`${period} · ${formatDollars(1)}gpt-4o-mini${formatDollars(1)}`)
		await page.mouse.move(0, 0)
		await tooltip.waitFor({ state: 'detached' })

		await page.getByTestId('share-chart').locator('circle[data-slice="claude-3-haiku"]').focus()
		await tooltip.waitFor()
		// 2.3 of 2.95 dollars.
		expect(await tooltip.textContent()).toBe(`claude-3-haiku消耗额度${formatDollars(4.6)}占比78.0%`)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('over a hundred hours the axis text keeps its size, the x labels do not overlap and the y axis names the metric', async () => {
		await writePastBuckets()
		const range = `start_timestamp=${LONG_RANGE_START - 60}&end_timestamp=${LONG_RANGE_START + LONG_RANGE_HOURS * HOUR}&granularity=hour`
		const opened = await harness.open(`/detail?${range}`, { as: admin, width: 1400 })
		const { page } = opened
		const chart = page.getByTestId('stacked-bar-chart')
		await chart.waitFor({ timeout: STEP_TIMEOUT })
		const boxes = await chart.locator('text').evaluateAll((texts) => texts.map((text) => {
			const box = text.getBoundingClientRect()
			return { left: box.left, right: box.right, height: box.height, axis: text.getAttribute('data-testid') }
		}))
		const MIN_TEXT_HEIGHT_PX = 11
		expect(Math.min(...boxes.map((box) => box.height))).toBeGreaterThanOrEqual(MIN_TEXT_HEIGHT_PX)
		const xLabels = boxes.filter((box) => box.axis === 'x-axis-label').sort((left, right) => left.left - right.left)
		expect(xLabels.length).toBeGreaterThan(3)
		for (let index = 1; index < xLabels.length; index++) expect(xLabels[index]!.left).toBeGreaterThan(xLabels[index - 1]!.right)
		expect(await chart.locator('g[data-period]').count()).toBe(LONG_RANGE_HOURS)
		expect(await chart.getByTestId('y-axis-title').textContent()).toBe('消耗额度')
		await harness.screenshot(page, 'dashboard-long-range-1400')
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('the data table sorts by any column from its header, numbers biggest first', async () => {
		await writePastBuckets()
		const opened = await harness.open(`/detail?${pastRange}`, { as: admin })
		const { page } = opened
		await page.getByText('查看数据表').click()
		const table = page.getByTestId('usage-table')
		const counts = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-count'))))
		const models = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model')))
		expect(await table.locator('th[data-column="period"]').getAttribute('aria-sort')).toBe('ascending')
		expect(await counts()).toEqual([5, 2, 1, 4, 1])
		await table.getByRole('button', { name: '调用次数' }).click()
		expect(await table.locator('th[data-column="count"]').getAttribute('aria-sort')).toBe('descending')
		expect(await table.locator('th[data-column="period"]').getAttribute('aria-sort')).toBe('none')
		expect(await counts()).toEqual([5, 4, 2, 1, 1])
		await table.getByRole('button', { name: '调用次数' }).click()
		expect(await counts()).toEqual([1, 1, 2, 4, 5])
		await table.getByRole('button', { name: '模型' }).click()
		expect(await models()).toEqual(['claude-3-haiku', 'claude-3-haiku', 'gemini-flash', 'gemini-flash', 'gpt-4o-mini'])
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('a range without usage says where calls show and links to the log', async () => {
		const opened = await harness.open('/detail?start_timestamp=1600000000&end_timestamp=1600086400', { as: sailor })
		const { page } = opened
		const empty = page.getByTestId('empty-state')
		await empty.waitFor({ timeout: STEP_TIMEOUT })
		expect(await empty.textContent()).toContain('每次调用的明细在使用日志中')
		expect(await page.getByTestId('usage-totals').count()).toBe(0)
		await empty.getByRole('link', { name: '查看使用日志' }).click()
		await page.waitForURL(`${harness.origin}/log`)
		expectNoErrors(opened)
		await opened.close()
	}, SUITE_TIMEOUT)

	test('an admin reads revenue, cost and margin by day and by channel, and downloads them as CSV; a user does not see them', async () => {
		const channelId = (await harness.ferry.call('GET', '/api/channel/?p=1&page_size=10', { as: harness.root })).body.data.items.find((channel: { name: string }) => channel.name === 'harbour').id
		expect((await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: channelId, cost_ratio: 0.5 } })).body.success).toBe(true)
		const client = harness.client((await harness.createToken({ name: 'margin' }, sailor)).key)
		for (let call = 0; call < 2; call++) await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `cost ${call}` }] })
		const report = async (group: string) => (await harness.ferry.call('GET', `/api/data/margin?group_by=${group}`, { as: harness.root })).body.data as { key: string; revenue: number; cost: number; margin: number; calls: number; uncosted_calls: number }[]
		const [harbour] = (await report('channel')).filter((row) => row.key === String(channelId))
		expect(harbour!.cost).toBeGreaterThan(0)
		const money = (quota: number) => renderQuota(quota, { display_in_currency: true, quota_per_unit: 500_000 })

		const opened = await harness.open('/detail', { as: admin })
		const { page } = opened
		const margin = page.getByTestId('margin-report')
		await margin.getByRole('heading', { name: '收入、成本与毛利' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await margin.getByRole('button', { name: '按天' }).getAttribute('aria-pressed')).toBe('true')
		await margin.getByRole('button', { name: '按渠道' }).click()
		const row = margin.getByTestId('margin-table').locator(`tbody tr[data-key="${channelId}"]`)
		await row.waitFor({ timeout: STEP_TIMEOUT })
		expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining([`harbour (#${channelId})`, money(harbour!.revenue), money(harbour!.cost), money(harbour!.margin)]))
		expect(new URL(page.url()).searchParams.get('margin_by')).toBe('channel')
		const [download] = await Promise.all([
			page.waitForEvent('download', { timeout: STEP_TIMEOUT }),
			margin.getByRole('button', { name: '导出 CSV' }).click(),
		])
		expect(download.suggestedFilename()).toBe('margin-channel.csv')
		const csv = readFileSync((await download.path())!, 'utf8').trim().split('\n')
		expect(csv[0]).toBe('key,name,revenue,cost,margin,calls,plan_quota,uncosted_calls')
		expect(csv).toContain(`${channelId},harbour,${harbour!.revenue},${harbour!.cost},${harbour!.margin},${harbour!.calls},0,${harbour!.uncosted_calls}`)
		await harness.screenshot(page, 'dashboard-margin')
		expectNoErrors(opened)
		await opened.close()

		const narrow = await harness.open('/detail', { as: admin, width: 390, language: 'en' })
		await narrow.page.getByTestId('margin-report').getByRole('heading', { name: 'Revenue, cost and margin' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		expectNoErrors(narrow)
		await narrow.close()

		const user = await harness.open('/detail', { as: sailor })
		await user.page.getByRole('heading', { name: '数据看板' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await user.page.getByTestId('margin-report').count()).toBe(0)
		await user.close()
	}, SUITE_TIMEOUT)
})
