/**
 * Channel balances (seed 001 §7 `GET /api/channel/update_balance`): for types whose provider
 * publishes a balance call, ask it through the outbound client and store `balance` and
 * `balance_updated_time`. Amounts are stored in the provider's own currency (see NOTES.md).
 */
import { eq } from 'drizzle-orm'
import { CHANNEL_STATUS, CHANNEL_TYPE, CHANNEL_TYPE_NAMES, type ChannelType } from '@shared/channel-type'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { OutboundError } from '@/lib/outbound'
import { refused } from '../../errors'
import { eachBounded } from './bounded'
import { baseUrlOf, loadToolChannel, loadToolChannels, upstreamFailure, upstreamGet, withoutV1, type ToolChannel } from './upstream'

const CENTS_PER_DOLLAR = 100
const BALANCE_CONCURRENCY = 4
/** The usage window asked of OpenAI-style billing: the last hundred days, as the dashboards did. */
const USAGE_WINDOW_DAYS = 100
const MILLISECONDS_PER_DAY = 86_400_000

export const BALANCE_MESSAGES = {
	unsupported: (type: number) => `${CHANNEL_TYPE_NAMES[type as ChannelType] ?? `type ${type}`} channels have no balance API`,
	unreadable: 'the upstream balance answer could not be read',
	started: (count: number) => `updating the balance of ${count} enabled channel(s) in the background`,
}

type Json = Record<string, any>
type BalanceReader = (dependencies: Dependencies, channel: ToolChannel, base: string) => Promise<number>

class BalanceError extends Error {}

const bearer = (channel: ToolChannel) => ({ authorization: `Bearer ${channel.key}`, accept: 'application/json' })

async function getJson(dependencies: Dependencies, channel: ToolChannel, url: string): Promise<Json> {
	const answer = await upstreamGet(dependencies, url, bearer(channel))
	if (answer.status < 200 || answer.status > 299) throw new BalanceError(upstreamFailure(answer.status, answer.text, channel))
	try {
		const parsed: unknown = JSON.parse(answer.text)
		if (typeof parsed === 'object' && parsed !== null) return parsed as Json
	} catch {
		// Reported below.
	}
	throw new BalanceError(BALANCE_MESSAGES.unreadable)
}

function amount(value: unknown): number {
	const parsed = typeof value === 'string' ? Number(value) : value
	if (typeof parsed !== 'number' || !Number.isFinite(parsed)) throw new BalanceError(BALANCE_MESSAGES.unreadable)
	return parsed
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10)

/** OpenAI's dashboard billing (also served by one-api/new-api relays): hard limit − usage (cents). */
const openAIBilling: BalanceReader = async (dependencies, channel, base) => {
	const subscription = await getJson(dependencies, channel, `${base}/v1/dashboard/billing/subscription`)
	const now = Date.now()
	const window = `start_date=${isoDay(now - USAGE_WINDOW_DAYS * MILLISECONDS_PER_DAY)}&end_date=${isoDay(now + MILLISECONDS_PER_DAY)}`
	const usage = await getJson(dependencies, channel, `${base}/v1/dashboard/billing/usage?${window}`)
	return amount(subscription.hard_limit_usd) - amount(usage.total_usage) / CENTS_PER_DOLLAR
}

/** DeepSeek `GET /user/balance`: one entry per currency; USD preferred. */
const deepSeekBalance: BalanceReader = async (dependencies, channel, base) => {
	const answer = await getJson(dependencies, channel, `${base}/user/balance`)
	const entries: Json[] = Array.isArray(answer.balance_infos) ? answer.balance_infos : []
	const entry = entries.find((info) => info.currency === 'USD') ?? entries[0]
	if (!entry) throw new BalanceError(BALANCE_MESSAGES.unreadable)
	return amount(entry.total_balance)
}

/** Moonshot `GET /v1/users/me/balance`: `data.available_balance` (cash plus vouchers). */
const moonshotBalance: BalanceReader = async (dependencies, channel, base) =>
	amount((await getJson(dependencies, channel, `${base}/v1/users/me/balance`)).data?.available_balance)

/** SiliconFlow `GET /v1/user/info`: `data.totalBalance` (gift plus charged), as text. */
const siliconFlowBalance: BalanceReader = async (dependencies, channel, base) =>
	amount((await getJson(dependencies, channel, `${base}/v1/user/info`)).data?.totalBalance)

const BALANCE_READERS: Partial<Record<number, BalanceReader>> = {
	[CHANNEL_TYPE.openai]: openAIBilling,
	[CHANNEL_TYPE.custom]: openAIBilling,
	[CHANNEL_TYPE.deepseek]: deepSeekBalance,
	[CHANNEL_TYPE.moonshot]: moonshotBalance,
	[CHANNEL_TYPE.siliconflow]: siliconFlowBalance,
}

export const hasBalanceApi = (type: number) => BALANCE_READERS[type] !== undefined

/** The channel's base URL without a trailing `/v1`, which every balance path adds itself. */
function balanceBase(channel: ToolChannel): string {
	const base = baseUrlOf(channel.type, channel.baseUrl)
	// A custom channel's URL may hold `{model}` in its path: only its origin has the billing calls.
	if (channel.type === CHANNEL_TYPE.custom && base.includes('{model}')) return new URL(base.replace('{model}', '')).origin
	return withoutV1(base)
}

/** Asks the provider and stores the balance; answers it. Failures are `success:false` with the reason. */
export async function updateChannelBalance(dependencies: Dependencies, channel: ToolChannel): Promise<number> {
	const reader = BALANCE_READERS[channel.type]
	if (!reader) throw refused(BALANCE_MESSAGES.unsupported(channel.type))
	let balance: number
	try {
		balance = await reader(dependencies, channel, balanceBase(channel))
	} catch (error) {
		if (error instanceof BalanceError || error instanceof OutboundError) throw refused(error.message)
		throw refused('the balance request to the upstream failed')
	}
	const { channels } = dependencies.store.tables
	await dependencies.store.db.update(channels).set({ balance, balanceUpdatedTime: nowSeconds() }).where(eq(channels.id, channel.id))
	return balance
}

export async function updateBalanceById(dependencies: Dependencies, id: number): Promise<number> {
	return updateChannelBalance(dependencies, await loadToolChannel(dependencies, id))
}

/** Every enabled channel with a balance API, in the background; answers how many were started. */
export async function updateAllBalances(dependencies: Dependencies): Promise<number> {
	const channels = (await loadToolChannels(dependencies, [CHANNEL_STATUS.enabled])).filter((channel) => hasBalanceApi(channel.type))
	void eachBounded(channels, BALANCE_CONCURRENCY, async (channel) => {
		await updateChannelBalance(dependencies, channel).catch((error) =>
			dependencies.logger.warn('updating a channel balance failed', { channelId: channel.id, reason: String((error as Error).message) }))
	})
	return channels.length
}
