/**
 * OpenAI's legacy dashboard billing endpoints, for an API token: `GET [/v1]/dashboard/billing/subscription`
 * (the quota, remaining and used, as USD limits) and `GET [/v1]/dashboard/billing/usage` (the quota
 * used, in cents), so a client or another relay reads the balance as hard limit − usage. Whose quota:
 * with `DisplayTokenStatEnabled`, a token with a quota of its own reports that quota (and its expiry);
 * an unlimited token, or the option off, reports its user's. The usage endpoint's date range is not
 * read: usage is the total so far. Errors answer in OpenAI's shape.
 */
import { eq } from 'drizzle-orm'
import type { BillingSubscription, BillingUsage } from '@shared/billing-dashboard'
import type { Dependencies } from '@/dependencies'
import type { RelayCaller } from '../caller'
import { openAIErrorResponse, relayFailure } from '../errors'
import type { RelayServices } from '../services'
import { bearerKey } from './token-auth'

const CENTS_PER_DOLLAR = 100

/** The quota reported for the caller: remaining and used, and until when (Unix seconds; 0 for none). */
export interface ReportedQuota {
	remaining: number
	used: number
	accessUntil: number
}

/** What the caller's billing reports (see the file's comment for whose quota). */
export async function reportedQuota(dependencies: Dependencies, caller: RelayCaller): Promise<ReportedQuota> {
	const { db, tables } = dependencies.store
	if (dependencies.options.get('DisplayTokenStatEnabled') && !caller.token.unlimited) {
		const { tokens } = tables
		const [token] = await db.select({ remaining: tokens.remainQuota, used: tokens.usedQuota, expires: tokens.expiredTime }).from(tokens).where(eq(tokens.id, caller.token.id))
		if (token) return { remaining: Number(token.remaining), used: Number(token.used), accessUntil: Math.max(0, Number(token.expires)) }
	}
	const { users } = tables
	const [user] = await db.select({ remaining: users.quota, used: users.usedQuota }).from(users).where(eq(users.id, caller.user.id))
	return { remaining: Number(user?.remaining ?? 0), used: Number(user?.used ?? 0), accessUntil: 0 }
}

export function subscriptionOf(quota: ReportedQuota, quotaPerUnit: number): BillingSubscription {
	const limit = (Math.max(0, quota.remaining) + quota.used) / quotaPerUnit
	return { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: limit, hard_limit_usd: limit, system_hard_limit_usd: limit, access_until: quota.accessUntil }
}

export function usageOf(quota: ReportedQuota, quotaPerUnit: number): BillingUsage {
	return { object: 'list', total_usage: quota.used / quotaPerUnit * CENTS_PER_DOLLAR }
}

type Answer = (quota: ReportedQuota, quotaPerUnit: number) => BillingSubscription | BillingUsage

async function answerBilling(dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string, answer: Answer): Promise<Response> {
	try {
		const caller = await relay.authenticate(bearerKey(request.headers), clientAddress)
		return Response.json(answer(await reportedQuota(dependencies, caller), dependencies.options.get('QuotaPerUnit')))
	} catch (error) {
		return relayFailure(error, dependencies.logger, openAIErrorResponse)
	}
}

export const billingSubscription = (dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string) =>
	answerBilling(dependencies, relay, request, clientAddress, subscriptionOf)

export const billingUsage = (dependencies: Dependencies, relay: RelayServices, request: Request, clientAddress: string) =>
	answerBilling(dependencies, relay, request, clientAddress, usageOf)

/** The paths, under the root and under `/v1`. */
export const BILLING_PATHS = { subscription: '/dashboard/billing/subscription', usage: '/dashboard/billing/usage' } as const
