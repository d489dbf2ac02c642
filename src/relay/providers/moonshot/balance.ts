import { amountOf } from '../shared/amount'
import type { BalanceContext, UpstreamChannel } from '../types'

/** Moonshot `GET /v1/users/me/balance`: `data.available_balance` (cash plus vouchers; CNY on api.moonshot.cn, USD on .ai). */
export async function readMoonshotBalance(channel: UpstreamChannel, context: BalanceContext): Promise<number> {
	const answer = await context.getJson(`${channel.baseUrl}/v1/users/me/balance`, { authorization: `Bearer ${channel.key}`, accept: 'application/json' })
	return amountOf((answer.data as Record<string, unknown> | undefined)?.available_balance)
}
