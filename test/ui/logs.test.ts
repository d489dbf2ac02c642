/**
 * Server rendering of the usage log page through a real Ferry: log rows come from real relay calls
 * (fake OpenAI upstream), the page is requested with a real session cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_DEFAULT_LOOKAHEAD_SECONDS, LOG_DEFAULT_LOOKBACK_SECONDS, LOG_TYPE } from '@shared/log'
import { nowSeconds } from '@/lib/clock'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { hydrationData, markup, renderPage } from './page'

const CHANNEL_NAME = 'harbour-upstream'
const USER_QUOTA = 10_000_000
const DAY_SECONDS = 24 * 60 * 60

describe('the usage log page rendered on the server', () => {
	let harness: RelayHarness
	let alice: Caller

	async function page(path: string, as: Caller, cookie = '') {
		const { status, html } = await renderPage(harness.ferry, path, [as.cookie, cookie])
		return { status, html, data: status === 200 ? hydrationData(html).loaderData.log : undefined }
	}

	async function waitForConsumeLogs(count: number) {
		const { logs } = harness.ferry.store.tables
		for (let attempt = 0; attempt < 100; attempt++) {
			const rows = await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))
			if (rows.length >= count) return rows
			await Bun.sleep(20)
		}
		throw new Error(`fewer than ${count} consume logs were written`)
	}

	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		const upstream = harness.startUpstream({ promptTokens: 100, completionTokens: 20 })
		await harness.createChannel({ name: CHANNEL_NAME, base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o' })
		alice = await harness.ferry.createUser('alice')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: USER_QUOTA } })
		const aliceToken = await harness.createToken({ name: 'alice-laptop' }, alice)
		const rootToken = await harness.createToken({ name: 'root-server' })
		await harness.client(aliceToken.key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
		await harness.client(rootToken.key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
		await waitForConsumeLogs(2)
	}, 30_000)

	afterAll(() => harness?.close())

	test('an admin sees every user\'s entries with the channel and user columns, their filters and the cleanup', async () => {
		const { status, html, data } = await page('/log', harness.root)
		expect(status).toBe(200)
		expect(html).toContain('使用日志')
		expect(html).toContain('alice-laptop')
		expect(html).toContain('root-server')
		expect(html).toContain(CHANNEL_NAME)
		expect(html).toContain('data-column="channel"')
		expect(html).toContain('data-column="username"')
		expect(html).toContain('渠道 ID')
		expect(html).toContain('用户名称')
		expect(html).toContain('清除历史日志')
		expect(data.admin).toBe(true)
		const aliceEntry = data.entries.items.find((entry: any) => entry.token_name === 'alice-laptop')
		expect(aliceEntry).toMatchObject({ username: 'alice', model_name: 'gpt-4o-mini', prompt_tokens: 100, completion_tokens: 20, channel_name: CHANNEL_NAME })
		expect(aliceEntry.other.admin_info.use_channel.length).toBeGreaterThan(0)
	})

	test('a user sees only their own entries, and no admin column, filter, detail or cleanup', async () => {
		const { status, html, data } = await page('/log', alice)
		expect(status).toBe(200)
		expect(html).toContain('alice-laptop')
		expect(html).toContain('gpt-4o-mini')
		expect(html).not.toContain('root-server')
		expect(html).not.toContain(CHANNEL_NAME)
		expect(html).not.toContain('data-column="channel"')
		expect(html).not.toContain('data-column="username"')
		expect(html).not.toContain('渠道 ID')
		expect(html).not.toContain('用户名称')
		expect(html).not.toContain('清除历史日志')
		expect(html).not.toContain('admin_info')
		expect(data.admin).toBe(false)
		expect(data.cleanupTime).toBeUndefined()
		expect(data.entries.items.every((entry: any) => entry.user_id === alice.userId)).toBe(true)
	})

	test('a user cannot widen the view with the admin-only filters in the URL', async () => {
		const { data, html } = await page('/log?username=root&channel=1', alice)
		expect(data.filters).toMatchObject({ username: '', channel: '' })
		expect(html).not.toContain('root-server')
		expect(html).toContain('alice-laptop')
	})

	test('shows the totals of the filtered range: quota used, rpm and tpm', async () => {
		const { html, data } = await page('/log', alice)
		expect(data.stat.rpm).toBe(1)
		expect(data.stat.tpm).toBe(120)
		expect(data.stat.quota).toBeGreaterThan(0)
		expect(html).toContain('消耗额度：$')
		expect(html).toMatch(/RPM：(<!-- -->)?1/)
		expect(html).toMatch(/TPM：(<!-- -->)?120/)
	})

	test('the filters in the URL narrow the list and are shown in the fields', async () => {
		const byModel = await page('/log?model_name=gpt-4o', harness.root)
		expect(byModel.data.entries.items.map((entry: any) => entry.token_name)).toEqual(['root-server'])
		expect(byModel.html).toMatch(/id="log-model-name"[^>]*value="gpt-4o"/)
		const byUser = await page('/log?username=alice&type=2', harness.root)
		expect(byUser.data.entries.items.map((entry: any) => entry.token_name)).toEqual(['alice-laptop'])
		const nothing = await page('/log?token_name=no-such-token', harness.root)
		expect(nothing.data.entries.items).toEqual([])
		expect(nothing.html).toContain('这段时间没有符合条件的日志')
	})

	test('the default range runs from three days back to one hour ahead, so older entries need an explicit start', async () => {
		const { logs } = harness.ferry.store.tables
		const before = nowSeconds()
		const { data } = await page('/log', harness.root)
		expect(data.filters.start_timestamp).toBeGreaterThanOrEqual(before - LOG_DEFAULT_LOOKBACK_SECONDS)
		expect(data.filters.start_timestamp).toBeLessThanOrEqual(nowSeconds() - LOG_DEFAULT_LOOKBACK_SECONDS)
		expect(data.filters.end_timestamp - data.filters.start_timestamp).toBe(LOG_DEFAULT_LOOKBACK_SECONDS + LOG_DEFAULT_LOOKAHEAD_SECONDS)
		expect((await page('/log', harness.root)).html).toMatch(/默认显示最近 (<!-- -->)?3(<!-- -->)? 天的日志/)
		const [rootEntry] = await harness.ferry.store.db.select().from(logs).where(eq(logs.tokenName, 'root-server'))
		const originalTime = rootEntry!.createdAt
		await harness.ferry.store.db.update(logs).set({ createdAt: originalTime - 4 * DAY_SECONDS }).where(eq(logs.id, rootEntry!.id))
		try {
			expect((await page('/log?type=2', harness.root)).data.entries.items.map((entry: any) => entry.token_name)).toEqual(['alice-laptop'])
			const older = await page(`/log?type=2&start_timestamp=${originalTime - 5 * DAY_SECONDS}`, harness.root)
			expect(older.html).not.toContain('默认显示最近')
			expect(older.data.entries.items.map((entry: any) => entry.token_name).sort()).toEqual(['alice-laptop', 'root-server'])
		} finally {
			await harness.ferry.store.db.update(logs).set({ createdAt: originalTime }).where(eq(logs.id, rootEntry!.id))
		}
	})

	test('offers cleanup of the entries older than a month by default', async () => {
		const { data } = await page('/log', harness.root)
		const expected = new Date(data.filters.end_timestamp * 1000 - LOG_DEFAULT_LOOKAHEAD_SECONDS * 1000)
		expected.setMonth(expected.getMonth() - 1)
		expect(Math.abs(data.cleanupTime - expected.getTime() / 1000)).toBeLessThanOrEqual(1)
	})

	test('an admin\'s changes read as sentences in the console\'s language, filtered by the admin type', async () => {
		const zh = markup((await page(`/log?type=${LOG_TYPE.manage}`, harness.root)).html)
		expect(zh).toMatch(/创建渠道 #\d+ (&quot;|")harbour-upstream(&quot;|")/)
		expect(zh).toMatch(/root 将用户 #\d+ (&quot;|")alice(&quot;|") 的额度从 0 改为 10000000/)
		expect(zh).not.toContain('gpt-4o-mini')
		const en = markup((await page(`/log?type=${LOG_TYPE.manage}`, harness.root, 'language=en')).html)
		expect(en).toMatch(/Created channel #\d+ (&quot;|")harbour-upstream(&quot;|")/)
		expect(en).toMatch(/root changed the quota of user #\d+ (&quot;|")alice(&quot;|") from 0 to 10000000/)
	})

	test('renders in English with the language cookie', async () => {
		const { status, html } = await page('/log', alice, 'language=en')
		expect(status).toBe(200)
		expect(html).toContain('<html lang="en"')
		expect(html).toContain('Usage logs')
		expect(html).toContain('Quota used: $')
		expect(html).toContain('Consumption')
		expect(html).toContain('Token name')
		expect(html).toContain('Time / first token')
		expect(html).not.toContain('使用日志')
	})
})
