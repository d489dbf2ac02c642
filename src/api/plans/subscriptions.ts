/**
 * A user's subscriptions as they see them (each window's use in its current period and when it
 * resets), and as admins see them, with the reset of a window (audit-trailed: the period ends
 * now and the next call starts a new one with the full allowance).
 */
import { and, desc, eq, gt, inArray } from 'drizzle-orm'
import { PLAN_MESSAGES, type SubscriptionView } from '@shared/plan'
import type { Dependencies } from '@/dependencies'
import { readModels, readWindows, resetWindowsWork, type SubscriptionRecord } from '@/billing/subscriptions'
import type { Store, Tables } from '@/db'
import { findUser } from '@/db/stores/users'
import { nowSeconds } from '@/lib/clock'
import { USER_MESSAGES } from '@shared/user'
import { userActionRefusal } from '@shared/user-permissions'
import { notFound, refused } from '../errors'
import { adminActionWork, named, type AdminActor } from '../admin-audit'

type PeriodRecord = Tables['subscriptionPeriods']['$inferSelect']

/** The subscription with the current period of each of its windows (a window with none has not started: it starts at the next use). */
export function toSubscriptionView(subscription: SubscriptionRecord, periods: readonly PeriodRecord[], now: number): SubscriptionView {
	const current = new Map<number, PeriodRecord>()
	for (const period of periods) {
		if (period.subscriptionId !== subscription.id || period.endsAt <= now) continue
		const known = current.get(period.windowIndex)
		if (!known || known.sequence < period.sequence) current.set(period.windowIndex, period)
	}
	return {
		id: subscription.id,
		plan_id: subscription.planId,
		name: subscription.name,
		source: subscription.source,
		price: subscription.price,
		models: readModels(subscription.models),
		group: subscription.group,
		starts_at: subscription.startsAt,
		expires_at: subscription.expiresAt,
		active: subscription.expiresAt > now,
		windows: readWindows(subscription.windows).map((window, index) => {
			const period = current.get(index)
			return period
				? { seconds: window.seconds, quota: period.quota, used: period.used, held: period.held, remaining: period.remain, resets_at: period.endsAt }
				: { seconds: window.seconds, quota: window.quota, used: 0, held: 0, remaining: window.quota, resets_at: null }
		}),
	}
}

/** The user's subscriptions, newest first: the active ones, or all of them. */
export async function listSubscriptions(store: Store, userId: number, all: boolean): Promise<SubscriptionView[]> {
	const { subscriptions, subscriptionPeriods } = store.tables
	const now = nowSeconds()
	const where = all ? eq(subscriptions.userId, userId) : and(eq(subscriptions.userId, userId), gt(subscriptions.expiresAt, now))
	const found = await store.db.select().from(subscriptions).where(where).orderBy(desc(subscriptions.id)).limit(100)
	if (found.length === 0) return []
	const periods = await store.db.select().from(subscriptionPeriods)
		.where(and(inArray(subscriptionPeriods.subscriptionId, found.map((subscription) => subscription.id)), gt(subscriptionPeriods.endsAt, now)))
	return found.map((subscription) => toSubscriptionView(subscription, periods, now))
}

/** A user an admin may see and change (never one of an equal or higher role). */
async function manageableUser(store: Store, actor: AdminActor, userId: number) {
	const user = await findUser(store, userId)
	if (!user) throw notFound(USER_MESSAGES.userNotFound)
	const refusal = userActionRefusal(actor, user, 'edit')
	if (refusal) throw refused(USER_MESSAGES[refusal])
	return user
}

/** `GET /api/user/:id/subscriptions`: every subscription of a user, for admins. */
export async function userSubscriptions({ store }: Dependencies, actor: AdminActor, userId: number) {
	await manageableUser(store, actor, userId)
	return listSubscriptions(store, userId, true)
}

/**
 * `POST /api/user/:id/subscriptions/:subscription/reset`: ends the current period of one window
 * (or of all), with a line in the admin audit trail; answers the subscription as it is then.
 */
export async function resetWindows({ store }: Dependencies, actor: AdminActor, userId: number, subscriptionId: number, windowIndex: number | undefined) {
	const user = await manageableUser(store, actor, userId)
	const { subscriptions } = store.tables
	const [subscription] = await store.db.select().from(subscriptions).where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId))).limit(1)
	if (!subscription) throw notFound(PLAN_MESSAGES.subscriptionNotFound)
	const windows = readWindows(subscription.windows)
	if (windowIndex !== undefined && windowIndex >= windows.length) throw refused(PLAN_MESSAGES.windowNotFound)
	const now = nowSeconds()
	const which = windowIndex === undefined ? 'all' : String(windowIndex)
	await store.transaction(function* (tx, tables) {
		const ended = yield* resetWindowsWork(subscription.id, now, windowIndex)
		const target = named(subscription.id, subscription.name)
		yield* adminActionWork(tx, tables, actor, {
			action: 'subscription.reset', target,
			summary: `reset the usage windows (${which}) of subscription ${target} of user ${named(user.id, user.username)}`,
			details: { user: named(user.id, user.username), windows: which, periods: ended },
		})
	})
	const [view] = (await listSubscriptions(store, userId, true)).filter((found) => found.id === subscription.id)
	return view!
}
