/**
 * Online top-up (docs/specification/tokens-and-money.md#online-top-up): pricing an amount, opening an epay order, and crediting it
 * exactly once when the payment service's notify call arrives (docs/architecture.md#the-ledger).
 *
 * Amounts are entered in the display unit: dollars when `DisplayInCurrencyEnabled`, else quota.
 * An order records its amount in dollars ("units": `QuotaPerUnit` quota each), the money asked
 * for and the quota it promises (`units × QuotaPerUnit` when it is opened). The notify credits that
 * recorded quota: an admin who changes `QuotaPerUnit` (or the prices) while the payer is paying
 * changes neither what the order charges nor what it credits.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { Page } from '@shared/api'
import {
	EPAY_NOTIFY_PATH, EPAY_SUBMIT_PATH, TOP_UP_MESSAGES, TOP_UP_RETURN_PATH, TOP_UP_STATUS,
	type EpayForm, type TopUpAmountInput, type TopUpListQuery, type TopUpPayInput, type TopUpStatus, type TopUpView,
} from '@shared/top-up'
import { MAX_QUOTA } from '@shared/quota-limit'
import { applyCredit, BalanceLimitError, creditRoom } from '@/billing/ledger'
import { grantWithLine, readPlanTerms } from '@/billing/subscriptions'
import { SUBSCRIPTION_SOURCE } from '@shared/plan-constants'
import { run, type Tables, type Work } from '@/db'
import type { Dependencies } from '@/dependencies'
import type { OptionStore } from '@/db/stores/options'
import type { OptionValue } from '@shared/option'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { refused } from '../errors'
import { readPage } from '../paging'
import type { UserRecord } from '@/db/stores/users'
import { epayOrderForm, readEpayNotice } from './epay'
import { type InviterReward, payInviterReward } from '../users/repository'
import { withValues } from '@shared/messages'
import { logLine } from '@shared/messages/logs'

/** Online top-up needs the merchant id, its key and the payment service's address (`enable_online_topup`). */
export function onlineTopUpEnabled(options: Pick<OptionStore, 'get'>): boolean {
	return Boolean(options.get('EpayId') && options.get('EpayKey') && options.get('PayAddress'))
}

/** Rounds money to cents, half away from zero (a float product such as 1.005 is nudged first). */
export function roundMoney(value: number): number {
	return Math.sign(value) * Math.round(Math.abs(value) * 100 + 1e-9) / 100
}

interface TopUpQuote {
	/** Dollars bought: the quota credited is `units × QuotaPerUnit`. */
	units: number
	quota: number
	money: number
}

type PayMethod = OptionValue<'PayMethods'>[number]

/** The configured method of this type; refused when there is none. */
function payMethodOf(options: Pick<OptionStore, 'get'>, type: string): PayMethod {
	const method = options.get('PayMethods').find((candidate) => candidate.type === type)
	if (!method) throw refused(TOP_UP_MESSAGES.paymentMethodNotAllowed)
	return method
}

/**
 * Checks an amount in the display unit and prices it for `group`: at least `MinTopUp` dollars, and
 * at least the chosen method's `min_topup` when it sets a larger one;
 * money = units × Price × TopupGroupRatio[group] (missing group → 1), rounded to cents.
 */
function quoteTopUp(options: Pick<OptionStore, 'get'>, group: string, amount: number, method?: PayMethod): TopUpQuote {
	const quotaPerUnit = options.get('QuotaPerUnit')
	const inCurrency = options.get('DisplayInCurrencyEnabled')
	const minimumUnits = Math.max(options.get('MinTopUp'), method?.min_topup ?? 0)
	const minimum = inCurrency ? minimumUnits : minimumUnits * quotaPerUnit
	if (!Number.isSafeInteger(amount)) throw refused(TOP_UP_MESSAGES.amountNotInteger)
	if (amount < minimum) throw refused(withValues(TOP_UP_MESSAGES.amountTooSmall, { min: minimum }))
	const units = inCurrency ? amount : amount / quotaPerUnit
	// An order records whole units, so that what is paid for and what is credited cannot drift apart.
	if (!Number.isInteger(units)) throw refused(withValues(TOP_UP_MESSAGES.amountNotWholeUnits, { unit: quotaPerUnit }))
	const ratios = options.get('TopupGroupRatio')
	const groupRatio = Object.hasOwn(ratios, group) ? ratios[group]! : 1
	const money = roundMoney(units * options.get('Price') * groupRatio)
	if (money < 0.01) throw refused(TOP_UP_MESSAGES.amountTooLow)
	const quota = Math.round(units * quotaPerUnit)
	if (!(quota <= MAX_QUOTA)) throw refused(withValues(TOP_UP_MESSAGES.beyondBalanceLimit, { max: MAX_QUOTA }))
	return { units, quota, money }
}

