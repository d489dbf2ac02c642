/**
 * Redemption codes (docs/specification/tokens-and-money.md#redemption-codes): admins create and manage them, users redeem them. A code's key
 * is a bearer value: admins read it back, nothing else logs or answers it.
 */
import { and, count, desc, eq, gt, isNull, or, type SQL } from 'drizzle-orm'
import { isRowIdText, type Page, type PageQuery } from '@shared/api'
import { LOG_TYPE } from '@shared/log'
import {
	REDEMPTION_KEY_LENGTH, REDEMPTION_MESSAGES, REDEMPTION_NEVER_EXPIRES, REDEMPTION_STATUS,
	type CreateRedemptionInput, type RedemptionView, type UpdateRedemptionInput,
} from '@shared/redemption'
import { renderQuota } from '@shared/quota-display'
import { rows, type Store, type Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { applyCredit, BalanceLimitError } from '@/billing/ledger'
import { grantWithLine } from '@/billing/subscriptions'
import { PLAN_MESSAGES, SUBSCRIPTION_SOURCE } from '@shared/plan'
import { findPlan, subscribed } from '../plans/service'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { badRequest, notFound, refused } from '../errors'
import { readPage } from '../paging'
import { isUniqueViolation } from '@/db/unique-violation'
import { adminActionWork, named, namedList, type AdminActor } from '../admin-audit'
import { logLine } from '@shared/messages/logs'

type RedemptionRecord = Tables['redemptions']['$inferSelect']

/** A fresh key colliding with a stored one is astronomically unlikely; a batch is retried this often. */
const CREATE_ATTEMPTS = 3

function toRedemptionView(code: RedemptionRecord): RedemptionView {
	return {
		id: code.id,
		user_id: code.userId,
		key: code.key,
		status: code.status,
		name: code.name,
		quota: code.quota,
		created_time: code.createdTime,
		redeemed_time: code.redeemedTime,
		used_user_id: code.usedUserId,
		expired_time: code.expiredTime,
		plan_id: code.planId,
	}
}

function notDeleted(store: Store): SQL {
	return isNull(store.tables.redemptions.deletedAt)
}

async function listWhere(store: Store, condition: SQL | undefined, query: PageQuery): Promise<Page<RedemptionView>> {
	const { redemptions } = store.tables
	const where = and(notDeleted(store), condition)
	return readPage(query, (limit, offset) => store.db.select().from(redemptions).where(where).orderBy(desc(redemptions.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(redemptions).where(where), toRedemptionView)
}

export function listRedemptions({ store }: Dependencies, query: PageQuery) {
	return listWhere(store, undefined, query)
}

/** `keyword` matches the id exactly or part of the name, any case; empty lists everything. */
export function searchRedemptions({ store }: Dependencies, keyword: string, query: PageQuery) {
	const { redemptions } = store.tables
	const text = keyword.trim()
	if (!text) return listWhere(store, undefined, query)
	const matches = [store.contains(redemptions.name, text)]
	if (isRowIdText(text)) matches.push(eq(redemptions.id, Number(text)))
	return listWhere(store, or(...matches), query)
}

async function requireRedemption(store: Store, id: number): Promise<RedemptionRecord> {
	const { redemptions } = store.tables
	const [code] = await store.db.select().from(redemptions).where(and(notDeleted(store), eq(redemptions.id, id))).limit(1)
	if (!code) throw notFound(REDEMPTION_MESSAGES.notFound)
	return code
}

export async function getRedemption({ store }: Dependencies, id: number): Promise<RedemptionView> {
	return toRedemptionView(await requireRedemption(store, id))
}

/**
 * A failed statement's error quotes its parameters, keys among them, and unexpected errors are
 * logged: what leaves these functions names only the failure's kind.
 */
function withoutKeys(doing: string, error: unknown): Error {
	const kind = (error as { code?: unknown }).code ?? (error as Error).name
	return new Error(`${doing} failed (${String(kind)})`)
}

const isPast = (expiredTime: number, now: number) => expiredTime !== REDEMPTION_NEVER_EXPIRES && expiredTime <= now

/**
 * Creates `count` codes in one statement, so a failure leaves none behind, and answers their keys
 * in creation order. An empty name becomes the quota as the console shows it (docs/specification/tokens-and-money.md#redemption-codes).
 */
export async function createRedemptions(dependencies: Dependencies, creator: AdminActor, input: CreateRedemptionInput): Promise<string[]> {
	const creatorId = creator.id
	const { store, options } = dependencies
	if (isPast(input.expired_time, nowSeconds())) throw refused(REDEMPTION_MESSAGES.expiryPast)
	// A plan code grants the plan (as it is when redeemed) instead of quota.
	const plan = input.plan_id > 0 ? await findPlan(store, input.plan_id) : undefined
	if (input.plan_id > 0 && !plan) throw refused(PLAN_MESSAGES.planCodeUnknownPlan)
	const quota = plan ? 0 : input.quota
	const name = input.name || plan?.name || renderQuota(input.quota, {
		display_in_currency: options.get('DisplayInCurrencyEnabled'), quota_per_unit: options.get('QuotaPerUnit'),
	})
	for (let attempt = 1; ; attempt++) {
		const values = Array.from({ length: input.count }, () => ({
			userId: creatorId, key: randomString(REDEMPTION_KEY_LENGTH), name, quota, expiredTime: input.expired_time, planId: plan?.id ?? 0,
		}))
		try {
			const created = await store.transaction(function* (tx, tables) {
				const { redemptions } = tables
				const inserted = yield* rows(tx.insert(redemptions).values(values).returning({ id: redemptions.id, key: redemptions.key }))
				// The codes themselves are secrets: the line names them by id.
				const target = namedList(inserted.map((code) => ({ id: code.id, name })))
				yield* adminActionWork(tx, tables, creator, {
					action: 'redemption.create', target, summary: `created ${inserted.length} redemption code(s) "${name}" of ${plan ? `plan ${named(plan.id, plan.name)}` : `${quota} quota`}: ${target}`,
					details: { name, quota, count: inserted.length, ...(plan ? { plan: plan.id } : {}) },
				})
				return inserted
			})
			return created.sort((first, second) => first.id - second.id).map((code) => code.key)
		} catch (error) {
			if (!isUniqueViolation(error) || attempt >= CREATE_ATTEMPTS) throw withoutKeys('creating redemption codes', error)
		}
	}
}

/**
 * `statusOnly`: switches between unused and disabled; a used code keeps its state for good.
 * Otherwise edits the name, quota and expiry of a code that has not been used. Both changes apply
 * only if the state is still the one read, so a redemption racing the change wins or loses cleanly.
 */
export async function updateRedemption({ store }: Dependencies, input: UpdateRedemptionInput, statusOnly: boolean, actor: AdminActor): Promise<RedemptionView> {
	const { redemptions } = store.tables
	const current = await requireRedemption(store, input.id)
	let changes: Partial<RedemptionRecord>
	if (statusOnly) {
		if (input.status !== REDEMPTION_STATUS.unused && input.status !== REDEMPTION_STATUS.disabled) throw badRequest(REDEMPTION_MESSAGES.statusInvalid)
		if (current.status === REDEMPTION_STATUS.used) throw refused(REDEMPTION_MESSAGES.usedStatusLocked)
		changes = { status: input.status }
	} else {
		if (current.status === REDEMPTION_STATUS.used) throw refused(REDEMPTION_MESSAGES.usedNotEditable)
		if (input.expired_time !== undefined && input.expired_time !== current.expiredTime && isPast(input.expired_time, nowSeconds())) {
			throw refused(REDEMPTION_MESSAGES.expiryPast)
		}
		changes = {}
		if (input.name !== undefined) changes.name = input.name
		if (input.quota !== undefined) changes.quota = input.quota
		if (input.expired_time !== undefined) changes.expiredTime = input.expired_time
		if (Object.keys(changes).length === 0) return toRedemptionView(current)
	}
	const target = named(current.id, current.name)
	const fields = Object.keys(changes).map((column) => (column === 'expiredTime' ? 'expired_time' : column))
	const [updated] = await store.transaction(function* (tx, tables) {
		const changed = yield* rows(tx.update(tables.redemptions).set(changes)
			.where(and(notDeleted(store), eq(tables.redemptions.id, current.id), eq(tables.redemptions.status, current.status)))
			.returning())
		if (changed.length === 0) return changed
		yield* adminActionWork(tx, tables, actor, statusOnly
			? { action: 'redemption.status', target, summary: `set the status of redemption code ${target} to ${changes.status}`, details: { status: changes.status! } }
			: { action: 'redemption.update', target, summary: `edited redemption code ${target}: ${fields.join(', ')}`, details: { fields: fields.join(',') } })
		return changed
	})
	if (updated) return toRedemptionView(updated)
	// The code changed meanwhile (most likely redeemed): judge the request again on its new state.
	const now = await requireRedemption(store, current.id)
	throw refused(now.status === REDEMPTION_STATUS.used
		? (statusOnly ? REDEMPTION_MESSAGES.usedStatusLocked : REDEMPTION_MESSAGES.usedNotEditable)
		: REDEMPTION_MESSAGES.notFound)
}

/** Soft delete: the row stays for the record of who redeemed what. */
export async function deleteRedemption({ store }: Dependencies, id: number, actor: AdminActor) {
	const deleted = await store.transaction(function* (tx, tables) {
		const { redemptions } = tables
		const [gone] = yield* rows(tx.update(redemptions).set({ deletedAt: nowSeconds() })
			.where(and(notDeleted(store), eq(redemptions.id, id)))
			.returning({ id: redemptions.id, name: redemptions.name }))
		if (!gone) return false
		const target = named(gone.id, gone.name)
		yield* adminActionWork(tx, tables, actor, { action: 'redemption.delete', target, summary: `deleted redemption code ${target}` })
		return true
	})
	if (!deleted) throw notFound(REDEMPTION_MESSAGES.notFound)
}

/** What redeeming a code gave: quota, or a plan. */
export type Redeemed = { quota: number; plan?: { id: number; name: string } }

/**
 * Redeems `key` for `userId`. One transaction: the code moves from unused to used with a guarded
 * update (only one of any number of concurrent attempts changes the row; the others find it
 * used), and the same transaction credits the user through the ledger with its top-up log line,
 * or, for a plan code, grants the plan (the code's id is the grant's reference). Every refusal
 * reads alike, so the answer tells nothing about other keys.
 */
export async function redeem(dependencies: Dependencies, userId: number, key: string): Promise<Redeemed> {
	const { store } = dependencies
	const now = nowSeconds()
	const redeemed = await store.transaction(function* (tx, tables) {
		const { redemptions } = tables
		const [code] = yield* rows(tx.update(redemptions)
			.set({ status: REDEMPTION_STATUS.used, usedUserId: userId, redeemedTime: now })
			.where(and(
				eq(redemptions.key, key),
				eq(redemptions.status, REDEMPTION_STATUS.unused),
				isNull(redemptions.deletedAt),
				or(eq(redemptions.expiredTime, REDEMPTION_NEVER_EXPIRES), gt(redemptions.expiredTime, now)),
			))
			.returning({ id: redemptions.id, name: redemptions.name, quota: redemptions.quota, planId: redemptions.planId }))
		if (!code) return undefined
		if (code.planId > 0) {
			const [plan] = yield* rows(tx.select().from(tables.plans).where(eq(tables.plans.id, code.planId)).limit(1))
			// Checked when the code was made; a plan row is never removed (deleting one marks it).
			if (!plan) throw new Error('the plan of a redemption code is missing')
			yield* grantWithLine(tx, tables, { userId, plan, source: SUBSCRIPTION_SOURCE.redemption, reference: `redemption:${code.id}`, price: 0, now },
				'plan.redeemed', { id: code.id, code: code.name, plan: plan.id, name: plan.name })
			return { quota: 0, plan: { id: plan.id, name: plan.name } }
		}
		yield* applyCredit(tx, tables, {
			userId, amount: code.quota, type: LOG_TYPE.topUp,
			...logLine('redemption.redeemed', { id: code.id, name: code.name, quota: code.quota }),
		})
		return { quota: code.quota }
	}).catch((error: unknown) => {
		// The code stays unused: a balance at its maximum cannot take it (the caller is told so).
		if (error instanceof BalanceLimitError) throw error
		throw withoutKeys('redeeming a code', error)
	})
	if (redeemed === undefined) throw refused(REDEMPTION_MESSAGES.invalidCode)
	// A credit changes only the balance, which no cache holds: no change notice (it would empty every
	// node's token cache). A plan is in every node's subscription book.
	if (redeemed.plan) await subscribed(dependencies)
	return redeemed
}
