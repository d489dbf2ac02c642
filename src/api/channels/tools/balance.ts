/**
 * Channel balances (docs/specification/channels.md#the-channel-tools `GET /api/channel/update_balance`): for types whose adaptor reads a
 * balance (`ProviderAdaptor.readBalance`), ask the provider through the outbound client and store
 * `balance` and `balance_updated_time`. Amounts are in the provider's own currency. A multi-key
 * channel asks with a usable key (its keys are assumed to share one account).
 */
import { eq } from 'drizzle-orm'
import type { BalanceUpdateReport } from '@shared/channel'
import { type Language, renderMessage, type ServerMessage, withValues } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { CHANNEL_STATUS } from '@shared/channel-type'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { OutboundError } from '@/lib/outbound'
import { capabilities, channelTypeName, loadAdaptor } from '@/relay/providers/registry'
import type { BalanceContext } from '@/relay/providers/types'
import { ApiError, refused } from '../../errors'
import { eachBounded } from './bounded'
import { baseUrlOf, loadToolChannel, loadToolChannels, outboundFailure, upstreamFailure, upstreamGet, withoutV1, withUsableKey, type ToolChannel } from './upstream'

const BALANCE_CONCURRENCY = 4
/** How long `update all` waits before answering; channels still running then finish in the background. */
const BALANCE_REPORT_WAIT_MS = 20_000

/** A failure whose reason is fit for the admin as it is. */
class BalanceError extends Error {
	constructor(readonly reason: ServerMessage) {
		super('reading the balance failed')
	}
}

function balanceContext(dependencies: Dependencies, channel: ToolChannel): BalanceContext {
	return {
		async getJson(url, headers) {
			const answer = await upstreamGet(dependencies, url, headers)
			if (answer.status < 200 || answer.status > 299) throw new BalanceError(upstreamFailure(answer.status, answer.text, channel))
			try {
				const parsed: unknown = JSON.parse(answer.text)
				if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>
			} catch {
				// Reported below.
			}
			throw new BalanceError(CHANNEL_TOOL_MESSAGES.balanceUnreadable)
		},
		now: () => Date.now(),
	}
}

const hasBalanceApi = (type: number) => capabilities(type)?.readsBalance === true

/** Asks the provider and stores the balance; answers it. Failures are `success:false` with the reason. */
async function updateChannelBalance(dependencies: Dependencies, channel: ToolChannel): Promise<number> {
	const adaptor = await loadAdaptor(channel.type)
	if (!adaptor?.readBalance) throw refused(withValues(CHANNEL_TOOL_MESSAGES.balanceUnsupported, { type: channelTypeName(channel.type) }))
	let balance: number
	try {
		const baseUrl = withoutV1(baseUrlOf(channel.type, channel.baseUrl))
		balance = await adaptor.readBalance({ ...channel, baseUrl }, balanceContext(dependencies, channel))
	} catch (error) {
		if (error instanceof BalanceError) throw refused(error.reason)
		if (error instanceof OutboundError) throw refused(outboundFailure(error, CHANNEL_TOOL_MESSAGES.balanceRequestFailed))
		throw refused(CHANNEL_TOOL_MESSAGES.balanceRequestFailed)
	}
	if (!Number.isFinite(balance)) throw refused(CHANNEL_TOOL_MESSAGES.balanceUnreadable)
	const { channels } = dependencies.store.tables
	await dependencies.store.db.update(channels).set({ balance, balanceUpdatedTime: nowSeconds() }).where(eq(channels.id, channel.id))
	return balance
}

export async function updateBalanceById(dependencies: Dependencies, id: number): Promise<number> {
	return updateChannelBalance(dependencies, withUsableKey(await loadToolChannel(dependencies, id)))
}

/**
 * Every enabled channel with a balance API, at most BALANCE_CONCURRENCY at a time; answers what was
 * updated and what failed and why (in `language`), once all are done or after BALANCE_REPORT_WAIT_MS
 * (the rest are counted as pending and finish in the background).
 */
export async function updateAllBalances(dependencies: Dependencies, language: Language): Promise<BalanceUpdateReport> {
	const channels = (await loadToolChannels(dependencies, [CHANNEL_STATUS.enabled])).filter((channel) => hasBalanceApi(channel.type))
	const report: BalanceUpdateReport = { updated: 0, failed: [], pending: channels.length }
	const done = eachBounded(channels, BALANCE_CONCURRENCY, async (channel) => {
		try {
			await updateChannelBalance(dependencies, withUsableKey(channel))
			report.updated++
		} catch (error) {
			dependencies.logger.warn('updating a channel balance failed', { channelId: channel.id, reason: String((error as Error).message) })
			const reason = error instanceof ApiError ? renderMessage(language, error.reason) : renderMessage(language, CHANNEL_TOOL_MESSAGES.balanceRequestFailed)
			report.failed.push({ id: channel.id, name: channel.name, reason })
		}
		report.pending--
	})
	let timer: ReturnType<typeof setTimeout> | undefined
	await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, BALANCE_REPORT_WAIT_MS)))])
	clearTimeout(timer)
	return { updated: report.updated, failed: [...report.failed], pending: report.pending }
}
