/**
 * Plans: the super admin writes them, every signed-in user lists the ones on sale and buys one
 * from the wallet (billing/subscriptions.ts: one money event, at most one active subscription of
 * a plan per user, whatever the clicks and races). Editing or deleting a plan never changes the
 * subscriptions already granted: they keep the terms they were bought with.
 */
import { and, asc, eq, isNull } from 'drizzle-orm'
import { PLAN_MESSAGES, type CreatePlanInput, type PlanView, type UpdatePlanInput } from '@shared/plan'
import { ROLE } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { InsufficientQuotaError } from '@/billing/holds'
import { AlreadySubscribedError, purchaseWork, readModels, readWindows, type PlanRecord } from '@/billing/subscriptions'
import { rows, type Store } from '@/db'
import { nowSeconds } from '@/lib/clock'
import { notFound, refused } from '../errors'
import { adminActionWork, named, type AdminActor } from '../admin-audit'
import { toSubscriptionView } from './subscriptions'
import type { UserRecord } from '@/db/stores/users'

export function toPlanView(plan: PlanRecord): PlanView {
	return {
		id: plan.id,
		name: plan.name,
		price: plan.price,
		duration_seconds: plan.durationSeconds,
		windows: readWindows(plan.windows),
		models: readModels(plan.models),
		group: plan.group,
		enabled: plan.enabled,
		created_time: plan.createdTime,
		updated_time: plan.updatedTime,
	}
}

const storedTerms = (input: CreatePlanInput) => ({
	name: input.name,
	price: input.price,
	durationSeconds: input.duration_seconds,
	windows: JSON.stringify(input.windows.map(({ seconds, quota }) => ({ seconds, quota }))),
	models: input.models.join(','),
	group: input.group,
	enabled: input.enabled,
})

/** A plan that is not deleted (disabled ones included), or undefined. */
export async function findPlan(store: Store, id: number): Promise<PlanRecord | undefined> {
	const { plans } = store.tables
	const [plan] = await store.db.select().from(plans).where(and(eq(plans.id, id), isNull(plans.deletedAt))).limit(1)
	return plan
}

/** `GET /api/plan/`: the plans on sale; admins see the ones off sale too. */
export async function listPlans({ store }: Dependencies, viewer: Pick<UserRecord, 'role'>): Promise<PlanView[]> {
	const { plans } = store.tables
	const where = viewer.role >= ROLE.admin ? isNull(plans.deletedAt) : and(isNull(plans.deletedAt), eq(plans.enabled, true))
	return (await store.db.select().from(plans).where(where).orderBy(asc(plans.price), asc(plans.id))).map(toPlanView)
}

export async function createPlan({ store }: Dependencies, actor: AdminActor, input: CreatePlanInput): Promise<PlanView> {
	const now = nowSeconds()
	const created = await store.transaction(function* (tx, tables) {
		const [plan] = yield* rows(tx.insert(tables.plans).values({ ...storedTerms(input), createdTime: now, updatedTime: now }).returning())
		yield* adminActionWork(tx, tables, actor, { action: 'plan.create', target: named(plan!.id, plan!.name), summary: `created plan ${named(plan!.id, plan!.name)}` })
		return plan!
	})
	return toPlanView(created)
}

export async function updatePlan({ store }: Dependencies, actor: AdminActor, input: UpdatePlanInput): Promise<PlanView> {
	const updated = await store.transaction(function* (tx, tables) {
		const { plans } = tables
		const [plan] = yield* rows(tx.update(plans).set({ ...storedTerms(input), updatedTime: nowSeconds() })
			.where(and(eq(plans.id, input.id), isNull(plans.deletedAt))).returning())
		if (!plan) return undefined
		yield* adminActionWork(tx, tables, actor, { action: 'plan.update', target: named(plan.id, plan.name), summary: `edited plan ${named(plan.id, plan.name)}` })
		return plan
	})
	if (!updated) throw notFound(PLAN_MESSAGES.notFound)
	return toPlanView(updated)
}

/** Soft delete: subscriptions keep naming it, and an online payment started for it is still granted. */
export async function deletePlan({ store }: Dependencies, actor: AdminActor, id: number): Promise<void> {
	const deleted = await store.transaction(function* (tx, tables) {
		const { plans } = tables
		const [plan] = yield* rows(tx.update(plans).set({ deletedAt: nowSeconds(), enabled: false })
			.where(and(eq(plans.id, id), isNull(plans.deletedAt))).returning({ id: plans.id, name: plans.name }))
		if (!plan) return false
		yield* adminActionWork(tx, tables, actor, { action: 'plan.delete', target: named(plan.id, plan.name), summary: `deleted plan ${named(plan.id, plan.name)}` })
		return true
	})
	if (!deleted) throw notFound(PLAN_MESSAGES.notFound)
}

/** A plan the user may buy: not deleted and on sale. */
export async function planOnSale(store: Store, id: number): Promise<PlanRecord> {
	const plan = await findPlan(store, id)
	if (!plan) throw notFound(PLAN_MESSAGES.notFound)
	if (!plan.enabled) throw refused(PLAN_MESSAGES.disabled)
	return plan
}

/**
 * `POST /api/plan/:id/purchase`: pays the price from the wallet and answers the subscription.
 * Answers only once this node's subscription book has it, so the next call is paid by it.
 */
export async function purchasePlan(dependencies: Dependencies, userId: number, planId: number) {
	const { store } = dependencies
	const plan = await planOnSale(store, planId)
	const now = nowSeconds()
	let subscription
	try {
		subscription = await store.transaction((tx, tables) => purchaseWork(tx, tables, userId, plan, now))
	} catch (error) {
		if (error instanceof AlreadySubscribedError) throw refused(PLAN_MESSAGES.alreadySubscribed)
		if (error instanceof InsufficientQuotaError) throw refused(PLAN_MESSAGES.insufficientQuota)
		throw error
	}
	await subscribed(dependencies)
	return toSubscriptionView(subscription, [], now)
}

/** Tells every node's subscription book of a grant; resolves once this node's has read it. */
export async function subscribed(dependencies: Dependencies) {
	dependencies.changes.notify('subscriptions')
	await dependencies.subscriptions.reload()
}
