/** Plans and subscriptions: the shapes of the plan calls and of a user's subscriptions. */
import { z } from 'zod'
import { rowIdSchema } from './api'
import { MAX_QUOTA } from './quota-limit'
import {
	PLAN_DURATION_SECONDS_MAX, PLAN_GROUP_MAX_LENGTH, PLAN_MODEL_NAME_MAX_LENGTH, PLAN_MODELS_MAX, PLAN_NAME_MAX_LENGTH,
	PLAN_WINDOW_SECONDS_MAX, PLAN_WINDOW_SECONDS_MIN, PLAN_WINDOWS_MAX, PLAN_WINDOWS_MIN,
} from './plan-constants'
import { PLAN_MESSAGES } from './messages/plans'

export * from './plan-constants'
export { PLAN_MESSAGES }

const wholeNumber = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message)

/** One usage window: its length, and what each period of it allows (quota units). */
export const planWindowSchema = z.object({
	seconds: wholeNumber(PLAN_MESSAGES.windowSeconds, PLAN_WINDOW_SECONDS_MIN, PLAN_WINDOW_SECONDS_MAX),
	quota: wholeNumber(PLAN_MESSAGES.windowQuota, 1, MAX_QUOTA),
})
export type PlanWindowInput = z.infer<typeof planWindowSchema>

const models = z.array(z.string({ error: PLAN_MESSAGES.modelsInvalid }).trim().min(1, PLAN_MESSAGES.modelsInvalid).max(PLAN_MODEL_NAME_MAX_LENGTH, PLAN_MESSAGES.modelsInvalid)
	.refine((name) => !name.includes(','), PLAN_MESSAGES.modelsInvalid), { error: PLAN_MESSAGES.modelsInvalid })
	.max(PLAN_MODELS_MAX, PLAN_MESSAGES.modelsInvalid)
	.transform((names) => [...new Set(names)])

/** The terms an admin writes: price and quotas in quota units; `models` empty for every model; `group` empty for none. */
const planFields = z.object({
	name: z.string({ error: PLAN_MESSAGES.nameRequired }).trim().min(1, PLAN_MESSAGES.nameRequired).max(PLAN_NAME_MAX_LENGTH, PLAN_MESSAGES.nameTooLong),
	price: wholeNumber(PLAN_MESSAGES.priceInvalid, 0, MAX_QUOTA),
	duration_seconds: wholeNumber(PLAN_MESSAGES.durationInvalid, PLAN_WINDOW_SECONDS_MIN, PLAN_DURATION_SECONDS_MAX),
	windows: z.array(planWindowSchema, { error: PLAN_MESSAGES.windowCount }).min(PLAN_WINDOWS_MIN, PLAN_MESSAGES.windowCount).max(PLAN_WINDOWS_MAX, PLAN_MESSAGES.windowCount),
	models: models.optional().default([]),
	group: z.string({ error: PLAN_MESSAGES.groupInvalid }).trim().max(PLAN_GROUP_MAX_LENGTH, PLAN_MESSAGES.groupInvalid).optional().default(''),
	enabled: z.boolean().optional().default(true),
})

const longestWindowFits = (plan: { duration_seconds: number; windows: PlanWindowInput[] }, context: z.RefinementCtx) => {
	const longest = Math.max(...plan.windows.map((window) => window.seconds))
	if (plan.duration_seconds < longest) context.addIssue({ code: 'custom', path: ['duration_seconds'], message: PLAN_MESSAGES.durationShorterThanWindow })
}

/** `POST /api/plan/`. */
export const createPlanSchema = planFields.superRefine(longestWindowFits)
export type CreatePlanInput = z.infer<typeof createPlanSchema>

/** `PUT /api/plan/`: the whole plan again, with its id. Existing subscriptions keep the terms they were granted. */
export const updatePlanSchema = planFields.extend({ id: rowIdSchema }).superRefine(longestWindowFits)
export type UpdatePlanInput = z.infer<typeof updatePlanSchema>

export const planViewSchema = z.object({
	id: z.number(),
	name: z.string(),
	price: z.number(),
	duration_seconds: z.number(),
	windows: z.array(z.object({ seconds: z.number(), quota: z.number() })),
	/** Empty: every model. */
	models: z.array(z.string()),
	/** The group a subscriber is in while subscribed; empty: their own. */
	group: z.string(),
	enabled: z.boolean(),
	created_time: z.number(),
	updated_time: z.number(),
})
export type PlanView = z.infer<typeof planViewSchema>

/** A window of a subscription as its user sees it: the current period, or none yet (`resets_at` null: it starts at the next use). */
export const subscriptionWindowSchema = z.object({
	seconds: z.number(),
	quota: z.number(),
	/** Settled in the current period. */
	used: z.number(),
	/** Held by calls in flight in the current period. */
	held: z.number(),
	remaining: z.number(),
	/** When the current period ends (unix seconds); null when none has started. */
	resets_at: z.number().nullable(),
})
export type SubscriptionWindow = z.infer<typeof subscriptionWindowSchema>

export const subscriptionViewSchema = z.object({
	id: z.number(),
	plan_id: z.number(),
	name: z.string(),
	source: z.string(),
	price: z.number(),
	models: z.array(z.string()),
	group: z.string(),
	starts_at: z.number(),
	expires_at: z.number(),
	active: z.boolean(),
	windows: z.array(subscriptionWindowSchema),
})
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>

/** `POST /api/plan/:id/pay`: pay for a plan online, like a top-up. */
export const planPaySchema = z.object({ payment_method: z.string().min(1).max(64) })

/** `POST /api/user/:id/subscriptions/:subscription/reset`: one window (its index), or every window when absent. */
export const resetWindowsSchema = z.object({ window: z.number().int().min(0).max(PLAN_WINDOWS_MAX - 1).optional() })

/** `GET /api/user/self/subscriptions?all=true` also lists ended subscriptions. */
export const subscriptionListQuerySchema = z.object({ all: z.stringbool().optional().default(false) })
