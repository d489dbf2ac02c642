/**
 * Invitation rewards in Chromium (issue 6 "Done when"): a visitor registers through
 * `/register?aff=code`; the inviter's invitation card shows the pending and total income and the
 * invite, the invitee's balance holds the new-user and invitee quotas, and a transfer below the
 * minimum is refused in the card's dialog with the catalogue message.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { browserExecutable, type ConsoleHarness, expectNoErrors, startConsoleHarness } from '../helpers/browser'

const STEP_TIMEOUT = 15_000
const NEW_USER_QUOTA = 250_000
const INVITEE_QUOTA = 500_000
const INVITER_QUOTA = 1_000_000

describe.skipIf(!browserExecutable)('invitation rewards in the browser', () => {
	let harness: ConsoleHarness

	async function setOption(key: string, value: number) {
		const answer = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key, value: String(value) } })
		if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
	}

	beforeAll(async () => {
		harness = await startConsoleHarness()
	}, 60_000)

	afterAll(async () => {
		await harness?.close()
	})

	const toast = (page: Page, kind: 'success' | 'error', text: string) =>
		page.locator(`[data-kind="${kind}"]`).filter({ hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT })

	test('a registration through the invitation link rewards both sides, and the card refuses a transfer below the minimum', async () => {
		// 1. Root sets the three quota options through the API.
		await setOption('QuotaForNewUser', NEW_USER_QUOTA)
		await setOption('QuotaForInvitee', INVITEE_QUOTA)
		await setOption('QuotaForInviter', INVITER_QUOTA)
		const captain = { ...await harness.ferry.createUser('captain'), username: 'captain' }

		// 2. The inviter reads their invitation link on /setting.
		const inviter = await harness.open('/setting', { as: captain })
		await inviter.page.waitForFunction(() => document.querySelector('[data-testid="invitation-link"]')?.textContent?.startsWith('http'), undefined, { timeout: STEP_TIMEOUT })
		const link = (await inviter.page.getByTestId('invitation-link').textContent())!.trim()
		expect(link).toMatch(new RegExp(`^${harness.origin}/register\\?aff=\\w+$`))

		// 3. A visitor registers through it.
		const visitor = await harness.open(link.slice(harness.origin.length))
		await visitor.page.getByLabel('用户名', { exact: true }).fill('deckhand')
		await visitor.page.getByLabel('密码', { exact: true }).fill('deckhand-pass-1')
		await visitor.page.getByLabel('确认密码', { exact: true }).fill('deckhand-pass-1')
		await visitor.page.getByRole('button', { name: '注册', exact: true }).click()
		await visitor.page.waitForURL(`${harness.origin}/login`, { timeout: STEP_TIMEOUT })
		expectNoErrors(visitor)
		await visitor.close()

		// 4. The inviter's card shows the pending and total income and one invite; the balance did not move.
		await inviter.page.reload()
		await inviter.page.waitForFunction(() => window.__hydrated === true, undefined, { timeout: STEP_TIMEOUT })
		const card = inviter.page.getByTestId('invitation-card')
		expect(await card.getByTestId('aff-quota').textContent()).toBe('$2.00')
		expect(await card.getByTestId('aff-history-quota').textContent()).toBe('$2.00')
		expect(await card.getByTestId('aff-count').textContent()).toBe('1')
		expect(Number(await inviter.page.getByTestId('balance').getAttribute('data-quota'))).toBe(NEW_USER_QUOTA)

		// 5. The invitee's balance holds the new-user and invitee quotas.
		const deckhand = { ...await harness.ferry.login('deckhand', 'deckhand-pass-1'), username: 'deckhand' }
		const invitee = await harness.open('/setting', { as: deckhand })
		expect(Number(await invitee.page.getByTestId('balance').getAttribute('data-quota'))).toBe(NEW_USER_QUOTA + INVITEE_QUOTA)
		expect(await invitee.page.getByTestId('balance').textContent()).toBe('$1.50')
		expectNoErrors(invitee)
		await invitee.close()

		// 6. A transfer below one unit is refused in the dialog with the catalogue message; nothing moves.
		await card.getByRole('button', { name: '划转到余额' }).click()
		const dialog = inviter.page.getByRole('dialog')
		await dialog.getByLabel('划转金额（美元）').fill('0.2')
		await dialog.getByRole('button', { name: '划转', exact: true }).click()
		await toast(inviter.page, 'error', '划转金额最低为 $1.00')
		const account = await harness.ferry.call('GET', '/api/user/self', { as: captain })
		expect(account.body.data).toMatchObject({ quota: NEW_USER_QUOTA, aff_quota: INVITER_QUOTA })

		// 7. A transfer of one unit reaches the balance once, and the card follows.
		await dialog.getByLabel('划转金额（美元）').fill('1')
		await dialog.getByRole('button', { name: '划转', exact: true }).click()
		await toast(inviter.page, 'success', '划转成功')
		await card.getByTestId('aff-quota').filter({ hasText: '$1.00' }).waitFor({ timeout: STEP_TIMEOUT })
		expect(await card.getByTestId('aff-history-quota').textContent()).toBe('$2.00')
		const after = await harness.ferry.call('GET', '/api/user/self', { as: captain })
		expect(after.body.data).toMatchObject({ quota: NEW_USER_QUOTA + 500_000, aff_quota: INVITER_QUOTA - 500_000 })
		expectNoErrors(inviter)
		await inviter.close()
	}, 120_000)

	test('in English the dialog gives the specified wording: transfer amount minimum is …', async () => {
		const purser = { ...await harness.ferry.createUser('purser'), username: 'purser' }
		const opened = await harness.open('/setting', { as: purser, language: 'en' })
		await opened.page.getByTestId('invitation-card').getByRole('button', { name: 'Transfer to balance' }).click()
		const dialog = opened.page.getByRole('dialog')
		await dialog.getByLabel('Amount (USD)').fill('0.1')
		await dialog.getByRole('button', { name: 'Transfer', exact: true }).click()
		await toast(opened.page, 'error', 'transfer amount minimum is $1.00')
		expectNoErrors(opened)
		await opened.close()
	}, 60_000)
})
