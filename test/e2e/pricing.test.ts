/**
 * The public pricing page in Chromium (issue 6 "Done when"): for a model with ratio 2.5 and
 * completion ratio 4 in a group with ratio 1.5, the page shows 7.5 and 30 USD per million tokens,
 * and a fixed-price model its price per call.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const STEP_TIMEOUT = 15_000

describe.skipIf(!browserExecutable)('the pricing page in the browser', () => {
	let harness: ConsoleHarness

	async function setOption(key: string, value: unknown) {
		const answer = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key, value: JSON.stringify(value) } })
		if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
		await setOption('ModelRatio', { 'harbour-chat': 2.5 })
		await setOption('CompletionRatio', { 'harbour-chat': 4 })
		await setOption('ModelPrice', { 'harbour-draw': 0.04 })
		await setOption('GroupRatio', { default: 1, vip: 1.5 })
		await setOption('UserUsableGroups', { default: '默认分组', vip: 'VIP 分组' })
		await harness.createChannel({ name: 'harbour', models: 'harbour-chat,harbour-draw', group: 'default,vip' })
	}, 60_000)

	afterAll(async () => {
		await harness?.close()
	})

	test('a visitor picks the vip group and reads 7.5 and 30 per million tokens and the price per call', async () => {
		const opened = await harness.open('/pricing')
		const { page } = opened
		const chat = page.locator('tr[data-model="harbour-chat"]')
		const draw = page.locator('tr[data-model="harbour-draw"]')
		// The default group (ratio 1) first.
		expect(await chat.getByTestId('prompt-price').textContent()).toContain('$5')
		await page.getByRole('radio', { name: /vip/ }).click()
		await chat.getByTestId('prompt-price').filter({ hasText: '$7.5' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await chat.getByTestId('prompt-price').textContent()).toBe('提示 $7.5 / 1M tokens')
		expect(await chat.getByTestId('completion-price').textContent()).toBe('补全 $30 / 1M tokens')
		expect(await draw.getByTestId('call-price').textContent()).toBe('$0.06 / 次')
		expect(await page.getByRole('radio', { name: /vip/ }).getByTestId('group-ratio').getAttribute('data-tier')).toBe('blue')
		await harness.screenshot(page, 'pricing-vip')

		// Per-thousand prices and the ratios on request.
		await page.getByRole('switch', { name: '按千 tokens 显示价格' }).click()
		expect(await chat.getByTestId('prompt-price').textContent()).toBe('提示 $0.0075 / 1K tokens')
		expect(await chat.getByTestId('completion-price').textContent()).toBe('补全 $0.03 / 1K tokens')
		await page.getByRole('switch', { name: '显示倍率' }).click()
		const ratios = await chat.getByTestId('ratios').textContent()
		expect(ratios).toContain('模型倍率: 2.5')
		expect(ratios).toContain('补全倍率: 4')
		expect(ratios).toContain('分组倍率: 1.5')

		// Yuan at the display rate (USDExchangeRate 7.3) when the server shows currency.
		await page.getByRole('switch', { name: '以人民币显示价格' }).click()
		expect(await chat.getByTestId('prompt-price').textContent()).toBe('提示 ¥0.05475 / 1K tokens')
		expect(await draw.getByTestId('call-price').textContent()).toBe('¥0.438 / 次')

		// Search narrows the table.
		await page.getByRole('searchbox', { name: '搜索模型名称' }).fill('draw')
		await chat.waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
		expect(await draw.isVisible()).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, 60_000)

	test('a signed-in user of the vip group gets their group chosen and priced from the first render', async () => {
		const sailor = await harness.ferry.createUser('sailor')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: sailor.userId, group: 'vip' } })
		const opened = await harness.open('/pricing', { as: { ...sailor, username: 'sailor' } })
		const { page } = opened
		expect(await page.getByRole('radio', { name: /vip/ }).getAttribute('aria-checked')).toBe('true')
		const chat = page.locator('tr[data-model="harbour-chat"]')
		expect(await chat.getByTestId('prompt-price').textContent()).toBe('提示 $7.5 / 1M tokens')
		expect(await chat.getByTestId('completion-price').textContent()).toBe('补全 $30 / 1M tokens')
		expectNoErrors(opened)
		await opened.close()
	}, 60_000)

	test('the top bar\'s pricing link opens the page from the home page', async () => {
		const opened = await harness.open('/')
		const { page } = opened
		await page.getByRole('link', { name: '定价', exact: true }).first().click()
		await page.waitForURL(`${harness.origin}/pricing`, { timeout: STEP_TIMEOUT })
		await page.locator('tr[data-model="harbour-chat"]').waitFor({ timeout: STEP_TIMEOUT })
		expect(await page.getByRole('heading', { name: '模型定价' }).isVisible()).toBe(true)
		expectNoErrors(opened)
		await opened.close()
	}, 60_000)
})
