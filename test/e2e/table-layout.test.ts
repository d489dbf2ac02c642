/**
 * The console's tables in Chromium (issues 16 and 32): at 1 400 × 900, in zh and en, light and dark,
 * every table's last column (the row actions, the log's detail) and the log's charge are on screen
 * without a sideways scroll and can be clicked; rows keep one height and a token's created-at one
 * line. Narrower, a table scrolls inside its frame with its first column and its actions in place.
 * On a 390 px phone the lists are cards (the first column, a summary, the row actions) that fit the
 * screen, and the pricing table keeps the price in view. Screenshots land in .build/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { LOG_TYPE } from '@shared/log'
import { ROLE } from '@shared/user'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const DESKTOP_WIDTH = 1400
const NARROW_WIDTH = 1000
const PHONE_WIDTH = 390
const CALLS = 6
const BORDER_PX = 1
/** A row of one line: the cells' h-12 (48 px) and the row's bottom border. */
const ONE_LINE_ROW_PX = 48 + BORDER_PX
const PAGE_TIMEOUT_MS = 60_000
const COMBINATIONS_TIMEOUT_MS = 240_000

/** Every page with a table, as an admin sees it, and what shows the table (the ratio editor's visual view). */
const TABLE_PAGES: { path: string; show?: (page: Page) => Promise<void> }[] = [
	...['/channel', '/channel?tag_mode=true', '/log', '/user', '/token', '/redemption', '/pricing', '/midjourney', '/task'].map((path) => ({ path })),
	{ path: '/setting?tab=operation', show: (page) => page.getByRole('tab', { name: /可视化编辑|Visual/ }).click() },
]
/** The lists that become cards on a phone (tokens had theirs already). */
const CARD_PAGES = ['/channel', '/log', '/user', '/redemption', '/token']

