/**
 * Server rendering of the usage dashboard `/detail`: the buckets of the export, the totals and
 * charts drawn from them, the range and granularity defaults, the admin's username filter.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LOG_TYPE } from '@shared/log'
import { DEFAULT_RANGE_LOOKAHEAD_SECONDS, DEFAULT_RANGE_SECONDS, QUOTA_DATA_MESSAGES } from '@shared/quota-data'
import { ROLE } from '@shared/user'
import { exportQuotaData } from '@/api/data/export'
import { MAX_SERIES, OTHER_MODELS, periodLabel, rankUsage, summariseUsage, TOP_ENTRIES } from '@ui/features/dashboard/usage-summary'
import { formatTimestamp } from '@ui/lib/format'
import { nowSeconds } from '@/lib/clock'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { hydrationData, markup, renderPage } from './page'

const EXPORT_WORKER_URL = new URL('../../src/workers/data-export.ts', import.meta.url)

const HOUR = 3600

describe('the usage dashboard rendered on the server', () => {
	let ferry: TestApp
	let alice: Caller
	let admin: Caller
	const thisHour = Math.floor(nowSeconds() / HOUR) * HOUR

	async function page(path: string, as: Caller, cookies: string[] = []) {
		const { status, html } = await renderPage(ferry, path, [as.cookie, 'tz=UTC', ...cookies])
		return { status, html: markup(html), data: hydrationData(html).loaderData.detail }
	}

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		alice = await ferry.createUser('alice')
		admin = await ferry.createUser('harbour', ROLE.admin)
		const { logs } = ferry.store.tables
		const log = (userId: number, username: string, model: string, at: number, quota: number) =>
			({ userId, username, modelName: model, createdAt: at, type: LOG_TYPE.consume, promptTokens: 100, completionTokens: 50, quota })
		await ferry.store.db.insert(logs).values([
			log(alice.userId, 'alice', 'gpt-4o-mini', thisHour - 2 * HOUR + 1, 250_000),
			log(alice.userId, 'alice', 'gpt-4o-mini', thisHour - 2 * HOUR + 2, 250_000),
			log(alice.userId, 'alice', 'claude-3-haiku', thisHour - HOUR + 3, 500_000),
			log(admin.userId, 'harbour', 'gpt-4o', thisHour - HOUR + 4, 1_000_000),
		])
		await exportQuotaData(ferry.store, EXPORT_WORKER_URL)
	})
	afterAll(() => ferry?.close())

	test('shows a user their own totals, each model\'s share and the sync hint, over the default day of hours', async () => {
		const { status, html, data } = await page('/detail', alice)
		expect(status).toBe(200)
		expect(data.admin).toBe(false)
		expect(data.filters.granularity).toBe('hour')
		expect(data.filters.end_timestamp - data.filters.start_timestamp).toBe(DEFAULT_RANGE_SECONDS.hour + DEFAULT_RANGE_LOOKAHEAD_SECONDS)
		expect(data.buckets.map((bucket: { model_name: string }) => bucket.model_name)).toEqual(['gpt-4o-mini', 'claude-3-haiku'])
		expect(html).toContain('每 5 分钟汇总一次，最近的调用直接取自使用日志')
		expect(html).toContain('data-metric="count" data-value="3"')
		expect(html).toContain('data-metric="token_used" data-value="450"')
		// One dollar spent (500 000 quota a dollar), half of it on each model.
		expect(html).toMatch(/data-metric="quota" data-value="1000000">.*?\$1\.00</)
		expect(html).toMatch(/data-model="gpt-4o-mini" data-value="500000">.*?50\.0%/)
		expect(html).toMatch(/data-model="claude-3-haiku" data-value="500000">.*?50\.0%/)
		expect(html).toContain('<title id="')
		expect(html).toContain('消耗额度：按时间（每小时）')
		expect(html).not.toContain('gpt-4o<')
		expect(html).not.toContain('id="dashboard-username"')
	})

	test('gives admins every user by default and one user by username, with the username field', async () => {
		const everyone = await page('/detail', admin)
		expect(everyone.data.admin).toBe(true)
		expect(everyone.html).toContain('id="dashboard-username"')
		expect(everyone.html).toContain('data-metric="count" data-value="4"')
		const one = await page('/detail?username=harbour', admin)
		expect(one.data.buckets.map((bucket: { username: string }) => bucket.username)).toEqual(['harbour'])
		expect(one.html).toContain('data-metric="count" data-value="1"')
	})

	test('follows the granularity of the URL, else the status default, with the range that goes with it', async () => {
		const daily = await page('/detail?granularity=day', alice)
		expect(daily.data.filters.granularity).toBe('day')
		expect(daily.html).toContain('消耗额度：按时间（每天）')
		await ferry.dependencies.options.set('DataExportDefaultTime', 'week')
		try {
			const weekly = await page('/detail', alice)
			expect(weekly.data.filters.granularity).toBe('week')
			expect(weekly.data.filters.end_timestamp - weekly.data.filters.start_timestamp).toBe(DEFAULT_RANGE_SECONDS.week + DEFAULT_RANGE_LOOKAHEAD_SECONDS)
		} finally {
			await ferry.dependencies.options.set('DataExportDefaultTime', 'hour')
		}
	})

	test('renders in English', async () => {
		const { html } = await page('/detail', alice, ['language=en'])
		expect(html).toContain('Summed up every 5 minutes; the latest calls come straight from the usage log')
		expect(html).toContain('Quota used by model')
		expect(html).toContain('Quota used over time (per hour)')
	})

	test('says so instead of drawing charts when the dashboard is turned off', async () => {
		await ferry.dependencies.options.set('DataExportEnabled', 'false')
		try {
			const { status, html } = await page('/detail', alice)
			expect(status).toBe(200)
			expect(html).toContain(QUOTA_DATA_MESSAGES.disabled)
			expect(html).not.toContain('data-testid="usage-totals"')
		} finally {
			await ferry.dependencies.options.set('DataExportEnabled', 'true')
		}
	})
})

describe('the dashboard\'s grouping of hourly buckets', () => {
	const bucket = (model: string, createdAt: number, count: number) =>
		({ id: 0, user_id: 1, username: 'alice', model_name: model, created_at: createdAt, token_used: count * 10, count, quota: count * 100 })

	test('groups hours into the viewer\'s days and Monday-based weeks', () => {
		expect(periodLabel('2026-05-07 13:45:00', 'hour')).toBe('2026-05-07 13:00')
		expect(periodLabel('2026-05-07 13:45:00', 'day')).toBe('2026-05-07')
		// 7 May 2026 is a Thursday; 4 May the Monday of its week; a Sunday belongs to the week before.
		expect(periodLabel('2026-05-07 13:45:00', 'week')).toBe('2026-05-04')
		expect(periodLabel('2026-05-10 23:00:00', 'week')).toBe('2026-05-04')
		expect(periodLabel('2026-05-11 00:00:00', 'week')).toBe('2026-05-11')

		// 23:00 UTC on 7 May is already 8 May in Shanghai.
		const lateHour = Date.UTC(2026, 4, 7, 23) / 1000
		const inShanghai = summariseUsage([bucket('gpt-4o-mini', lateHour, 1), bucket('gpt-4o-mini', lateHour - 9 * HOUR, 2)], 'day', (seconds) => formatTimestamp(seconds, 'Asia/Shanghai'))
		expect(inShanghai.periods.map((period) => [period.label, period.total.count])).toEqual([['2026-05-07', 2], ['2026-05-08', 1]])
		const inUtc = summariseUsage([bucket('gpt-4o-mini', lateHour, 1), bucket('gpt-4o-mini', lateHour - 9 * HOUR, 2)], 'day', (seconds) => formatTimestamp(seconds, 'UTC'))
		expect(inUtc.periods.map((period) => [period.label, period.total.count])).toEqual([['2026-05-07', 3]])
	})

	test('ranks models by spend and draws those beyond the series limit as one "others" series', () => {
		const hour = Date.UTC(2026, 4, 7, 10) / 1000
		const buckets = Array.from({ length: MAX_SERIES + 2 }, (_, index) => bucket(`model-${index}`, hour, index + 1))
		const summary = summariseUsage(buckets, 'hour', (seconds) => formatTimestamp(seconds, 'UTC'))
		expect(summary.models).toHaveLength(MAX_SERIES)
		expect(summary.models[0]).toMatchObject({ model: `model-${MAX_SERIES + 1}`, count: MAX_SERIES + 2 })
		// The three smallest (1 + 2 + 3 calls) are merged.
		expect(summary.models.at(-1)).toMatchObject({ model: OTHER_MODELS, count: 6, quota: 600, token_used: 60 })
		expect(summary.total.count).toBe(((MAX_SERIES + 2) * (MAX_SERIES + 3)) / 2)
		expect(summary.periods[0]!.byModel.get(OTHER_MODELS)?.count).toBe(6)
	})

	test('ranks users or models by the chosen metric over the whole range, at most the top five, leaving out those that used none of it', () => {
		const hour = Date.UTC(2026, 4, 7, 10) / 1000
		const of = (username: string, model: string, at: number, count: number, quota: number) =>
			({ id: 0, user_id: 0, username, model_name: model, created_at: at, token_used: count, count, quota })
		const buckets = [
			of('alice', 'gpt-4o', hour, 1, 900), of('alice', 'gpt-4o', hour + HOUR, 1, 900),
			of('bob', 'claude', hour, 10, 100), of('carol', 'gpt-4o', hour, 3, 0),
			...Array.from({ length: TOP_ENTRIES }, (_, index) => of(`crew-${index}`, 'gemini', hour, 1, 10 + index)),
		]
		expect(rankUsage(buckets, 'username', 'quota').map((entry) => [entry.name, entry.quota])).toEqual([['alice', 1800], ['bob', 100], ['crew-4', 14], ['crew-3', 13], ['crew-2', 12]])
		expect(rankUsage(buckets, 'username', 'count').map((entry) => entry.name)).toEqual(['bob', 'carol', 'alice', 'crew-0', 'crew-1'])
		expect(rankUsage(buckets, 'model_name', 'quota').map((entry) => [entry.name, entry.count])).toEqual([['gpt-4o', 5], ['claude', 10], ['gemini', 5]])
	})
})
