/**
 * The console's wide tables at 1 400 × 900 in Chromium (issue 16): the last column of the log, the
 * channel list in tag mode and the user table can be scrolled to and clicked, a shadow says when there
 * is more to the side, the first column stays put while the rest scrolls, and every row has one height.
 * Screenshots at 1 400 px (scrolled to the start and to the end) and 390 px land in .build/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { LOG_TYPE } from '@shared/log'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const DESKTOP_WIDTH = 1400
const PHONE_WIDTH = 390
const CALLS = 6
const BORDER_PX = 1
/** A row of one line: the cells' h-12 (48 px) and the row's bottom border. */
const ONE_LINE_ROW_PX = 48 + BORDER_PX
const PAGE_TIMEOUT_MS = 60_000

describe.skipIf(!browserExecutable)('wide tables at 1400 × 900', () => {
	let harness: ConsoleHarness
	const asRoot = () => ({ ...harness.root, username: 'root', role: ROLE.root })

	beforeAll(async () => {
		harness = await startConsoleHarness()
		const upstream = harness.startUpstream({ promptTokens: 100, completionTokens: 20 })
		// Long names and several groups: the tables are wider than the page, as with real data.
		for (let index = 0; index < 6; index++) {
			await harness.createChannel({
				name: `upstream-with-a-rather-long-name-${index}`, base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o',
				group: 'default,vip,svip', tag: index < 4 ? `region-${index % 2 ? 'east' : 'west'}-pool` : '',
			})
		}
		for (let index = 0; index < 5; index++) {
			const created = await harness.ferry.call('POST', '/api/user/', { as: harness.root, body: { username: `crew${index}`, display_name: index % 2 ? `Crew member ${index}` : '', password: 'password123' } })
			if (index === 0) await harness.ferry.call('POST', '/api/user/manage', { as: harness.root, body: { id: created.body.data.id, action: 'promote' } })
		}
		const client = harness.client((await harness.createToken({ name: 'a-token-with-a-long-name' })).key)
		for (let index = 0; index < CALLS; index++) await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
		const { logs } = harness.ferry.store.tables
		for (let attempt = 0; attempt < 200; attempt++) {
			const written = await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))
			if (written.length >= CALLS) break
			await Bun.sleep(25)
		}
	}, 90_000)
	afterAll(() => harness?.close(), 30_000)

	/** Heights of the table's own rows (not the rows of a table nested in an expanded one). */
	const rowHeights = (page: Page) => page.evaluate(() => {
		const table = document.querySelector('[data-slot="table-container"] > table')!
		return [...table.querySelectorAll(':scope > tbody > tr[data-row-key]')].map((row) => row.getBoundingClientRect().height)
	})

	/** What the frame says about its sides, and where its first sticky column is against the frame. */
	const frameState = (page: Page) => page.evaluate(() => {
		const frame = document.querySelector<HTMLElement>('[data-scrolled-end]')!
		const scroller = frame.querySelector<HTMLElement>('[data-slot="table-container"]')!
		const sticky = [...scroller.querySelectorAll<HTMLElement>(':scope > table > tbody > tr[data-row-key]:first-child > td[data-sticky]')]
		return {
			more: { start: frame.dataset.scrolledStart, end: frame.dataset.scrolledEnd },
			overflows: scroller.scrollWidth > scroller.clientWidth,
			stickyLeft: sticky.map((cell) => Math.round(cell.getBoundingClientRect().left - scroller.getBoundingClientRect().left)),
		}
	})

	/**
	 * The last column can be brought into view and is not covered (a trial click checks that the point
	 * it would click receives the click); the first column is still where it was.
	 */
	async function expectLastColumnReachable(page: Page, screenshot: string) {
		const before = await frameState(page)
		const lastHeader = page.locator('[data-slot="table-container"] > table > thead > tr > th').last()
		const lastCell = page.locator('[data-slot="table-container"] > table > tbody > tr[data-row-key]').first().locator(':scope > td').last()
		await lastCell.scrollIntoViewIfNeeded()
		await harness.screenshot(page, screenshot)
		expect(await lastHeader.isVisible()).toBe(true)
		const target = (await lastCell.getByRole('button').count()) > 0 ? lastCell.getByRole('button').last() : lastCell
		await target.click({ trial: true, timeout: 5_000 })
		const box = (await lastCell.boundingBox())!
		expect(box.x + box.width).toBeLessThanOrEqual(DESKTOP_WIDTH)
		const after = await frameState(page)
		expect(after.stickyLeft).toEqual(before.stickyLeft)
		if (before.overflows) {
			expect(before.more).toEqual({ start: 'false', end: 'true' })
			expect(after.more).toEqual({ start: 'true', end: 'false' })
		}
		return before
	}

	/** Within a pixel (the last row has no bottom border), and no row wraps onto a second line. */
	async function expectUniformRows(page: Page, count: number) {
		const heights = await rowHeights(page)
		expect(heights.length).toBeGreaterThanOrEqual(count)
		expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(BORDER_PX)
		expect(Math.max(...heights)).toBeLessThanOrEqual(ONE_LINE_ROW_PX)
	}

	test('the log: the cost and detail columns can be scrolled to, a shadow says so, and the time stays in view', async () => {
		const opened = await harness.open('/log', { as: asRoot(), width: DESKTOP_WIDTH })
		const { page } = opened
		await harness.screenshot(page, 'table-log-1400')
		await expectUniformRows(page, CALLS)
		const state = await expectLastColumnReachable(page, 'table-log-1400-scrolled')
		expect(state.overflows).toBe(true)
		await page.locator('th[data-column="quota"]').scrollIntoViewIfNeeded()
		expect(await page.locator('th[data-column="quota"]').isVisible()).toBe(true)
		expect(await page.locator('tbody tr[data-row-key] td[data-column="created_at"]').first().isVisible()).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the channel list in tag mode: tag rows keep 编辑标签 and their menu within reach, rows of one height', async () => {
		const opened = await harness.open('/channel?tag_mode=true', { as: asRoot(), width: DESKTOP_WIDTH })
		const { page } = opened
		const tagRow = page.locator('tr[data-row-key="tag:region-west-pool"]')
		await tagRow.waitFor()
		await harness.screenshot(page, 'table-channels-tags-1400')
		await expectUniformRows(page, 4)
		await expectLastColumnReachable(page, 'table-channels-tags-1400-scrolled')
		await tagRow.getByRole('button', { name: '编辑标签' }).click({ trial: true })
		await tagRow.getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '禁用全部' }).waitFor()
		expect(await page.getByRole('menuitem').allTextContents()).toEqual(['启用全部', '禁用全部'])
		await page.keyboard.press('Escape')
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the user table: two actions and a menu on one line, the same height for every row', async () => {
		const opened = await harness.open('/user', { as: asRoot(), width: DESKTOP_WIDTH })
		const { page } = opened
		await harness.screenshot(page, 'table-users-1400')
		await expectUniformRows(page, 6)
		await expectLastColumnReachable(page, 'table-users-1400-scrolled')
		const buttons = await page.locator('tr[data-row-key="3"] [data-testid="row-actions"]').getByRole('button').allTextContents()
		expect(buttons.length).toBeLessThanOrEqual(3)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('on a 390 px phone the tables fit the page and scroll inside their frame', async () => {
		for (const [path, name] of [['/log', 'table-log-390'], ['/channel?tag_mode=true', 'table-channels-tags-390'], ['/user', 'table-users-390']] as const) {
			const opened = await harness.open(path, { as: asRoot(), width: PHONE_WIDTH })
			const { page } = opened
			await page.locator('tbody tr[data-row-key]').first().waitFor()
			await harness.screenshot(page, name)
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_WIDTH)
			expectNoErrors(opened)
			await opened.close()
		}
	}, PAGE_TIMEOUT_MS)
})
