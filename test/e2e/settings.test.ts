/**
 * The personal settings tab in Chromium against Ferry from source: what it shows after hydration,
 * and its actions end to end (model tags, invitation transfer, email binding, access token,
 * password change, account deletion), ending with root's default-password journey.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { ROOT_INITIAL_QUOTA } from '@/api/users/account'
import { DEFAULT_ROOT_PASSWORD, ROLE } from '@shared/user'
import type { Caller } from '../helpers/app'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'
import { type FakeSmtp, startFakeSmtp } from '../helpers/fake-smtp'
import { exemptFromLedgerAudit } from '../helpers/ledger-audit'

const QUOTA_PER_UNIT = 500_000
const MODEL_NAMES = Array.from({ length: 12 }, (_, index) => `model-${String(index + 1).padStart(2, '0')}`)
const PASSWORD = 'password123'
type Visitor = Caller & { username: string; role: number }

describe.skipIf(!browserExecutable)('the personal settings tab in a browser', () => {
	let harness: ConsoleHarness
	let smtp: FakeSmtp
	const visitors: Record<'sailor' | 'mate' | 'drifter', Visitor> = {} as never

	beforeAll(async () => {
		harness = await startConsoleHarness()
		smtp = await startFakeSmtp()
		const { options } = harness.ferry.dependencies
		await options.set('SMTPServer', smtp.host)
		await options.set('SMTPPort', String(smtp.port))
		await options.set('SMTPAccount', 'ferry@mail.test')
		await options.set('SMTPToken', 'smtp-token')
		for (const name of ['sailor', 'mate', 'drifter'] as const) {
			visitors[name] = { ...(await harness.ferry.createUser(name, ROLE.user, PASSWORD)), username: name, role: ROLE.user }
		}
		const { users } = harness.ferry.store.tables
		exemptFromLedgerAudit(harness.ferry.store, 'a balance written as a display fixture')
		await harness.ferry.store.db.update(users).set({ quota: QUOTA_PER_UNIT, affQuota: 2 * QUOTA_PER_UNIT }).where(eq(users.id, visitors.sailor.userId))
		await harness.createChannel({ name: 'harbour', base_url: harness.startUpstream().url, models: MODEL_NAMES.join(',') })
		// Only priced models are offered to users.
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify(Object.fromEntries(MODEL_NAMES.map((name) => [name, 1]))))
	}, 60_000)

	afterAll(async () => {
		smtp?.stop()
		await harness?.close()
	})

	const toast = (page: Page, text: string) => page.locator('section[aria-live]').getByText(text, { exact: true }).waitFor({ timeout: 10_000 })
	const balanceQuota = async (page: Page) => Number(await page.getByTestId('balance').getAttribute('data-quota'))

	test('hydrates the personal tab without errors in zh and en, with the balance and invitation link', async () => {
		for (const language of ['zh', 'en'] as const) {
			const opened = await harness.open('/setting', { as: visitors.sailor, language })
			try {
				const { page } = opened
				expect(await page.getByTestId('balance').textContent()).toBe('$1.00')
				expect(await balanceQuota(page)).toBe(QUOTA_PER_UNIT)
				const code = (await harness.ferry.call('GET', '/api/user/aff', { as: visitors.sailor })).body.data
				expect(await page.getByTestId('invitation-link').textContent()).toBe(`${harness.origin}/register?aff=${code}`)
				await page.getByText(language === 'zh' ? '待使用收益' : 'Pending income', { exact: true }).waitFor()
				expect(opened.paths).not.toContain('/api/user/token')
				expectNoErrors(opened)
			} finally {
				await opened.close()
			}
		}
	}, 60_000)

	test('shows ten model tags, expands and collapses the rest, and copies a model name on click', async () => {
		const opened = await harness.open('/setting', { as: visitors.sailor })
		try {
			const { page, context } = opened
			await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
			const tags = page.getByTestId('model-tags')
			expect(await tags.getByRole('button', { name: /^model-/ }).count()).toBe(10)
			await page.getByRole('button', { name: '更多 2 个模型' }).click()
			expect(await tags.getByRole('button', { name: /^model-/ }).count()).toBe(12)
			await page.getByRole('button', { name: '收起', exact: true }).click()
			expect(await tags.getByRole('button', { name: /^model-/ }).count()).toBe(10)
			await tags.getByRole('button', { name: 'model-03' }).click()
			await toast(page, '已复制到剪贴板')
			expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('model-03')
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('refuses a transfer below one unit and moves invitation income to the balance', async () => {
		const opened = await harness.open('/setting', { as: visitors.sailor })
		try {
			const { page } = opened
			await page.getByRole('button', { name: '划转到余额' }).click()
			const dialog = page.getByRole('dialog')
			// In the site's money unit (dollars here), as the balance is shown.
			await dialog.getByLabel('划转金额（美元）').fill('0.5')
			await dialog.getByRole('button', { name: '划转', exact: true }).click()
			await toast(page, '划转金额最低为 $1.00')
			expect(opened.paths).not.toContain('/api/user/aff_transfer')
			await dialog.getByLabel('划转金额（美元）').fill('1')
			await dialog.getByRole('button', { name: '划转', exact: true }).click()
			await toast(page, '划转成功')
			await page.waitForFunction((expected) => document.querySelector('[data-testid="balance"]')?.getAttribute('data-quota') === expected, String(2 * QUOTA_PER_UNIT))
			expect(await page.getByTestId('aff-quota').textContent()).toBe('$1.00')
			// The dialog closes with an exit animation; it is gone once the animation ends.
			await dialog.waitFor({ state: 'detached', timeout: 5_000 })
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('binds an email address with a mailed code after a 30 s resend countdown starts', async () => {
		const opened = await harness.open('/setting', { as: visitors.sailor })
		try {
			const { page } = opened
			const row = page.getByTestId('binding-email')
			expect(await row.textContent()).toContain('未绑定')
			await row.getByRole('button', { name: '绑定' }).click()
			const dialog = page.getByRole('dialog')
			await dialog.getByLabel('邮箱').fill('sailor@example.com')
			await dialog.getByRole('button', { name: '绑定', exact: true }).click()
			await toast(page, '邮箱和验证码都不能为空')
			await dialog.getByRole('button', { name: '获取验证码' }).click()
			await toast(page, '验证码发送成功，请检查邮箱')
			const resend = dialog.getByRole('button', { name: /^重新发送 \((30|29)\)$/ })
			expect(await resend.isDisabled()).toBe(true)
			const mail = smtp.messages.find((message) => message.to.includes('sailor@example.com'))!
			const code = /<strong>(\d{6})<\/strong>/.exec(mail.html)![1]!
			await dialog.getByLabel('验证码').fill(code)
			await dialog.getByRole('button', { name: '绑定', exact: true }).click()
			await toast(page, '邮箱绑定成功')
			await row.getByText('sailor@example.com').waitFor()
			const self = await harness.ferry.call('GET', '/api/user/self', { as: visitors.sailor })
			expect(self.body.data.email).toBe('sailor@example.com')
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('unbinds a bound service after confirming, and shows the refusal when it is the account\'s last way in', async () => {
		const { users } = harness.ferry.store.tables
		const anchor = await harness.ferry.createUser('anchor', ROLE.user, PASSWORD)
		await harness.ferry.store.db.update(users).set({ githubId: '5832', oidcId: 'anchor-sub' }).where(eq(users.id, anchor.userId))
		const opened = await harness.open('/setting', { as: anchor })
		try {
			const { page } = opened
			await page.getByTestId('unbind-github').click()
			await page.getByText('解绑后将不能再用 GitHub 登录此账户。').waitFor()
			await page.getByRole('alertdialog').getByRole('button', { name: '解绑' }).click()
			await toast(page, '解绑成功')
			await page.getByTestId('unbind-github').waitFor({ state: 'detached' })
			const [row] = await harness.ferry.store.db.select({ githubId: users.githubId, oidcId: users.oidcId }).from(users).where(eq(users.id, anchor.userId))
			expect(row).toEqual({ githubId: '', oidcId: 'anchor-sub' })

			// As if the account had been created through OIDC: no password of its own, no other binding.
			await harness.ferry.store.db.update(users).set({ passwordSet: false }).where(eq(users.id, anchor.userId))
			await page.getByTestId('unbind-oidc').click()
			await page.getByRole('alertdialog').getByRole('button', { name: '解绑' }).click()
			await toast(page, 'OIDC 是该账户唯一的登录方式，请先设置密码或绑定其他登录方式')
			expect(await page.getByTestId('unbind-oidc').isVisible()).toBe(true)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('generates a system access token on click, shows it once, and the token authenticates API calls', async () => {
		const opened = await harness.open('/setting', { as: visitors.sailor })
		try {
			const { page } = opened
			await page.getByRole('button', { name: '生成系统访问令牌' }).click()
			const token = await page.getByTestId('access-token').inputValue()
			expect(token.length).toBeGreaterThan(16)
			const self = await harness.ferry.call('GET', '/api/user/self', { headers: { authorization: token, 'new-api-user': String(visitors.sailor.userId) } })
			expect(self.body.data.username).toBe('sailor')
			await page.keyboard.press('Escape')
			await page.getByTestId('access-token').waitFor({ state: 'detached' })
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('changes the password only when both entries match and are 8 to 20 long, staying signed in', async () => {
		const opened = await harness.open('/setting', { as: visitors.mate })
		try {
			const { page } = opened
			await page.getByRole('button', { name: '修改密码' }).click()
			const dialog = page.getByRole('dialog')
			await dialog.getByLabel('新密码', { exact: true }).fill('short')
			await dialog.getByLabel('确认新密码').fill('short')
			await dialog.getByRole('button', { name: '确认修改' }).click()
			await toast(page, '密码长度不得小于 8 位')
			await dialog.getByLabel('新密码', { exact: true }).fill('anchorage-2024')
			await dialog.getByLabel('确认新密码').fill('anchorage-2025')
			await dialog.getByRole('button', { name: '确认修改' }).click()
			await toast(page, '两次输入的密码不一致')
			expect(opened.paths.filter((path) => path === '/api/user/self').length).toBe(0)
			await dialog.getByLabel('确认新密码').fill('anchorage-2024')
			await dialog.getByRole('button', { name: '确认修改' }).click()
			await toast(page, '密码修改成功')
			expect(await harness.ferry.call('POST', '/api/user/login', { body: { username: 'mate', password: 'anchorage-2024' } }).then((answer) => answer.body.success)).toBe(true)
			await page.reload()
			await page.waitForFunction(() => window.__hydrated === true)
			expect(new URL(page.url()).pathname).toBe('/setting')
			await page.getByTestId('balance').waitFor()
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)

	test('deletes the account only after the own username is typed, then goes to the login page (in English)', async () => {
		const opened = await harness.open('/setting', { as: visitors.drifter, language: 'en' })
		try {
			const { page } = opened
			await page.getByRole('button', { name: 'Delete personal account' }).click()
			const dialog = page.getByRole('dialog')
			await dialog.getByLabel('Account name').fill('sailor')
			await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
			await toast(page, 'Enter your account name to confirm deletion')
			expect(await dialog.count()).toBe(1)
			await dialog.getByLabel('Account name').fill('drifter')
			await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
			await page.waitForURL(`${harness.origin}/login`)
			expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()
			const login = await harness.ferry.call('POST', '/api/user/login', { body: { username: 'drifter', password: PASSWORD } })
			expect(login.body.success).toBe(false)
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)

	// Last: it changes root's password, which ends the harness's root session.
	test('root logging in with the default password is sent to /setting, sees the balance and changes the password there', async () => {
		const opened = await harness.open('/login')
		try {
			const { page } = opened
			await page.getByLabel('用户名', { exact: true }).fill('root')
			await page.getByLabel('密码', { exact: true }).fill(DEFAULT_ROOT_PASSWORD)
			await page.getByRole('button', { name: '登录', exact: true }).click()
			await page.getByRole('dialog').getByRole('button', { name: '前往修改密码' }).click()
			await page.waitForURL(`${harness.origin}/setting`)
			const balance = page.getByTestId('balance')
			await balance.waitFor()
			expect(await balanceQuota(page)).toBe(ROOT_INITIAL_QUOTA)
			expect(await balance.textContent()).toBe(`$${(ROOT_INITIAL_QUOTA / QUOTA_PER_UNIT).toFixed(2)}`)
			// The prompt opened the change-password dialog itself.
			const dialog = page.getByRole('dialog')
			await dialog.getByLabel('新密码', { exact: true }).fill('harbour-master-1')
			await dialog.getByLabel('确认新密码').fill('harbour-master-1')
			await dialog.getByRole('button', { name: '确认修改' }).click()
			await toast(page, '密码修改成功')
			const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'))
			expect(stored).toMatchObject({ username: 'root', password_change_required: false })
			const login = await harness.ferry.call('POST', '/api/user/login', { body: { username: 'root', password: 'harbour-master-1' } })
			expect(login.body.success).toBe(true)
			expectNoErrors(opened)
		} finally {
			await opened.close()
		}
	}, 30_000)
})
