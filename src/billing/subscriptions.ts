/**
 * Subscriptions in the ledger: granting one (a purchase from the wallet, an online payment, a
 * redemption code, the new-user plan) and ending a window's period early (an admin's reset).
 *
 * A grant copies the plan's terms into the subscription and is keyed by a `reference` (unique),
 * so a payment's trade number or a code grants at most once. A purchase from the wallet is one
 * transaction: the user's row is locked, an active subscription to the same plan refuses it
 * (so double clicks and racing requests buy once), the price is debited through the ledger with
 * its log line (a negative system credit), and the subscription is inserted.
 */
import { and, eq, gt } from 'drizzle-orm'
import { z } from 'zod'
import { LOG_TYPE } from '@shared/log'
import { logLine, type LogLineCode, type LogLineValues } from '@shared/messages/logs'
import type { SubscriptionSource } from '@shared/plan-constants'
import { execute, rows, type Database, type Tables } from '@/db'
import { randomString } from '@/lib/crypto'
import { applyCredit } from './ledger'
import type { PlanWindow } from './plan-holds'

export type PlanRecord = Tables['plans']['$inferSelect']
export type SubscriptionRecord = Tables['subscriptions']['$inferSelect']

/** The plan's windows as stored (JSON); an unreadable value reads as none. */
export function readWindows(text: string): PlanWindow[] {
	try {
		const parsed: unknown = JSON.parse(text)
		if (!Array.isArray(parsed)) return []
		return parsed.filter((window): window is PlanWindow => typeof window?.seconds === 'number' && typeof window?.quota === 'number')
			.map((window) => ({ seconds: window.seconds, quota: window.quota }))
	} catch {
		return []
	}
}

/** A plan's or subscription's comma-separated models; empty: every model. */
export const readModels = (text: string): string[] => text.split(',').map((name) => name.trim()).filter(Boolean)

/** What a subscription copies from its plan, plus the price it was sold for (quota). */
export type PlanTerms = Pick<PlanRecord, 'name' | 'price' | 'durationSeconds' | 'windows' | 'models' | 'group'>

/** The shape of a plan order's recorded terms (`top_ups.plan_terms`). */
const planTermsSchema = z.object({
	name: z.string(),
	price: z.number().int().nonnegative(),
	durationSeconds: z.number().int().positive(),
	windows: z.array(z.object({ seconds: z.number(), quota: z.number() })).min(1),
	models: z.string(),
	group: z.string(),
})

/** A plan's terms as a plan order records them when it is opened. */
export function writePlanTerms(plan: PlanTerms): string {
	const { name, price, durationSeconds, windows, models, group } = plan
	return JSON.stringify({ name, price, durationSeconds, windows: readWindows(windows), models, group })
}

/** A plan order's recorded terms, or undefined when they cannot be read. */
export function readPlanTerms(text: string): PlanTerms | undefined {
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		return undefined
	}
	const terms = planTermsSchema.safeParse(parsed)
	return terms.success ? { ...terms.data, windows: JSON.stringify(terms.data.windows) } : undefined
}

/** A user who already has this plan, active, cannot buy it again until it ends. */
export class AlreadySubscribedError extends Error {
	constructor() {
		super('the user already has this plan')
	}
}

interface Grant {
	userId: number
	/** The plan (its id) and the terms the subscription copies. */
	plan: Pick<PlanRecord, 'id'> & Omit<PlanTerms, 'price'>
	source: SubscriptionSource
	/** Unique per grant: a second grant with the same reference is none. */
	reference: string
	/** What the user paid, in quota (0 for a code or the new-user plan). */
	price: number
	now: number
}

const LOCK_USER = 'UPDATE users SET quota = quota WHERE id = $1'

/**
 * Inserts the subscription with the plan's terms; answers it, or undefined when `reference` was
 * granted already (nothing changed).
 */
export function* grantWork(tx: Database, tables: Tables, { userId, plan, source, reference, price, now }: Grant) {
	const { subscriptions } = tables
	const [granted] = yield* rows(tx.insert(subscriptions).values({
		userId, planId: plan.id, name: plan.name, price, source, reference, models: plan.models, group: plan.group, windows: plan.windows,
		startsAt: now, expiresAt: now + plan.durationSeconds, createdAt: now,
	}).onConflictDoNothing({ target: subscriptions.reference }).returning())
	return granted
}

/** A grant with a log line on the user's account (quota 0: no money moves). */
export function* grantWithLine(tx: Database, tables: Tables, grant: Grant, code: LogLineCode, values: LogLineValues) {
	const granted = yield* grantWork(tx, tables, grant)
	if (!granted) return undefined
	const line = logLine(code, values)
	yield* rows(tx.insert(tables.logs).values({
		userId: grant.userId, type: LOG_TYPE.system, quota: 0, content: line.content, other: JSON.stringify(line.other), createdAt: grant.now,
	}).returning({ id: tables.logs.id }))
	return granted
}

/**
 * Buys `plan` for the user from the wallet: answers the subscription. Throws
 * `AlreadySubscribedError` when the user has it active, `InsufficientQuotaError` when the wallet
 * cannot pay (nothing changed either way).
 */
export function* purchaseWork(tx: Database, tables: Tables, userId: number, plan: PlanRecord, now: number) {
	if ((yield* execute(LOCK_USER, [userId])) === 0) throw new Error('the buying user does not exist')
	const { subscriptions } = tables
	const [active] = yield* rows(tx.select({ id: subscriptions.id }).from(subscriptions)
		.where(and(eq(subscriptions.userId, userId), eq(subscriptions.planId, plan.id), gt(subscriptions.expiresAt, now))).limit(1))
	if (active) throw new AlreadySubscribedError()
	if (plan.price > 0) {
		yield* applyCredit(tx, tables, {
			userId, amount: -plan.price, type: LOG_TYPE.system, ...logLine('plan.purchased', { plan: plan.id, name: plan.name, quota: plan.price }),
		})
	}
	// The user's row lock makes this the only purchase of the plan in flight: the reference is unique by construction.
	const granted = yield* grantWork(tx, tables, { userId, plan, source: 'wallet', reference: `wallet:${userId}:${plan.id}:${now}:${randomString(12)}`, price: plan.price, now })
	return granted!
}

const END_PERIODS = 'UPDATE subscription_periods SET ends_at = $1 WHERE subscription_id = $2 AND ends_at > $1'
const END_PERIOD = 'UPDATE subscription_periods SET ends_at = $1 WHERE subscription_id = $2 AND window_index = $3 AND ends_at > $1'

/**
 * Ends the current period of one window (or of every window) now: the next call starts a fresh
 * one with the full allowance. Calls in flight still settle into the period they took from.
 * Answers how many periods ended.
 */
export function* resetWindowsWork(subscriptionId: number, now: number, windowIndex?: number) {
	return windowIndex === undefined
		? yield* execute(END_PERIODS, [now, subscriptionId])
		: yield* execute(END_PERIOD, [now, subscriptionId, windowIndex])
}
