import { amountOf } from '../shared/amount'
import type { BalanceContext, UpstreamChannel } from '../types'

/** DeepSeek `GET /user/balance`: one entry per currency, `total_balance` as text; USD preferred, else the first (often CNY). */
export async function readDeepSeekBalance(channel: UpstreamChannel, context: BalanceContext): Promise<number> {
	const answer = await context.getJson(`${channel.baseUrl}/user/balance`, { authorization: `Bearer ${channel.key}`, accept: 'application/json' })
	const entries = Array.isArray(answer.balance_infos) ? (answer.balance_infos as Record<string, unknown>[]) : []
	const entry = entries.find((info) => info?.currency === 'USD') ?? entries[0]
	return amountOf(entry?.total_balance)
}