export function assertOnlineTopUp(options: OptionStore) {
	if (!onlineTopUpEnabled(options)) throw refused(TOP_UP_MESSAGES.onlineTopUpDisabled)
}

/** `POST /api/user/amount`: the payable money as text with two decimals. */
export function payableAmount({ options }: Dependencies, user: Pick<UserRecord, 'group'>, input: TopUpAmountInput): string {
	assertOnlineTopUp(options)
	const method = input.payment_method ? payMethodOf(options, input.payment_method) : undefined
	return quoteTopUp(options, user.group, input.amount, method).money.toFixed(2)
}

export const newTradeNo = (userId: number) => `FT${userId}X${Date.now().toString(36)}${randomString(10)}`

/**
 * `POST /api/user/pay`: records a pending order and answers the signed form and where to send it.
 * An order whose quota the balance could not take now is refused before anyone pays for it.
 */
export async function startPayment({ options, store }: Dependencies, user: Pick<UserRecord, 'id' | 'group'>, input: TopUpPayInput): Promise<{ form: EpayForm; url: string }> {
	assertOnlineTopUp(options)
	const method = payMethodOf(options, input.payment_method)
	const quote = quoteTopUp(options, user.group, input.amount, method)
	if (quote.quota > await creditRoom(store, user.id)) throw refused(withValues(TOP_UP_MESSAGES.beyondBalanceLimit, { max: MAX_QUOTA }))
	const serverAddress = options.get('ServerAddress')
	const callbackAddress = options.get('CustomCallbackAddress') || serverAddress
	const tradeNo = newTradeNo(user.id)
	const { topUps } = store.tables
	await store.db.insert(topUps).values({
		userId: user.id, amount: quote.units, money: quote.money, quota: quote.quota, tradeNo, paymentMethod: input.payment_method, status: TOP_UP_STATUS.pending, createTime: nowSeconds(),
	})
	const form = epayOrderForm({
		merchantId: options.get('EpayId'),
		merchantKey: options.get('EpayKey'),
		paymentMethod: input.payment_method,
		tradeNo,
		name: `TUC${quote.units}`,
		money: quote.money.toFixed(2),
		notifyUrl: `${callbackAddress}${EPAY_NOTIFY_PATH}`,
		returnUrl: `${serverAddress}${TOP_UP_RETURN_PATH}`,
	})
	return { form, url: `${options.get('PayAddress')}${EPAY_SUBMIT_PATH}` }
}

type TopUpRecord = Tables['topUps']['$inferSelect']

function toTopUpView(record: TopUpRecord): TopUpView {
	return {
		id: record.id, amount: record.amount, money: record.money, trade_no: record.tradeNo, payment_method: record.paymentMethod,
		create_time: record.createTime, complete_time: record.completeTime, status: record.status as TopUpStatus, plan_id: record.planId,
	}
}

