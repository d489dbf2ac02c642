/**
 * One round of the channel health check (design §5.9, seed 001 §4): test every enabled and every
 * auto-disabled channel. A failing test, or one slower than `ChannelDisableThreshold` seconds,
 * takes an enabled channel out (status 3) when `AutomaticDisableChannelEnabled` is on and the
 * channel's `auto_ban` is 1; a passing test brings an auto-disabled channel back when
 * `AutomaticEnableChannelEnabled` is on. Channels disabled by hand (status 2) are left alone.
 * The scheduled check and "test all" both run it.
 */
import { and, eq } from 'drizzle-orm'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { inEnglish, nested } from '@shared/messages'
import { statusReason, statusReasonMessage, type StatusReason } from '@shared/messages/channel-status'
import { rows } from '@/db'
import type { Dependencies } from '@/dependencies'
import { rebuildAbilities } from '@/db/stores/abilities'
import { withStatusInfo } from '@/db/stores/channels'
import { markChannelAutoDisabled } from '@/db/stores/channels'
import { eachBounded } from './bounded'
import { runChannelTest, systemRunner, testEndpoint, type ChannelTestOutcome, type TestRunner } from './channel-test'
import { loadToolChannels, type ToolChannel } from './upstream'

/** Channels tested at the same time in one round. */
const HEALTH_CONCURRENCY = 4
const MILLISECONDS_PER_SECOND = 1000

export interface HealthRoundSummary {
	tested: number
	failed: number
	disabled: number[]
	enabled: number[]
}

/** Why the outcome counts as a failure, or undefined when it passed. */
function failureReason(dependencies: Dependencies, outcome: ChannelTestOutcome): StatusReason | undefined {
	if (!outcome.success) return statusReason('test.failed', { reason: outcome.message ? nested(outcome.message) : '' })
	const thresholdSeconds = dependencies.options.get('ChannelDisableThreshold')
	if (thresholdSeconds > 0 && outcome.time > thresholdSeconds * MILLISECONDS_PER_SECOND) {
		return statusReason('test.slow', { seconds: (outcome.time / MILLISECONDS_PER_SECOND).toFixed(2), threshold: thresholdSeconds })
	}
	return undefined
}

/** Auto-disabled (status 3) → enabled, clearing the reason; answers false when it was not auto-disabled. */
async function enableAutoDisabledChannel(dependencies: Dependencies, channelId: number): Promise<boolean> {
	const enabled = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const isAutoDisabled = and(eq(channels.id, channelId), eq(channels.status, CHANNEL_STATUS.autoDisabled))
		const [channel] = yield* rows(tx.select({ otherInfo: channels.otherInfo }).from(channels).where(isAutoDisabled))
		if (!channel) return false
		const otherInfo = withStatusInfo(channel.otherInfo, CHANNEL_STATUS.enabled, undefined, 0)
		const [updated] = yield* rows(tx.update(channels).set({ status: CHANNEL_STATUS.enabled, otherInfo }).where(isAutoDisabled).returning({ id: channels.id }))
		if (!updated) return false
		yield* rebuildAbilities(tx, tables, [channelId])
		return true
	})
	if (enabled) dependencies.changes.notify('channels')
	return enabled
}

async function judge(dependencies: Dependencies, channel: ToolChannel, outcome: ChannelTestOutcome, summary: HealthRoundSummary) {
	const { options, logger, store, changes } = dependencies
	const reason = failureReason(dependencies, outcome)
	if (reason) summary.failed++
	if (reason && channel.status === CHANNEL_STATUS.enabled && channel.autoBan && options.get('AutomaticDisableChannelEnabled')) {
		if (await markChannelAutoDisabled(store, channel.id, reason, changes)) {
			summary.disabled.push(channel.id)
			logger.warn('channel disabled by its health check', { channelId: channel.id, reason: inEnglish(statusReasonMessage(reason)) })
		}
	}
	if (!reason && channel.status === CHANNEL_STATUS.autoDisabled && options.get('AutomaticEnableChannelEnabled')) {
		if (await enableAutoDisabledChannel(dependencies, channel.id)) {
			summary.enabled.push(channel.id)
			logger.info('channel enabled again by its health check', { channelId: channel.id })
		}
	}
}

export async function runHealthRound(dependencies: Dependencies, runner?: TestRunner): Promise<HealthRoundSummary> {
	// Types with nothing to test (Midjourney, Suno) would only ever fail.
	const channels = (await loadToolChannels(dependencies, [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled]))
		.filter((channel) => testEndpoint(channel.type) !== undefined)
	const testRunner = runner ?? await systemRunner(dependencies)
	const summary: HealthRoundSummary = { tested: 0, failed: 0, disabled: [], enabled: [] }
	await eachBounded(channels, HEALTH_CONCURRENCY, async (channel) => {
		try {
			const outcome = await runChannelTest(dependencies, channel, testRunner)
			summary.tested++
			await judge(dependencies, channel, outcome, summary)
		} catch (error) {
			dependencies.logger.error('testing a channel failed', { channelId: channel.id, error: String(error) })
		}
	})
	return summary
}