describe.skipIf(!browserExecutable)('tables that fit', () => {
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
		await harness.ferry.call('POST', '/api/redemption/', { as: harness.root, body: { name: 'spring-gift-batch-01', quota: 500_000, count: 3 } })
		const client = harness.client((await harness.createToken({ name: 'a-token-with-a-rather-long-name' })).key)
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

	/** Within a pixel (the last row has no bottom border), and no row wraps onto a second line. */
	async function expectUniformRows(page: Page, count: number) {
		const heights = await rowHeights(page)
		expect(heights.length).toBeGreaterThanOrEqual(count)
		expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(BORDER_PX)
		expect(Math.max(...heights)).toBeLessThanOrEqual(ONE_LINE_ROW_PX)
	}

	/**
	 * For every table of the page: where its last header cell and its first row's last cell end, and
	 * whether the point a click on that cell would hit belongs to it (nothing covers it).
	 */
	const lastColumns = (page: Page) => page.evaluate(() => [...document.querySelectorAll('table')].filter((table) => !table.closest('tbody')).map((table) => {
		const header = [...table.querySelectorAll(':scope > thead > tr > th')].filter((cell) => getComputedStyle(cell).display !== 'none').at(-1) as HTMLElement | undefined
		const cell = [...(table.querySelector(':scope > tbody > tr')?.children ?? [])].filter((element) => getComputedStyle(element).display !== 'none').at(-1) as HTMLElement | undefined
		const reach = (element: HTMLElement | undefined) => {
			if (!element) return null
			element.scrollIntoView({ block: 'center', inline: 'nearest' })
			const box = element.getBoundingClientRect()
			const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 12), box.top + box.height / 2)
			return { left: Math.round(box.left), right: Math.round(box.right), uncovered: hit !== null && element.contains(hit) }
		}
		return { header: reach(header), cell: reach(cell) }
	}))

	async function expectLastColumnsOnScreen(page: Page, path: string) {
		const scrollLeft = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-slot="table-container"]')].map((frame) => frame.scrollLeft))
		const tables = await lastColumns(page)
		expect({ path, tables: tables.length > 0 }).toEqual({ path, tables: true })
		for (const { header, cell } of tables) {
			for (const part of [header, cell]) {
				if (!part) continue
				expect({ path, left: part.left >= 0, right: part.right <= DESKTOP_WIDTH, uncovered: part.uncovered }).toEqual({ path, left: true, right: true, uncovered: true })
			}
		}
		// Nothing had to scroll sideways to get there.
		expect(await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-slot="table-container"]')].map((frame) => frame.scrollLeft))).toEqual(scrollLeft.map(() => 0))
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP_WIDTH)
	}

	for (const language of ['zh', 'en'] as const) {
		for (const theme of ['light', 'dark'] as const) {
			test(`at 1400 px every table's last column is on screen and clickable without scrolling sideways (${language}, ${theme})`, async () => {
				for (const { path, show } of TABLE_PAGES) {
					const opened = await harness.open(path, { as: asRoot(), width: DESKTOP_WIDTH, language, theme })
					const { page } = opened
					await show?.(page)
					await page.locator('table').first().waitFor()
					await harness.screenshot(page, `table-${path.slice(1).replace(/[/?=]/g, '-')}-1400-${language}-${theme}`)
					await expectLastColumnsOnScreen(page, path)
					expectNoErrors(opened)
					await opened.close()
				}
			}, COMBINATIONS_TIMEOUT_MS)

			test(`the log's charge and detail are on screen at 1400 px, rows of one line (${language}, ${theme})`, async () => {
				const opened = await harness.open('/log', { as: asRoot(), width: DESKTOP_WIDTH, language, theme })
				const { page } = opened
				await expectUniformRows(page, CALLS)
				for (const column of ['quota', 'content', 'created_at']) {
					const box = (await page.locator(`tbody tr[data-row-key] td[data-column="${column}"]`).first().boundingBox())!
					expect({ column, inside: box.x >= 0 && box.x + box.width <= DESKTOP_WIDTH }).toEqual({ column, inside: true })
				}
				const charge = page.locator('tbody tr[data-row-key] [data-testid="log-cost"]').first()
				expect(await charge.isVisible()).toBe(true)
				expect((await charge.textContent())!).toMatch(/\$0\.0000\d\d/)
				expectNoErrors(opened)
				await opened.close()
			}, PAGE_TIMEOUT_MS)
		}
	}

	test('the channel list in tag mode: tag rows keep 编辑标签 and their menu on screen, and untagged channels have no chevron', async () => {
		const opened = await harness.open('/channel?tag_mode=true', { as: asRoot(), width: DESKTOP_WIDTH })
		const { page } = opened
		const tagRow = page.locator('tr[data-row-key="tag:region-west-pool"]')
		await tagRow.waitFor()
		await expectUniformRows(page, 4)
		await tagRow.getByRole('button', { name: '编辑标签' }).click({ trial: true })
		await tagRow.getByRole('button', { name: '更多操作' }).click()
		await page.getByRole('menuitem', { name: '禁用全部' }).waitFor()
		expect(await page.getByRole('menuitem').allTextContents()).toEqual(['启用全部', '禁用全部'])
		await page.keyboard.press('Escape')
		// Two untagged channels: no panel to open, so no chevron.
		const untagged = page.locator('tbody > tr[data-row-key]:not([data-row-key^="tag:"])')
		expect(await untagged.count()).toBe(2)
		expect(await untagged.locator('td[data-column="expand"] button').count()).toBe(0)
		expect(await tagRow.locator('td[data-column="expand"] button').count()).toBe(1)
		expectNoErrors(opened)
		await opened.close()
	}, PAGE_TIMEOUT_MS)

	test('the user and token tables keep one line per row: two actions and a menu, and a token\'s created-at on one line', async () => {
		const users = await harness.open('/user', { as: asRoot(), width: DESKTOP_WIDTH })
		await expectUniformRows(users.page, 6)
		const buttons = await users.page.locator('tr[data-row-key="3"] [data-testid="row-actions"]').getByRole('button').allTextContents()
		expect(buttons.length).toBeLessThanOrEqual(3)
		expectNoErrors(users)
		await users.close()
		const tokens = await harness.open('/token', { as: asRoot(), width: DESKTOP_WIDTH })
		const created = tokens.page.locator('tbody tr[data-row-key] td[data-column="created"] span').first()
		expect(await created.evaluate((element) => element.getClientRects().length)).toBe(1)
		// Revealing the key leaves the row's actions where they were.
		const actions = tokens.page.locator('tbody tr[data-row-key] td[data-column="actions"]').first()
		const before = (await actions.boundingBox())!
		await tokens.page.getByRole('button', { name: '查看密钥' }).first().click()
		await tokens.page.getByRole('button', { name: '隐藏密钥' }).first().waitFor()
		expect(Math.round((await actions.boundingBox())!.x)).toBe(Math.round(before.x))
		expectNoErrors(tokens)
		await tokens.close()
	}, PAGE_TIMEOUT_MS)

	test('narrower than the table, the list scrolls inside its frame: its first column and its actions stay in place, shadows say there is more', async () => {
		const opened = await harness.open('/log', { as: asRoot(), width: NARROW_WIDTH })
		const { page } = opened
		const frameState = () => page.evaluate(() => {
			const frame = document.querySelector<HTMLElement>('[data-scrolled-end]')!
			const scroller = frame.querySelector<HTMLElement>('[data-slot="table-container"]')!
			const sticky = [...scroller.querySelectorAll<HTMLElement>(':scope > table > tbody > tr[data-row-key]:first-child > td[data-sticky]')].at(-1)!
			return {
				more: { start: frame.dataset.scrolledStart, end: frame.dataset.scrolledEnd },
				overflows: scroller.scrollWidth > scroller.clientWidth,
				stickyLeft: Math.round(sticky.getBoundingClientRect().left - scroller.getBoundingClientRect().left),
			}
		})
		await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-scrolled-end]')?.dataset.scrolledEnd === 'true')
		const before = await frameState()
		expect(before.overflows).toBe(true)
		expect(before.more).toEqual({ start: 'false', end: 'true' })
		await page.locator('[data-slot="table-container"]').first().evaluate((scroller) => scroller.scrollTo({ left: scroller.scrollWidth }))
		await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-scrolled-end]')?.dataset.scrolledEnd === 'false')
		const after = await frameState()
		expect(after.more).toEqual({ start: 'true', end: 'false' })
		expect(after.stickyLeft).toBe(before.stickyLeft)
		await harness.screenshot(page, 'table-log-1000-scrolled')
		expectNoErrors(opened)
		await opened.close()

		const channels = await harness.open('/channel', { as: asRoot(), width: NARROW_WIDTH })
		await channels.page.locator('tbody tr[data-row-key]').first().waitFor()
		const actions = channels.page.locator('tbody tr[data-row-key] td[data-column="actions"]').first()
		const box = (await actions.boundingBox())!
		expect(box.x + box.width).toBeLessThanOrEqual(NARROW_WIDTH)
		await actions.getByRole('link', { name: '编辑' }).click({ trial: true })
		await harness.screenshot(channels.page, 'table-channel-1000')
		expectNoErrors(channels)
		await channels.close()
	}, PAGE_TIMEOUT_MS)

	test('the user and channel search boxes show their whole hint, at 1400 px and on a phone, in zh and en', async () => {
		for (const language of ['zh', 'en'] as const) {
			for (const width of [DESKTOP_WIDTH, PHONE_WIDTH]) {
				for (const path of ['/user', '/channel']) {
					const opened = await harness.open(path, { as: asRoot(), width, language })
					const { page } = opened
					const search = page.locator('form[role="search"] input[placeholder]').first()
					await search.waitFor()
					const { need, room } = await search.evaluate((input: HTMLInputElement) => {
						const style = getComputedStyle(input)
						const context = document.createElement('canvas').getContext('2d')!
						context.font = `${style.fontSize} ${style.fontFamily}`
						return { need: context.measureText(input.placeholder).width, room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) }
					})
					expect({ language, width, path, fits: need <= room }).toEqual({ language, width, path, fits: true })
					await opened.close()
				}
			}
		}
	}, PAGE_TIMEOUT_MS)

	test('on a 390 px phone no list\'s frame scrolls sideways: not the cards, nor an empty list\'s words, which wrap (en)', async () => {
		// The last path is a period with no logs: the longest of the empty lists' words.
		for (const path of [...CARD_PAGES, '/log?start_timestamp=1&end_timestamp=2']) {
			const opened = await harness.open(path, { as: asRoot(), width: PHONE_WIDTH, language: 'en' })
			const { page } = opened
			await page.locator('tbody tr').first().waitFor()
			await page.waitForFunction(() => {
				const row = document.querySelector('tbody tr')
				return row !== null && [...row.children].filter((cell) => !['select', 'expand'].includes((cell as HTMLElement).dataset.column ?? '')).length <= 2
			})
			const frames = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-slot="table-container"]')].map((frame) => frame.scrollWidth - frame.clientWidth))
			expect({ path, frames }).toEqual({ path, frames: [0] })
			expectNoErrors(opened)
			await opened.close()
		}
		const empty = await harness.open('/log?start_timestamp=1&end_timestamp=2', { as: asRoot(), width: PHONE_WIDTH, language: 'en' })
		const words = empty.page.getByText('No logs in this period', { exact: false })
		const box = (await words.boundingBox())!
		expect(box.x + box.width).toBeLessThanOrEqual(PHONE_WIDTH)
		await empty.close()
	}, PAGE_TIMEOUT_MS)

	for (const [language, theme] of [['zh', 'light'], ['en', 'dark']] as const) {
		test(`on a 390 px phone the lists are cards that fit the screen, with their actions in reach (${language}, ${theme})`, async () => {
			for (const path of CARD_PAGES) {
				const opened = await harness.open(path, { as: asRoot(), width: PHONE_WIDTH, language, theme })
				const { page } = opened
				const firstRow = page.locator('tbody tr[data-row-key]').first()
				await firstRow.waitFor()
				// The narrow screen's columns leave once hydrated (the server cannot know the width).
				await page.waitForFunction(() => {
					const row = document.querySelector('tbody tr[data-row-key]')
					return row !== null && [...row.children].filter((cell) => !['select', 'expand'].includes((cell as HTMLElement).dataset.column ?? '')).length <= 2
				})
				await harness.screenshot(page, `table-${path.slice(1)}-390-${language}-${theme}`)
				expect({ path, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: PHONE_WIDTH })
				const cells = await firstRow.evaluate((row) => [...row.children].map((cell) => (cell as HTMLElement).dataset.column))
				expect({ path, cells: cells.filter((column) => column !== 'select' && column !== 'expand').length <= 2 }).toEqual({ path, cells: true })
				if (path !== '/token') expect({ path, summary: await firstRow.getByTestId('phone-summary').isVisible() }).toEqual({ path, summary: true })
				for (const button of await firstRow.getByRole('button').all()) {
					const box = await button.boundingBox()
					if (box) expect({ path, right: box.x + box.width <= PHONE_WIDTH }).toEqual({ path, right: true })
				}
				expectNoErrors(opened)
				await opened.close()
			}
			const pricing = await harness.open('/pricing', { width: PHONE_WIDTH, language, theme })
			const price = pricing.page.getByTestId('prompt-price').first()
			await price.waitFor()
			const box = (await price.boundingBox())!
			expect(box.x + box.width).toBeLessThanOrEqual(PHONE_WIDTH)
			expect(await pricing.page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE_WIDTH)
			await harness.screenshot(pricing.page, `table-pricing-390-${language}-${theme}`)
			expectNoErrors(pricing)
			await pricing.close()
		}, COMBINATIONS_TIMEOUT_MS)
	}
})
