/**
 * The low-quota reminder (option `QuotaRemindThreshold`, docs/specification/tokens-and-money.md#the-low-quota-reminder): a user whose balance is
 * below the threshold after a call gets an email, at most once every 2 hours, from one node.
 *
 * The relay asks the settle for the balance only when the reminder could act (threshold set, mail
 * configured, the user not looked at recently on this node), and tells it the balance afterwards.
 * Nothing happens on the call's path: a balance at or above the threshold ends it there; otherwise
 * the work runs on a later turn of the event loop. One guarded update of
 * `users.quota_reminded_at` decides who sends, so of any number of nodes (and concurrent calls)
 * exactly one claims each 2-hour window; the claim also requires an email address and a balance
 * still below the threshold. Failures are logged, never thrown: a failed send is not retried
 * before the window ends, so a broken mail server gets one attempt per user per window.
 */
import { renderQuota } from '@shared/quota-display'
import { query } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { escapeHtml } from '@/lib/mailer'

/** "Low-quota warning email at most once per 2 hours" (docs/specification/tokens-and-money.md#the-low-quota-reminder). */
export const QUOTA_REMINDER_INTERVAL_SECONDS = 2 * 60 * 60
/** A claim this node lost (another node sent it, no email, balance back up): ask again after this long. */
const RECHECK_SECONDS = 5 * 60
/** Past this many remembered users, the ones whose quiet time is over are forgotten. */
const QUIET_MEMORY_LIMIT = 10_000

const CLAIM = `UPDATE users SET quota_reminded_at = $1
	WHERE id = $2 AND quota < $3 AND quota_reminded_at <= $4 AND email <> '' AND deleted_at IS NULL
	RETURNING username, email, quota`

type Claimed = { username: string; email: string; quota: number }

export interface QuotaReminder {
	/**
	 * Before settling a call: whether the reminder could act for this user now (threshold set, mail
	 * configured, the user not looked at recently), i.e. whether the settle should read the balance.
	 */
	wantsBalance(userId: number): boolean
	/** After a settled call: `balance` is the user's quota once it was settled. Returns at once. */
	afterSettle(userId: number, balance: number): void
	/** Tests: resolves once the reminders started so far have finished. */
	idle(): Promise<void>
}

export function createQuotaReminder({ store, options, mailer, logger }: Pick<Dependencies, 'store' | 'options' | 'mailer' | 'logger'>): QuotaReminder {
	/** Per node: until when a user needs no look in the database. */
	const quietUntil = new Map<number, number>()
	const running = new Set<Promise<void>>()

	function forgetPast(now: number) {
		if (quietUntil.size < QUIET_MEMORY_LIMIT) return
		for (const [userId, until] of quietUntil) if (until <= now) quietUntil.delete(userId)
	}

	async function remind(userId: number, threshold: number, now: number) {
		const [claimed] = await store.transaction(function* () {
			return yield* query<Claimed>(CLAIM, [now, userId, threshold, now - QUOTA_REMINDER_INTERVAL_SECONDS])
		})
		if (!claimed) {
			quietUntil.set(userId, now + RECHECK_SECONDS)
			return
		}
		await mailer.send(reminderMail(claimed, threshold))
		logger.info('sent a low-quota reminder', { userId })
	}

	function reminderMail(user: Claimed, threshold: number) {
		const display = { display_in_currency: options.get('DisplayInCurrencyEnabled'), quota_per_unit: options.get('QuotaPerUnit') }
		const systemName = options.get('SystemName') || 'Ferry'
		const serverAddress = options.get('ServerAddress')
		const topUp = serverAddress ? `${serverAddress}/topup` : ''
		return {
			to: user.email,
			subject: `${systemName}: your quota is running low`,
			html: `<p>Hello ${escapeHtml(user.username)},</p>`
				+ `<p>Your ${escapeHtml(systemName)} balance is ${escapeHtml(renderQuota(Number(user.quota), display))}, `
				+ `below the reminder threshold of ${escapeHtml(renderQuota(threshold, display))}. Top up in time so that your calls keep working.</p>`
				+ (topUp ? `<p><a href="${escapeHtml(topUp)}">Top up</a>: ${escapeHtml(topUp)}</p>` : '')
				+ `<p>This reminder is sent at most once every ${QUOTA_REMINDER_INTERVAL_SECONDS / 3600} hours.</p>`,
		}
	}

	const wantsBalance = (userId: number, now = nowSeconds()) =>
		options.get('QuotaRemindThreshold') > 0 && options.get('SMTPServer').trim() !== '' && (quietUntil.get(userId) ?? 0) <= now

	return {
		wantsBalance,
		afterSettle(userId, balance) {
			const threshold = options.get('QuotaRemindThreshold')
			const now = nowSeconds()
			if (balance >= threshold || !wantsBalance(userId, now)) return
			forgetPast(now)
			// Quiet at once, so this node's concurrent calls do not each try; a lost claim shortens it.
			quietUntil.set(userId, now + QUOTA_REMINDER_INTERVAL_SECONDS)
			const work = new Promise<void>((resolve) => setImmediate(resolve))
				.then(() => remind(userId, threshold, now))
				.catch((error) => logger.error('the low-quota reminder failed', { userId, error: (error as Error).message ?? String(error) }))
				.finally(() => running.delete(work))
			running.add(work)
		},
		async idle() {
			while (running.size > 0) await Promise.all(running)
		},
	}
}
