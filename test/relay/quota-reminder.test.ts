/**
 * The low-quota reminder (issue 12 item 11, docs/specification/tokens-and-money.md#the-low-quota-reminder): real relay calls through a fake upstream
 * bring a balance below `QuotaRemindThreshold`; the user gets one email through SMTP (a fake relay
 * on loopback), at most once every 2 hours, from one node of several sharing the database.
 */
import { afterEach, beforeEach, describe, expect, setSystemTime, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { DEFAULT_MODEL_PRICE } from '@shared/default-prices'
import { QUOTA_REMINDER_INTERVAL_SECONDS } from '@/billing/quota-reminder'
import type { Store } from '@/db'
import { type Logger, silentLogger } from '@/lib/logger'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { type FakeSmtp, startFakeSmtp } from '../helpers/fake-smtp'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

/** A per-call price of $0.002: 1000 quota a call. */
const CALL_PRICE_USD = 0.002
const CALL_QUOTA = 1_000
const THRESHOLD = 1_500

for (const target of databaseTargets()) {
	describe(`the low-quota reminder on ${target.dialect}`, () => {
		let smtp: FakeSmtp
		const harnesses: RelayHarness[] = []

		beforeEach(async () => {
			smtp = await startFakeSmtp()
		})
		afterEach(async () => {
			// The second node's store is closed with the first (openTwo), so nodes close in reverse order.
			for (const harness of harnesses.reverse()) await harness.close()
			harnesses.length = 0
			smtp.stop()
			setSystemTime()
		})

		async function startNode(open: () => Promise<Store>, logger?: Logger) {
			const harness = await startRelayHarness({ ...target, open }, logger ? { logger } : {})
			harnesses.push(harness)
			return harness
		}

		/** Mail, a fixed-price model on a fake upstream, and the threshold; the quota shown as plain units. */
		async function configure(harness: RelayHarness) {
			const { options } = harness.ferry.dependencies
			await options.set('SMTPServer', smtp.host)
			await options.set('SMTPPort', String(smtp.port))
			await options.set('SMTPAccount', 'ferry@mail.test')
			await options.set('SMTPToken', 'smtp-token')
			await options.set('SystemName', 'Ferry Test')
			await options.set('ServerAddress', 'https://ferry.example')
			await options.set('DisplayInCurrencyEnabled', 'false')
			await options.set('QuotaRemindThreshold', String(THRESHOLD))
			await options.set('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, 'fixed-model': CALL_PRICE_USD }))
			const upstream = harness.startUpstream()
			await harness.createChannel({ base_url: upstream.url, models: 'fixed-model' })
		}

		async function fundedUser(harness: RelayHarness, username: string, quota: number, email: string) {
			const user = await harness.ferry.createUser(username)
			const edited = await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota, email } })
			if (!edited.body.success) throw new Error(`editing ${username} failed: ${edited.body.message}`)
			const token = await harness.createToken({ name: username }, user)
			return { user, key: token.key }
		}

		async function callOn(harness: RelayHarness, key: string) {
			await harness.client(key).chat.completions.create({ model: 'fixed-model', messages: [{ role: 'user', content: 'Hi' }] })
		}
		/** Every reminder a settled call started on these nodes has finished (mail accepted or failure logged). */
		const remindersDone = () => Promise.all(harnesses.map((harness) => harness.ferry.relay.quotaReminder.idle()))
		async function balanceOf(harness: RelayHarness, user: Caller) {
			const { users } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select({ quota: users.quota }).from(users).where(eq(users.id, user.userId))
			return row!.quota
		}

		test('a call that takes the balance below the threshold sends the user one email, and later calls within 2 hours send none', async () => {
			const node = await startNode(() => target.open())
			await configure(node)
			const { user, key } = await fundedUser(node, 'alice', 3 * CALL_QUOTA, 'alice@example.com')

			await callOn(node, key)
			await remindersDone()
			expect(await balanceOf(node, user)).toBe(2 * CALL_QUOTA)
			expect(smtp.messages).toHaveLength(0)

			await callOn(node, key)
			await remindersDone()
			expect(await balanceOf(node, user)).toBe(CALL_QUOTA)
			expect(smtp.messages).toHaveLength(1)
			const [mail] = smtp.messages
			expect(mail!.to).toEqual(['alice@example.com'])
			expect(mail!.subject).toContain('Ferry Test')
			expect(mail!.html).toContain(`balance is ${CALL_QUOTA}`)
			expect(mail!.html).toContain(`threshold of ${THRESHOLD}`)
			expect(mail!.html).toContain('https://ferry.example/topup')

			await callOn(node, key)
			await remindersDone()
			expect(await balanceOf(node, user)).toBe(0)
			expect(smtp.messages).toHaveLength(1)
		})

		test('sends again once 2 hours have passed, and never to a user without an email address', async () => {
			const node = await startNode(() => target.open())
			await configure(node)
			const { user, key } = await fundedUser(node, 'alice', 2 * CALL_QUOTA, 'alice@example.com')
			const silent = await fundedUser(node, 'bob', 2 * CALL_QUOTA, '')

			await callOn(node, key)
			await callOn(node, silent.key)
			await remindersDone()
			expect(smtp.messages.map((mail) => mail.to)).toEqual([['alice@example.com']])

			setSystemTime(new Date(Date.now() + (QUOTA_REMINDER_INTERVAL_SECONDS + 1) * 1000))
			await node.ferry.call('PUT', '/api/user/', { as: await node.ferry.loginRoot(), body: { id: user.userId, quota: CALL_QUOTA + 200 } })
			await callOn(node, key)
			await callOn(node, silent.key)
			await remindersDone()
			expect(await balanceOf(node, user)).toBe(200)
			expect(smtp.messages.map((mail) => mail.to)).toEqual([['alice@example.com'], ['alice@example.com']])
		})

		test('a mail server that cannot be reached fails only the reminder: the call is answered and billed, the failure logged', async () => {
			const failures: string[] = []
			const node = await startNode(() => target.open(), { ...silentLogger, error: (message) => failures.push(message) })
			await configure(node)
			const { user, key } = await fundedUser(node, 'alice', CALL_QUOTA + 100, 'alice@example.com')
			smtp.stop()
			await callOn(node, key)
			await remindersDone()
			expect(await balanceOf(node, user)).toBe(100)
			expect(failures).toEqual(['the low-quota reminder failed'])
		})

		test('with two nodes on one database, calls on both that cross the threshold at once send one email', async () => {
			const [first, second] = await target.openTwo()
			const nodeA = await startNode(async () => first)
			await configure(nodeA)
			const { user, key } = await fundedUser(nodeA, 'alice', THRESHOLD + CALL_QUOTA - 100, 'alice@example.com')
			// Started after the setup, so it reads the options, channel and token as they are now.
			const nodeB = await startNode(async () => ({ ...second, close: async () => {} }))

			await Promise.all([callOn(nodeA, key), callOn(nodeB, key)])
			await remindersDone()
			expect(await balanceOf(nodeA, user)).toBe(THRESHOLD - CALL_QUOTA - 100)
			expect(smtp.messages.map((mail) => mail.to)).toEqual([['alice@example.com']])
		})
	})
}
