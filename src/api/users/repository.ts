/** Reads and small writes of `users` shared by the account and administration services. */
import { and, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { MAX_QUOTA } from '@shared/quota-limit'
import type { Dependencies } from '@/dependencies'
import { grantWithLine } from '@/billing/subscriptions'
import { SUBSCRIPTION_SOURCE } from '@shared/plan-constants'
import { nowSeconds } from '@/lib/clock'
import { applyCredit } from '@/billing/ledger'
import { rows, run, type Database, type Store, type Tables, type Work } from '@/db'
import { randomString } from '@/lib/crypto'
import type { UserRecord } from '@/db/stores/users'
import { logLine } from '@shared/messages/logs'

export async function usernameTaken(store: Store, username: string, exceptId = 0): Promise<boolean> {
	const { users } = store.tables
	const [row] = await store.db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1)
	return row !== undefined && row.id !== exceptId
}

/** Ends every session of the user (docs/operations/security.md#sessions-and-roles). */
export async function endSessions(store: Store, userId: number) {
	const { users } = store.tables
	const [row] = await store.db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, userId)).returning({ sessionVersion: users.sessionVersion })
	return row?.sessionVersion
}

export const newAffCode = () => randomString(8)

/** `column + amount`, saturating at MAX_QUOTA: invitation income piles up without a bound otherwise. */
const addCapped = (column: SQLWrapper, amount: number) =>
	sql`CASE WHEN ${column} > ${MAX_QUOTA - amount} THEN ${MAX_QUOTA} ELSE ${column} + ${amount} END`

type NewAccount = Omit<Tables['users']['$inferInsert'], 'affCode' | 'inviterId'>

/** The quota a new account brings (docs/specification/accounts-and-settings.md#accounts, Quota options); zero means none and no log line. */
interface SignUpRewards {
	/** `QuotaForNewUser`: credited to every new account. */
	newUser: number
	/** `QuotaForInvitee`: credited to an account registered through a valid invitation code. */
	invitee: number
	/** `QuotaForInviter`: added to the inviter's pending invitation income, not to the balance. */
	inviter: number
	/** `InviterRewardOnFirstTopUp`: the inviter's reward waits for the invitee's first paid top-up (`payInviterReward`). */
	inviterOnFirstTopUp?: boolean
	/** `DefaultPlanId`: the plan every new account gets (0: none; a deleted plan gives none). */
	planId: number
	/** Told once a plan was granted (the subscription books of every node must learn of it). */
	subscribed?: () => Promise<void>
}

const NO_SIGN_UP_REWARDS: SignUpRewards = Object.freeze({ newUser: 0, invitee: 0, inviter: 0, planId: 0 })

export function signUpRewards(dependencies: Pick<Dependencies, 'options' | 'changes' | 'subscriptions'>): SignUpRewards {
	const { options } = dependencies
	return {
		newUser: options.get('QuotaForNewUser'), invitee: options.get('QuotaForInvitee'), inviter: options.get('QuotaForInviter'), planId: options.get('DefaultPlanId'),
		inviterOnFirstTopUp: options.get('InviterRewardOnFirstTopUp'),
		subscribed: async () => {
			dependencies.changes.notify('subscriptions')
			await dependencies.subscriptions.reload()
		},
	}
}

/** The live user whose invitation code this is, if any. */
export async function findInviter(store: Store, invitationCode: string): Promise<{ id: number } | undefined> {
	if (!invitationCode) return undefined
	const { users } = store.tables
	const [inviter] = await store.db.select({ id: users.id }).from(users).where(and(eq(users.affCode, invitationCode), isNull(users.deletedAt))).limit(1)
	return inviter
}

/** The inviter's reward reaching their pending and total invitation income (not the balance). */
function* addInvitationIncome(tx: Database, tables: Tables, inviterId: number, amount: number) {
	const { users } = tables
	yield* rows(tx.update(users).set({
		affQuota: addCapped(users.affQuota, amount),
		affHistoryQuota: addCapped(users.affHistoryQuota, amount),
	}).where(eq(users.id, inviterId)).returning({ id: users.id }))
}

