import { amountOf } from '../shared/amount'
import type { BalanceContext, UpstreamChannel } from '../types'

/** SiliconFlow `GET /v1/user/info`: `data.totalBalance` (gift plus charged), as text, in CNY. */
export async function readSiliconFlowBalance(channel: UpstreamChannel, context: BalanceContext): Promise<number> {
	const answer = await context.getJson(`${channel.baseUrl}/v1/user/info`, { authorization: `Bearer ${channel.key}`, accept: 'application/json' })
	return amountOf((answer.data as Record<string, unknown> | undefined)?.totalBalance)
}