/** `GET /api/user/topup/self`: the caller's orders, newest first. */
export function listOwnTopUps({ store }: Dependencies, userId: number, query: TopUpListQuery): Promise<Page<TopUpView>> {
	const { topUps } = store.tables
	const conditions: SQL[] = [eq(topUps.userId, userId)]
	if (query.trade_no) conditions.push(eq(topUps.tradeNo, query.trade_no))
	const where = and(...conditions)
	return readPage(query, (limit, offset) => store.db.select().from(topUps).where(where).orderBy(desc(topUps.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(topUps).where(where), toTopUpView)
}

/**
 * The quota a paid top-up order credits: what it promised when it was opened. Orders opened before
 * the promise was recorded (their `quota` is null) fall back to their units at today's
 * `QuotaPerUnit`, which is what they credited then too.
 */
function promisedQuota(order: Pick<TopUpRecord, 'amount' | 'quota'>, quotaPerUnit: number): number {
	return order.quota ?? Math.round(order.amount * quotaPerUnit)
}

/** What the notify call answers: `success` stops the payment service's retries. */
type NotifyOutcome = 'credited' | 'already credited' | 'refused'

/**
 * Handles one notify call. A valid call for a pending order marks it paid and credits its quota in
 * one transaction, guarded by the order's status, so replays (even concurrent ones) credit nothing.
 * An order the balance cannot take (it grew past the room checked at payment) stays pending and
 * the payment service is told to call again: it is credited once the balance has room.
 */
export async function handleEpayNotify(dependencies: Dependencies, parameters: Record<string, string>): Promise<NotifyOutcome> {
	const { options, store, logger } = dependencies
	const check = readEpayNotice(parameters, options.get('EpayId'), options.get('EpayKey'))
	if (!check.ok) {
		logger.warn('refused an epay notify', { reason: check.reason, trade: (parameters.out_trade_no ?? '').slice(0, 64) })
		return 'refused'
	}
	const { notice } = check
	const { topUps } = store.tables
	const [order] = await store.db.select().from(topUps).where(eq(topUps.tradeNo, notice.tradeNo)).limit(1)
	const notifiedMoney = Number(notice.money)
	if (!order || !Number.isFinite(notifiedMoney) || Math.round(notifiedMoney * 100) !== Math.round(order.money * 100)) {
		logger.warn('refused an epay notify', { reason: order ? 'money differs from the order' : 'unknown trade', trade: notice.tradeNo.slice(0, 64) })
		return 'refused'
	}
	if (order.status === TOP_UP_STATUS.success) return 'already credited'
	if (order.status !== TOP_UP_STATUS.pending) return 'refused'
	if (order.planId > 0) return grantPaidPlan(dependencies, order)
	const quota = promisedQuota(order, options.get('QuotaPerUnit'))
	const method = order.paymentMethod
	const credit: Work<InviterReward | undefined | false> = function* (tx, tables) {
		const changed = yield* run(tx.update(tables.topUps)
			.set({ status: TOP_UP_STATUS.success, completeTime: nowSeconds() })
			.where(and(eq(tables.topUps.tradeNo, order.tradeNo), eq(tables.topUps.status, TOP_UP_STATUS.pending))))
		if (changed !== 1) return false
		yield* applyCredit(tx, tables, {
			userId: order.userId, amount: quota, type: LOG_TYPE.topUp,
			...logLine('top_up.online', { amount: order.amount, quota, method, trade: order.tradeNo }),
		})
		return yield* payInviterReward(tx, tables, order.userId)
	}
	let credited: InviterReward | undefined | false
	try {
		credited = await store.transaction(credit)
	} catch (error) {
		if (!(error instanceof BalanceLimitError)) throw error
		logger.error('a paid online top-up waits: the balance cannot take its quota yet', { userId: order.userId, quota, trade: order.tradeNo })
		return 'refused'
	}
	if (credited === false) return 'already credited'
	logger.info('credited an online top-up', { userId: order.userId, quota, trade: order.tradeNo })
	logInviterReward(dependencies, order.userId, credited)
	return 'credited'
}

function logInviterReward({ logger }: Dependencies, inviteeId: number, reward: InviterReward | undefined) {
	if (reward) logger.info('paid an inviter reward on the invitee\'s first top-up', { inviterId: reward.inviterId, inviteeId, quota: reward.quota })
}

/**
 * The plan a paid plan order grants and the price it was sold for: the terms the order recorded
 * when it was opened, whatever the plan says now (edited, off sale or deleted: it was paid for).
 * Orders opened before the terms were recorded (`plan_terms` null) grant the plan as it is now,
 * which is what they granted then too; so does an order whose recorded terms cannot be read.
 */
async function paidPlanTerms({ store, logger }: Dependencies, order: TopUpRecord) {
	if (order.planTerms !== null) {
		const terms = readPlanTerms(order.planTerms)
		if (terms) return { id: order.planId, ...terms }
		logger.error('a paid plan order\'s recorded terms cannot be read: granting the plan as it is now', { userId: order.userId, plan: order.planId, trade: order.tradeNo })
	}
	const { plans } = store.tables
	const [plan] = await store.db.select().from(plans).where(eq(plans.id, order.planId)).limit(1)
	return plan
}

/**
 * A paid order for a plan: marks it paid and grants the plan's recorded terms in one transaction,
 * guarded by the order's status (and the grant by the trade number), so replays grant nothing more.
 */
async function grantPaidPlan(dependencies: Dependencies, order: TopUpRecord): Promise<NotifyOutcome> {
	const { store, logger } = dependencies
	const plan = await paidPlanTerms(dependencies, order)
	if (!plan) {
		logger.error('a paid plan order names no plan', { userId: order.userId, plan: order.planId, trade: order.tradeNo })
		return 'refused'
	}
	const granted = await store.transaction(function* (tx, tables) {
		const now = nowSeconds()
		const changed = yield* run(tx.update(tables.topUps)
			.set({ status: TOP_UP_STATUS.success, completeTime: now })
			.where(and(eq(tables.topUps.tradeNo, order.tradeNo), eq(tables.topUps.status, TOP_UP_STATUS.pending))))
		if (changed !== 1) return false
		const subscription = yield* grantWithLine(tx, tables, {
			userId: order.userId, plan, source: SUBSCRIPTION_SOURCE.epay, reference: `epay:${order.tradeNo}`, price: plan.price, now,
		}, 'plan.paid_online', { plan: plan.id, name: plan.name, method: order.paymentMethod, trade: order.tradeNo })
		if (subscription === undefined) return false
		return yield* payInviterReward(tx, tables, order.userId)
	})
	if (granted === false) return 'already credited'
	logger.info('granted a plan paid online', { userId: order.userId, plan: plan.id, trade: order.tradeNo })
	logInviterReward(dependencies, order.userId, granted)
	dependencies.changes.notify('subscriptions')
	return 'credited'
}
