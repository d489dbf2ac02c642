/**
 * OpenAI's legacy dashboard billing answers, which Ferry serves to API tokens
 * (`GET [/v1]/dashboard/billing/subscription` and `…/usage`) for clients and relays that read a
 * key's balance this way (hard limit − usage). Amounts are USD: quota / `QuotaPerUnit`; `total_usage`
 * is in cents. Whose quota is reported: docs/guide/tokens.md ("Balance queries").
 */
import { z } from 'zod'

export const billingSubscriptionSchema = z.object({
	object: z.literal('billing_subscription'),
	has_payment_method: z.literal(true),
	/** The quota, remaining and used, in USD; the three limits are the same. */
	soft_limit_usd: z.number(),
	hard_limit_usd: z.number(),
	system_hard_limit_usd: z.number(),
	/** When the token expires (Unix seconds); 0: never, or the user's quota is reported. */
	access_until: z.number().int(),
})
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>

export const billingUsageSchema = z.object({
	object: z.literal('list'),
	/** The quota used, in US cents. */
	total_usage: z.number(),
})
export type BillingUsage = z.infer<typeof billingUsageSchema>