/**
 * Creates an account, crediting the invitation to the owner of `invitationCode` (an unknown or
 * stale code is ignored, so an old link never blocks a sign-up; callers that require an
 * invitation check it first). In the same transaction as the
 * insert: the new-user plan is granted, the new account's rewards go through the ledger as system credits with their log lines,
 * and the inviter's count and pending and total invitation income move (pending income becomes
 * balance only through the transfer, which is the ledger credit). With `inviterOnFirstTopUp` the
 * inviter's income does not move yet: the amount is recorded on the new account as owed, and
 * `payInviterReward` moves it when that account's first paid top-up is credited.
 */
export async function createAccount(store: Store, account: NewAccount, invitationCode = '', rewards: SignUpRewards = NO_SIGN_UP_REWARDS): Promise<UserRecord> {
	const inviter = await findInviter(store, invitationCode)
	const rewardOwed = inviter && rewards.inviterOnFirstTopUp ? rewards.inviter : 0
	let planGranted = false
	const created = await store.transaction(function* (tx, tables) {
		const [created] = yield* rows(tx.insert(tables.users).values({ ...account, affCode: newAffCode(), inviterId: inviter?.id ?? 0, pendingInviterReward: rewardOwed }).returning())
		let quota = created!.quota
		if (rewards.planId > 0) {
			const { plans } = tables
			const [plan] = yield* rows(tx.select().from(plans).where(and(eq(plans.id, rewards.planId), isNull(plans.deletedAt))).limit(1))
			if (plan) {
				const now = nowSeconds()
				planGranted = (yield* grantWithLine(tx, tables, { userId: created!.id, plan, source: SUBSCRIPTION_SOURCE.default, reference: `default:${created!.id}`, price: 0, now },
					'plan.default_granted', { plan: plan.id, name: plan.name })) !== undefined
			}
		}
		if (rewards.newUser > 0) {
			quota = yield* applyCredit(tx, tables, { userId: created!.id, amount: rewards.newUser, type: LOG_TYPE.system, ...logLine('user.new_user_bonus', { quota: rewards.newUser }) })
		}
		if (inviter) {
			const { users } = tables
			yield* rows(tx.update(users).set({ affCount: sql`${users.affCount} + 1` }).where(eq(users.id, inviter.id)).returning({ id: users.id }))
			if (!rewards.inviterOnFirstTopUp) yield* addInvitationIncome(tx, tables, inviter.id, rewards.inviter)
			if (rewards.invitee > 0) {
				quota = yield* applyCredit(tx, tables, {
					userId: created!.id, amount: rewards.invitee, type: LOG_TYPE.system,
					...logLine('user.invitee_bonus', { quota: rewards.invitee, inviter: inviter.id }),
				})
			}
		}
		return { ...created!, quota }
	})
	if (planGranted) await rewards.subscribed?.()
	return created
}

/** An inviter's reward paid on the invitee's first paid top-up. */
export type InviterReward = { inviterId: number; quota: number }

/**
 * A unit of work for the transaction that credits a paid top-up of `inviteeId`: moves the reward
 * its inviter is owed (if any) to the inviter's pending and total invitation income, once. The
 * owed amount is cleared by a guarded update, so repeated or concurrent payments (which lock the
 * invitee's row before this runs) pay it exactly once. A deleted inviter gets nothing, and the debt
 * is cleared all the same. Answers what was paid, to whom.
 */
export function* payInviterReward(tx: Database, tables: Tables, inviteeId: number): ReturnType<Work<InviterReward | undefined>> {
	const { users } = tables
	const [invitee] = yield* rows(tx.select({ inviterId: users.inviterId, owed: users.pendingInviterReward }).from(users).where(eq(users.id, inviteeId)).limit(1))
	if (!invitee || invitee.owed <= 0) return undefined
	const cleared = yield* run(tx.update(users).set({ pendingInviterReward: 0 })
		.where(and(eq(users.id, inviteeId), eq(users.pendingInviterReward, invitee.owed))))
	if (cleared !== 1) return undefined
	const [inviter] = yield* rows(tx.select({ id: users.id }).from(users).where(and(eq(users.id, invitee.inviterId), isNull(users.deletedAt))).limit(1))
	if (!inviter) return undefined
	yield* addInvitationIncome(tx, tables, inviter.id, invitee.owed)
	return { inviterId: inviter.id, quota: invitee.owed }
}
