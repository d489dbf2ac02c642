/**
 * OpenAI's dashboard billing: hard limit − usage, in USD. OpenAI no longer serves it to API keys,
 * but one-api/new-api style relays (a type 1 channel with a relay's base URL, type 8) still do
 * (see `../../../api/channels/tools/NOTES.md`).
 */
import { amountOf } from '../shared/amount'
import type { BalanceContext, UpstreamChannel } from '../types'

const CENTS_PER_DOLLAR = 100
/** The usage window asked for: the last hundred days, as the dashboards did. */
const USAGE_WINDOW_DAYS = 100
const MILLISECONDS_PER_DAY = 86_400_000

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10)

export async function readOpenAIBilling(channel: UpstreamChannel, context: BalanceContext): Promise<number> {
	const headers = { authorization: `Bearer ${channel.key}`, accept: 'application/json' }
	const subscription = await context.getJson(`${channel.baseUrl}/v1/dashboard/billing/subscription`, headers)
	const limit = amountOf(subscription.hard_limit_usd)
	if (Number.isNaN(limit)) return limit
	const now = context.now()
	const window = `start_date=${isoDay(now - USAGE_WINDOW_DAYS * MILLISECONDS_PER_DAY)}&end_date=${isoDay(now + MILLISECONDS_PER_DAY)}`
	const usage = await context.getJson(`${channel.baseUrl}/v1/dashboard/billing/usage?${window}`, headers)
	return limit - amountOf(usage.total_usage) / CENTS_PER_DOLLAR
}
