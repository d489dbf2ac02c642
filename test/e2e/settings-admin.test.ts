/**
 * The super admin's settings tabs in Chromium against Ferry from source: options saved per section
 * persist across a reload, JSON is checked on blur, payment needs the server address first, the
 * visual ratio table adds and applies a model, the log cleanup reports its count, and turning
 * password login off asks first.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { LOG_TYPE } from '@shared/log'
import { ROLE } from '@shared/user'
import { sessionId } from '@/lib/session-affinity'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, type OpenedPage, type PageOptions, screenshotDirectory, startConsoleHarness } from '../helpers/browser'

const DAY_SECONDS = 86_400
const OLD_LOG_COUNT = 3

describe.skipIf(!browserExecutable)('the super admin settings tabs in a browser', () => {
	let harness: ConsoleHarness
	let root: Caller & { username: string; role: number }

	beforeAll(async () => {
		harness = await startConsoleHarness()
		root = { ...harness.root, username: 'root', role: ROLE.root }
		// The first page request builds the console assets when ui/ changed.
		await fetch(`${harness.origin}/login`)
	}, 90_000)

	afterAll(async () => {
		await harness?.close()
	})

	const options = () => harness.ferry.dependencies.options
	/** Waits for a toast, then dismisses every toast, so that the next wait can only see a new one. */
	async function toast(opened: OpenedPage, text: string | RegExp) {
		await opened.page.locator('section[aria-live]').getByText(text, { exact: true }).first().waitFor({ timeout: 10_000 })
		await opened.page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('section[aria-live] button').forEach((button) => button.click()))
	}
	const field = (opened: OpenedPage, key: string) => opened.page.locator(`#option-${key}`)
	const section = (opened: OpenedPage, id: string) => opened.page.getByTestId(`section-${id}`)

	async function withPage(path: string, run: (opened: OpenedPage) => Promise<void>, pageOptions: PageOptions = {}) {
		const opened = await harness.open(path, { as: root, ...pageOptions })
		try {
			await run(opened)
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}

	test('saves a changed general option and a JSON option, which persist across a reload', async () => {
		await withPage('/setting?tab=operation', async (opened) => {
			const { page } = opened
			await field(opened, 'RetryTimes').fill('3')
			await field(opened, 'TopUpLink').fill('https://shop.example/buy')
			await section(opened, 'general').getByRole('button', { name: '保存通用设置' }).click()
			await toast(opened, '保存成功')
			await field(opened, 'GroupRatio').fill('{"default": 1, "vip": 1.5}')
			await section(opened, 'group').getByRole('button', { name: '保存分组设置' }).click()
			await toast(opened, '保存成功')
			expect(options().get('RetryTimes')).toBe(3)
			expect(options().get('TopUpLink')).toBe('https://shop.example/buy')
			expect(options().get('GroupRatio')).toEqual({ default: 1, vip: 1.5 })
			await section(opened, 'quota').getByRole('button', { name: '保存额度设置' }).click()
			await toast(opened, '没有需要保存的修改')

			await page.reload()
			await page.waitForFunction(() => window.__hydrated === true)
			expect(await field(opened, 'RetryTimes').inputValue()).toBe('3')
			expect(await field(opened, 'TopUpLink').inputValue()).toBe('https://shop.example/buy')
			expect(JSON.parse(await field(opened, 'GroupRatio').inputValue())).toEqual({ default: 1, vip: 1.5 })
		})
	}, 60_000)

	test('saves the sensitive-word switches and list under the option keys the relay reads', async () => {
		await withPage('/setting?tab=operation', async (opened) => {
			const { page } = opened
			for (const key of ['CheckSensitiveEnabled', 'CheckSensitiveOnPromptEnabled', 'CheckSensitiveOnCompletionEnabled']) {
				expect(await field(opened, key).getAttribute('aria-checked')).toBe('false')
				await field(opened, key).click()
			}
			expect(await field(opened, 'StopOnSensitiveEnabled').getAttribute('aria-checked')).toBe('true')
			await field(opened, 'StopOnSensitiveEnabled').click()
			await field(opened, 'SensitiveWords').fill('forbidden secret\n违禁词')
			await section(opened, 'sensitive').getByRole('button', { name: '保存屏蔽词过滤设置' }).click()
			await toast(opened, '保存成功')
			expect(options().get('CheckSensitiveEnabled')).toBe(true)
			expect(options().get('CheckSensitiveOnPromptEnabled')).toBe(true)
			expect(options().get('CheckSensitiveOnCompletionEnabled')).toBe(true)
			expect(options().get('StopOnSensitiveEnabled')).toBe(false)
			expect(options().get('SensitiveWords')).toBe('forbidden secret\n违禁词')

			await page.reload()
			await page.waitForFunction(() => window.__hydrated === true)
			expect(await field(opened, 'CheckSensitiveOnCompletionEnabled').getAttribute('aria-checked')).toBe('true')
			expect(await field(opened, 'SensitiveWords').inputValue()).toBe('forbidden secret\n违禁词')
		})
	}, 60_000)

	test('saves the channel test prompt and the failed checks before disabling under the keys the health check reads; a blank prompt is refused in English', async () => {
		await withPage('/setting?tab=operation', async (opened) => {
			const { page } = opened
			const monitoring = section(opened, 'monitoring')
			expect(await field(opened, 'ChannelTestPrompt').inputValue()).toBe('hi')
			expect(await field(opened, 'ChannelTestFailuresToDisable').inputValue()).toBe('1')
			await field(opened, 'ChannelTestPrompt').fill('Reply with OK')
			await field(opened, 'ChannelTestFailuresToDisable').fill('3')
			await monitoring.getByRole('button', { name: '保存监控设置' }).click()
			await toast(opened, '保存成功')
			expect(options().get('ChannelTestPrompt')).toBe('Reply with OK')
			expect(options().get('ChannelTestFailuresToDisable')).toBe(3)
			await page.reload()
			await page.waitForFunction(() => window.__hydrated === true)
			expect(await field(opened, 'ChannelTestPrompt').inputValue()).toBe('Reply with OK')
			expect(await field(opened, 'ChannelTestFailuresToDisable').inputValue()).toBe('3')
		})
		await withPage('/setting?tab=operation', async (opened) => {
			await opened.page.getByText('Channel test prompt', { exact: true }).waitFor()
			await field(opened, 'ChannelTestPrompt').fill('   ')
			await section(opened, 'monitoring').getByRole('button', { name: 'Save monitoring settings' }).click()
			await toast(opened, /ChannelTestPrompt must not be blank$/)
			expect(options().get('ChannelTestPrompt')).toBe('Reply with OK')
		}, { language: 'en' })
		await options().set('ChannelTestPrompt', 'hi')
		await options().set('ChannelTestFailuresToDisable', '1')
	}, 60_000)

	test('takes the quota options in dollars and saves them as quota units; in quota units, whole numbers only', async () => {
		const perUnit = options().get('QuotaPerUnit')
		try {
			await withPage('/setting?tab=operation', async (opened) => {
				const { page } = opened
				await field(opened, 'QuotaForNewUser').fill('1.5')
				await field(opened, 'QuotaForInvitee').fill('0.25')
				await section(opened, 'quota').getByRole('button', { name: '保存额度设置' }).click()
				await toast(opened, '保存成功')
				await field(opened, 'QuotaRemindThreshold').fill('0.1')
				await section(opened, 'monitoring').getByRole('button', { name: '保存监控设置' }).click()
				await toast(opened, '保存成功')
				expect(options().get('QuotaForNewUser')).toBe(1.5 * perUnit)
				expect(options().get('QuotaForInvitee')).toBe(0.25 * perUnit)
				expect(options().get('QuotaRemindThreshold')).toBe(0.1 * perUnit)
				await page.reload()
				await page.waitForFunction(() => window.__hydrated === true)
				expect(await field(opened, 'QuotaForNewUser').inputValue()).toBe('1.5')
				expect(await field(opened, 'QuotaRemindThreshold').inputValue()).toBe('0.1')
			})
			await options().set('DisplayInCurrencyEnabled', 'false')
			await withPage('/setting?tab=operation', async (opened) => {
				expect(await field(opened, 'QuotaForNewUser').inputValue()).toBe(String(1.5 * perUnit))
				await field(opened, 'QuotaForNewUser').fill('2.5')
				await section(opened, 'quota').getByRole('button', { name: 'Save quota settings' }).click()
				await toast(opened, 'Please check the input')
				expect(await section(opened, 'quota').getByRole('alert').textContent()).toBe('The quota must be an integer')
				await field(opened, 'QuotaForNewUser').fill('300')
				await section(opened, 'quota').getByRole('button', { name: 'Save quota settings' }).click()
				await toast(opened, 'Saved')
				expect(options().get('QuotaForNewUser')).toBe(300)
			}, { language: 'en' })
		} finally {
			await options().set('DisplayInCurrencyEnabled', 'true')
			for (const key of ['QuotaForNewUser', 'QuotaForInvitee']) await options().set(key, '0')
			await options().set('QuotaRemindThreshold', '1000')
		}
	}, 60_000)

	test('says a JSON field is not valid when it loses focus, and saves nothing while it is not', async () => {
		const before = options().get('UserUsableGroups')
		await withPage('/setting?tab=operation', async (opened) => {
			const usable = field(opened, 'UserUsableGroups')
			await usable.fill('{"default": "default group",')
			expect(await section(opened, 'group').getByRole('alert').count()).toBe(0)
			await usable.blur()
			expect(await section(opened, 'group').getByRole('alert').textContent()).toBe('不是合法的 JSON 字符串')
			await section(opened, 'group').getByRole('button', { name: '保存分组设置' }).click()
			await toast(opened, '请检查输入')
			expect(opened.paths).not.toContain('/api/option/')
			expect(options().get('UserUsableGroups')).toEqual(before)
		})
	}, 30_000)

	test('refuses payment settings before the server address is saved, then saves them with slashes stripped', async () => {
		await withPage('/setting?tab=system', async (opened) => {
			const payment = section(opened, 'payment')
			await field(opened, 'EpayId').fill('1001')
			await field(opened, 'EpayKey').fill('epay-merchant-key')
			await payment.getByRole('button', { name: '更新支付设置' }).click()
			await toast(opened, '请先填写服务器地址')
			expect(opened.paths).not.toContain('/api/option/')
			expect(options().get('EpayId')).toBe('')

			await field(opened, 'ServerAddress').fill('https://ferry.example//')
			await section(opened, 'server').getByRole('button', { name: '更新服务器地址' }).click()
			await toast(opened, '保存成功')
			expect(options().get('ServerAddress')).toBe('https://ferry.example')
			await opened.page.waitForFunction(() => (document.querySelector('#option-ServerAddress') as HTMLInputElement).value === 'https://ferry.example')

			await field(opened, 'PayAddress').fill('https://pay.example/')
			await payment.getByRole('button', { name: '更新支付设置' }).click()
			await toast(opened, '保存成功')
			expect(options().get('EpayId')).toBe('1001')
			expect(options().get('EpayKey')).toBe('epay-merchant-key')
			expect(options().get('PayAddress')).toBe('https://pay.example')
			// A saved secret is not kept in the page: the field is empty again and keeps the stored key.
			expect(await field(opened, 'EpayKey').inputValue()).toBe('')
		})
	}, 60_000)

	test('checks the payment JSON options with their own messages, and shows the server\'s refusal', async () => {
		// Payment settings need a server address (saved by the test above when the file runs whole).
		if (!options().get('ServerAddress')) await options().set('ServerAddress', 'https://ferry.example')
		await withPage('/setting?tab=system', async (opened) => {
			const payment = section(opened, 'payment')
			await field(opened, 'PayMethods').fill('[{"name": "Alipay"')
			await field(opened, 'PayMethods').blur()
			expect(await payment.getByRole('alert').textContent()).toBe('充值方式设置不是合法的 JSON 字符串')
			await payment.getByRole('button', { name: '更新支付设置' }).click()
			await toast(opened, '请检查输入')

			// Valid JSON of the wrong shape passes the page's check; the server refuses it.
			await field(opened, 'PayMethods').fill('[{"name": 7}]')
			await payment.getByRole('button', { name: '更新支付设置' }).click()
			// One toast: the outcome, then the server's reason, in the console's language.
			await toast(opened, /^保存失败，请重试：PayMethods 的值无效：不是有效的 JSON 字符串：/)
			expect(options().get('PayMethods')[0]?.type).toBe('alipay')
		})
	}, 30_000)

	test('the channel editor\'s link opens the ratio table on the channels\' models without a price, which a ratio then prices', async () => {
		await harness.ferry.call('POST', '/api/channel/', { as: harness.root, body: { type: 1, name: 'lan', key: 'sk-lan', base_url: 'https://1.1.1.1', models: 'gpt-4o,lan-llama' } })
		await withPage('/setting?tab=operation&unpriced=true#model-ratio', async (opened) => {
			const { page } = opened
			const table = page.getByTestId('ratio-visual-table')
			await table.locator('tr[data-model="lan-llama"]').waitFor()
			expect(await page.getByRole('switch', { name: /只看没有价格的模型/ }).getAttribute('aria-checked')).toBe('true')
			expect(await table.locator('tbody tr[data-model]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model')))).toEqual(['lan-llama'])
			const row = table.locator('tr[data-model="lan-llama"]')
			expect(await row.getByTestId('unpriced').textContent()).toBe('没有价格')
			await row.getByLabel('模型倍率').fill('1.5')
			await table.getByRole('button', { name: '应用更改' }).click()
			await toast(opened, '保存成功')
			expect(options().get('ModelRatio')['lan-llama']).toBe(1.5)
			// Off, every model shows again.
			await page.getByRole('switch', { name: /只看没有价格的模型/ }).click()
			expect(await table.locator('tbody tr[data-model]').count()).toBe(10)
			await harness.screenshot(page, 'settings-ratio-unpriced-1400')
		})
	}, 30_000)

	test('adds a model in the visual ratio table, refuses duplicates and non-numbers, and applies the change', async () => {
		await withPage('/setting?tab=operation', async (opened) => {
			const { page } = opened
			const area = section(opened, 'model-ratio')
			await area.getByRole('tab', { name: '可视化编辑' }).click()
			const table = page.getByTestId('ratio-visual-table')
			expect(await table.locator('tbody tr[data-model]').count()).toBe(10)

			await table.getByRole('button', { name: '添加模型' }).click()
			const dialog = page.getByRole('dialog')
			await dialog.getByLabel('模型名称').fill('harbour-model')
			await dialog.getByLabel('模型倍率').fill('3x')
			await toast(opened, '请输入数字')
			expect(await dialog.getByLabel('模型倍率').inputValue()).toBe('')
			await dialog.getByLabel('固定价格（美元/次）').fill('0.5')
			expect(await dialog.getByLabel('模型倍率').isDisabled()).toBe(true)
			await dialog.getByLabel('固定价格（美元/次）').fill('')
			await dialog.getByLabel('模型倍率').fill('3')
			await dialog.getByLabel('补全倍率').fill('2')
			await dialog.getByRole('button', { name: '添加', exact: true }).click()
			await dialog.waitFor({ state: 'detached', timeout: 5_000 })

			await table.getByRole('button', { name: '添加模型' }).click()
			await dialog.getByLabel('模型名称').fill('harbour-model')
			await dialog.getByRole('button', { name: '添加', exact: true }).click()
			await toast(opened, '模型名称已存在')
			await dialog.getByRole('button', { name: '取消' }).click()
			await dialog.waitFor({ state: 'detached', timeout: 5_000 })

			await table.getByLabel('搜索模型名称').fill('harbour')
			const row = table.locator('tr[data-model="harbour-model"]')
			expect(await table.locator('tbody tr[data-model]').count()).toBe(1)
			await row.getByLabel('固定价格（美元/次）').fill('0.2')
			expect(await row.getByLabel('模型倍率').isDisabled()).toBe(true)
			await row.getByLabel('固定价格（美元/次）').fill('')
			await table.getByRole('button', { name: '应用更改' }).click()
			await toast(opened, '保存成功')
			expect(options().get('ModelRatio')['harbour-model']).toBe(3)
			expect(options().get('CompletionRatio')['harbour-model']).toBe(2)
			expect(options().get('ModelPrice')).not.toHaveProperty('harbour-model')

			await area.getByRole('tab', { name: 'JSON 视图' }).click()
			expect(JSON.parse(await field(opened, 'ModelRatio').inputValue())['harbour-model']).toBe(3)
		})
	}, 60_000)

	test('clears the logs older than a month by default and shows how many went', async () => {
		const { logs } = harness.ferry.store.tables
		const now = Math.floor(Date.now() / 1000)
		const entry = (createdAt: number) => ({ userId: root.userId, username: 'root', type: LOG_TYPE.consume, createdAt, modelName: 'gpt-4o-mini', content: 'old call' })
		await harness.ferry.store.db.insert(logs).values([...Array.from({ length: OLD_LOG_COUNT }, (_, index) => entry(now - (40 + index) * DAY_SECONDS)), entry(now)])
		await withPage('/setting?tab=operation', async (opened) => {
			await section(opened, 'log').getByRole('button', { name: '清除历史日志' }).click()
			await opened.page.getByRole('alertdialog').getByRole('button', { name: '清除' }).click()
			await toast(opened, `${OLD_LOG_COUNT} 条日志已清理！`)
		})
		const left = await harness.ferry.store.db.select().from(logs)
		expect(left.filter((row) => row.content === 'old call').map((row) => row.createdAt)).toEqual([now])
	}, 30_000)

	test('asks before turning password login off, and turns it back on without asking', async () => {
		await withPage('/setting?tab=system', async (opened) => {
			const { page } = opened
			const toggle = field(opened, 'PasswordLoginEnabled')
			expect(await toggle.getAttribute('aria-checked')).toBe('true')
			await toggle.click()
			const confirm = page.getByRole('alertdialog')
			expect(await confirm.textContent()).toContain('关闭后，所有没有绑定其他登录方式的用户（包括管理员）都将无法再登录。')
			await confirm.getByRole('button', { name: '取消' }).click()
			await confirm.waitFor({ state: 'detached', timeout: 5_000 })
			expect(options().get('PasswordLoginEnabled')).toBe(true)
			expect(await toggle.getAttribute('aria-checked')).toBe('true')

			await toggle.click()
			await confirm.getByRole('button', { name: '确定' }).click()
			await toast(opened, '保存成功')
			expect(options().get('PasswordLoginEnabled')).toBe(false)
			await page.waitForFunction(() => document.querySelector('#option-PasswordLoginEnabled')?.getAttribute('aria-checked') === 'false')

			await toggle.click()
			await page.waitForFunction(() => document.querySelector('#option-PasswordLoginEnabled')?.getAttribute('aria-checked') === 'true')
			expect(await page.getByRole('alertdialog').count()).toBe(0)
			expect(options().get('PasswordLoginEnabled')).toBe(true)
		})
	}, 30_000)

	test('hydrates the three tabs without errors in zh and en', async () => {
		for (const language of ['zh', 'en'] as const) {
			for (const tab of ['operation', 'system', 'other']) {
				const opened = await harness.open(`/setting?tab=${tab}`, { as: root, language })
				try {
					await opened.page.getByTestId(`${tab}-tab`).waitFor()
					expectNoErrors(opened)
				} finally {
					await opened.close()
				}
			}
		}
	}, 60_000)

	test('on a 390 px phone every switch\'s label wraps beside its switch, not under it (en)', async () => {
		await withPage('/setting?tab=operation', async ({ page }) => {
			await page.getByTestId('operation-tab').waitFor()
			const misplaced = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-option]')].flatMap((option) => {
				const control = option.querySelector('[role="switch"]')?.getBoundingClientRect()
				const label = option.querySelector('label')?.getBoundingClientRect()
				if (!control || !label) return []
				const beside = label.left >= control.right && label.top < control.bottom && label.bottom > control.top
				return beside ? [] : [option.dataset.option]
			}))
			expect(misplaced).toEqual([])
		}, { width: 390, language: 'en' })
	}, 30_000)

	test('at 1366 px the section list keeps its long English names in its column, off the sections', async () => {
		for (const tab of ['operation', 'system']) {
			await withPage(`/setting?tab=${tab}`, async ({ page }) => {
				await page.getByTestId(`${tab}-tab`).waitFor()
				const overlapping = await page.evaluate((testId) => {
					const sections = document.querySelector(`[data-testid="${testId}"] > div`)!.getBoundingClientRect()
					return [...document.querySelectorAll<HTMLElement>(`[data-testid="${testId}"] > nav a`)].filter((link) => link.scrollWidth > link.clientWidth || link.getBoundingClientRect().right > sections.left).map((link) => link.textContent)
				}, `${tab}-tab`)
				expect({ tab, overlapping }).toEqual({ tab, overlapping: [] })
			}, { width: 1366, language: 'en' })
		}
	}, 30_000)

	describe('routing and session affinity', () => {
		const BAD_RULES = '[{"model":"claude-*","header":"x-a","body":"metadata.user_id"}]'
		const policy = (opened: OpenedPage, label: string) => section(opened, 'routing').getByRole('combobox', { name: label, exact: true })
		async function choose(opened: OpenedPage, label: string, option: string) {
			await policy(opened, label).click()
			await opened.page.getByRole('option', { name: option, exact: true }).click()
		}
		/**
		 * The section alone (docs/screenshots/console keeps a copy), in a window tall enough to hold it,
		 * so that the sticky header and section list are not stitched over it.
		 */
		async function screenshotSection(opened: OpenedPage, id: string, name: string) {
			const { page } = opened
			await page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('section[aria-live] button').forEach((button) => button.click()))
			const viewport = page.viewportSize()!
			const box = (await section(opened, id).boundingBox())!
			await page.setViewportSize({ width: viewport.width, height: Math.ceil(box.height) + 400 })
			await section(opened, id).scrollIntoViewIfNeeded()
			mkdirSync(screenshotDirectory, { recursive: true })
			await section(opened, id).screenshot({ path: join(screenshotDirectory, `${name}.png`) })
			await page.setViewportSize(viewport)
		}

		test('saves a policy per group, the affinity switches, bounds and rules under the keys the router reads; a rules list of the wrong shape is refused in Chinese (zh, 1400 px)', async () => {
			await options().set('GroupRatio', '{"default":1,"vip":1.5,"svip":2}')
			await withPage('/setting?tab=operation', async (opened) => {
				const { page } = opened
				await page.getByRole('navigation', { name: '运营设置导航' }).getByRole('link', { name: '路由与会话亲和' }).click()
				const routing = section(opened, 'routing')
				expect(await routing.getByTestId('routing-policies').textContent()).toContain('最少并发选本节点上进行中的调用最少的密钥')
				expect(await routing.getByTestId('routing-policies').textContent()).toContain('最低成本最高优先级的渠道中选该模型成本最低的渠道')
				expect(await policy(opened, '分组 vip 的路由策略').textContent()).toBe('加权随机（默认）')
				await choose(opened, '分组 vip 的路由策略', '最低延迟')
				await choose(opened, '分组 svip 的路由策略', '最低成本')
				await choose(opened, '分组 default 的路由策略', '严格优先级')
				await choose(opened, '分组 default 的路由策略', '加权随机（默认）')
				await field(opened, 'AffinityDefaultSourcesEnabled').click()
				await field(opened, 'AffinityTTLSeconds').fill('600')
				await field(opened, 'AffinityMaxEntries').fill('5000')
				await field(opened, 'AffinityRules').fill(BAD_RULES)
				await routing.getByRole('button', { name: '保存路由设置' }).click()
				await toast(opened, '部分保存失败，请重试：AffinityRules 的值无效：不是有效的 JSON 字符串：无效输入')
				expect(options().get('AffinityRules')).toEqual([])
				expect(options().get('GroupRoutingPolicy')).toEqual({ vip: 'least_latency', svip: 'least_cost' })

				await routing.getByRole('button', { name: '填入模板：会话规则' }).click()
				await routing.getByRole('button', { name: '保存路由设置' }).click()
				await toast(opened, '保存成功')
				expect(options().get('AffinityDefaultSourcesEnabled')).toBe(false)
				expect(options().get('AffinityEnabled')).toBe(true)
				expect(options().get('AffinityTTLSeconds')).toBe(600)
				expect(options().get('AffinityMaxEntries')).toBe(5000)
				expect(options().get('AffinityRules')).toEqual([
					{ model: 'claude-*', path: '/v1/messages', body: 'metadata.conversation_id' },
					{ header: 'x-conversation-id' },
				])
				await routing.getByRole('button', { name: '保存路由设置' }).click()
				await toast(opened, '没有需要保存的修改')

				await page.reload()
				await page.waitForFunction(() => window.__hydrated === true)
				expect(await policy(opened, '分组 vip 的路由策略').textContent()).toBe('最低延迟')
				expect(await policy(opened, '分组 default 的路由策略').textContent()).toBe('加权随机（默认）')
				expect(await field(opened, 'AffinityDefaultSourcesEnabled').getAttribute('aria-checked')).toBe('false')
				expect(await field(opened, 'AffinityTTLSeconds').inputValue()).toBe('600')
				await screenshotSection(opened, 'routing', 'settings-routing-1400-zh-light')
			}, { width: 1400, language: 'zh', theme: 'light' })
		}, 60_000)

		test('forgets one session named with its user and model, then every session, and refuses a rules list of the wrong shape in English (en, 390 px)', async () => {
			const { affinity } = harness.ferry.dependencies
			affinity.set(sessionId(7, 'gpt-5', 'conversation-a'), { channelId: 1, keyIndex: 2 })
			affinity.set(sessionId(7, 'gpt-5', 'conversation-b'), { channelId: 1, keyIndex: 3 })
			await withPage('/setting?tab=operation', async (opened) => {
				const { page } = opened
				const sessions = section(opened, 'affinity-sessions')
				await sessions.getByLabel('Session value', { exact: true }).fill('conversation-a')
				await sessions.getByRole('button', { name: 'Forget this session', exact: true }).click()
				await toast(opened, 'To forget one session, fill in its user ID, model and session value')
				expect(await sessions.getByLabel('User ID', { exact: true }).getAttribute('aria-invalid')).toBe('true')
				expect(opened.paths).not.toContain('/api/affinity/purge')
				await sessions.getByLabel('User ID', { exact: true }).fill('7')
				await sessions.getByLabel('Model', { exact: true }).fill('gpt-5')
				await sessions.getByRole('button', { name: 'Forget this session', exact: true }).click()
				await toast(opened, '1 session purged')
				expect(await affinity.get(sessionId(7, 'gpt-5', 'conversation-a'))).toBeUndefined()
				expect(await affinity.get(sessionId(7, 'gpt-5', 'conversation-b'))).toEqual({ channelId: 1, keyIndex: 3 })
				expect(await sessions.getByLabel('Session value', { exact: true }).inputValue()).toBe('')

				await sessions.getByRole('button', { name: 'Forget all sessions', exact: true }).click()
				await page.getByRole('alertdialog').getByRole('button', { name: 'Clear', exact: true }).click()
				await toast(opened, '1 session purged')
				expect(await affinity.get(sessionId(7, 'gpt-5', 'conversation-b'))).toBeUndefined()

				const routing = section(opened, 'routing')
				await field(opened, 'AffinityRules').fill('[{"model":"claude-*","headr":"x-thread"}]')
				await routing.getByRole('button', { name: 'Save routing settings' }).click()
				await toast(opened, 'Save failed, please retry: AffinityRules is not a valid JSON string: Unrecognized key: "headr"')
				expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
				await screenshotSection(opened, 'routing', 'settings-routing-390-en-dark')
				await screenshotSection(opened, 'affinity-sessions', 'settings-affinity-sessions-390-en-dark')
			}, { width: 390, language: 'en', theme: 'dark' })
		}, 60_000)
	})
})
