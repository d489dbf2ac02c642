/**
 * Every user's active subscriptions, in memory, so that a call of a user who has none costs no
 * read at all: the hold stage asks here which subscriptions may pay a call (their ids and window
 * terms; the ledger checks their room), and which group a plan puts its subscriber in.
 *
 * The book is read whole at start-up and again whenever a subscription is granted or changed, on
 * this node or another (the change feed's `subscriptions` topic): a grant answers only once this
 * node's book has it, and other nodes have it within a second. A subscription past its end is
 * skipped when asked, whenever the book was read.
 */
import type { ChangeFeed } from '@/lib/change-feed'
import type { Logger } from '@/lib/logger'
import type { Store } from '@/db'
import { nowSeconds } from '@/lib/clock'
import type { PlanSource, PlanWindow } from './plan-holds'
import { readModels, readWindows } from './subscriptions'

export interface ActiveSubscription extends PlanSource {
	name: string
	/** Undefined: every model. */
	models: ReadonlySet<string> | undefined
	group: string
	expiresAt: number
	windows: readonly PlanWindow[]
}

export interface SubscriptionBook {
	/**
	 * The user's subscriptions that may pay for `model`, in the order the hold tries them (the one
	 * ending first first); empty for most users. A promise only while the book is being read again.
	 */
	sourcesFor(userId: number, model: string): readonly ActiveSubscription[] | Promise<readonly ActiveSubscription[]>
	/** The group the user's first active subscription with a group puts them in, if any. */
	groupOf(userId: number): string | undefined
	/** Reads the book again now (after a change on this node) and resolves once it has. */
	reload(): Promise<void>
}

const ACTIVE = `SELECT id, user_id, name, models, "group", windows, expires_at FROM subscriptions WHERE expires_at > $1 ORDER BY expires_at, id`

type Row = { id: number; user_id: number; name: string; models: string; group: string; windows: string; expires_at: number }

const NONE: readonly ActiveSubscription[] = []

export function createSubscriptionBook(store: Store, changes: ChangeFeed, logger: Logger): SubscriptionBook {
	let byUser = new Map<number, ActiveSubscription[]>()
	let reading: Promise<void> | undefined
	let again = false

	async function read() {
		const next = new Map<number, ActiveSubscription[]>()
		for (const row of await store.read<Row>(ACTIVE, [nowSeconds()])) {
			const models = readModels(row.models)
			const subscription: ActiveSubscription = {
				subscriptionId: Number(row.id), name: row.name, models: models.length > 0 ? new Set(models) : undefined,
				group: row.group, expiresAt: Number(row.expires_at), windows: readWindows(row.windows),
			}
			if (subscription.windows.length === 0) continue
			const userId = Number(row.user_id)
			const list = next.get(userId) ?? []
			list.push(subscription)
			next.set(userId, list)
		}
		byUser = next
	}

	/** One read at a time; a change during a read asks for one more after it. */
	function reload(): Promise<void> {
		if (reading) {
			again = true
			return reading
		}
		reading = (async () => {
			try {
				do {
					again = false
					await read()
				} while (again)
			} finally {
				reading = undefined
			}
		})()
		return reading
	}

	changes.subscribe('subscriptions', () => {
		reload().catch((error) => logger.error('reading the active subscriptions failed', { error: String(error) }))
	})

	const usable = (userId: number, model: string) => {
		const list = byUser.get(userId)
		if (!list) return NONE
		const now = nowSeconds()
		return list.filter((subscription) => subscription.expiresAt > now && (!subscription.models || subscription.models.has(model)))
	}

	return {
		sourcesFor(userId, model) {
			if (reading) return reading.then(() => usable(userId, model))
			return usable(userId, model)
		},
		groupOf(userId) {
			const list = byUser.get(userId)
			if (!list) return undefined
			const now = nowSeconds()
			return list.find((subscription) => subscription.group && subscription.expiresAt > now)?.group
		},
		reload,
	}
}
