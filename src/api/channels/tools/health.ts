/**
 * One round of the channel health check (docs/specification/channels.md#health-and-recovery): test every enabled and every
 * auto-disabled channel. A failing test, or one slower than `ChannelDisableThreshold` seconds, is
 * counted on the channel (`health_failures`); once `ChannelTestFailuresToDisable` of them come in a
 * row, an enabled channel is taken out (status 3) when `AutomaticDisableChannelEnabled` is on and
 * the channel's `auto_ban` is 1, and the count starts again. A passing test clears the count and
 * brings an auto-disabled channel back when `AutomaticEnableChannelEnabled` is on. Channels disabled
 * by hand (status 2) are left alone.
 * A multi-key channel is tested with one usable key (the first enabled one, else the first
 * auto-disabled one) and judged by that key (`judgeKey`).
 * The scheduled check runs it without the channels whose `scheduled_test_enabled` is off; an
 * admin's "test all" runs it on every channel.
 */
import { CHANNEL_STATUS } from '@shared/channel-type'
import { inEnglish, nested } from '@shared/messages'
import { statusReason, statusReasonMessage, type StatusReason } from '@shared/messages/channel-status'
import type { Dependencies } from '@/dependencies'
import { disabledForItsKeys, enableAutoDisabledKey, markKeyAutoDisabled } from '@/db/stores/channel-keys'
import { countHealthFailure, resetHealthFailures } from '@/db/stores/channel-health-failures'
import { enableAutoDisabledChannel, isMultiKey, markChannelAutoDisabled } from '@/db/stores/channels'
import { eachBounded } from './bounded'
import { runChannelTest, systemRunner, testEndpoint, type ChannelTestOutcome, type TestRunner } from './channel-test'
import { testChannelKey } from './key-tests'
import { loadToolChannels, usableKey, type ToolChannel, type ToolKey } from './upstream'

/** Channels tested at the same time in one round. */
const HEALTH_CONCURRENCY = 4
const MILLISECONDS_PER_SECOND = 1000

export interface HealthRoundSummary {
	tested: number
	failed: number
	/** Channels left out because they opted out of the scheduled check. */
	skipped: number
	disabled: number[]
	enabled: number[]
}

/** Who runs a round: the schedule (as the super admin), or an admin's "test all" (as that admin). */
export type HealthRoundTrigger = { scheduled: true } | { scheduled: false; runner: TestRunner }

const SCHEDULED: HealthRoundTrigger = { scheduled: true }

/** Why the outcome counts as a failure, or undefined when it passed. */
function failureReason(dependencies: Dependencies, outcome: ChannelTestOutcome): StatusReason | undefined {
	if (!outcome.success) return statusReason('test.failed', { reason: outcome.message ? nested(outcome.message) : '' })
	const thresholdSeconds = dependencies.options.get('ChannelDisableThreshold')
	if (thresholdSeconds > 0 && outcome.time > thresholdSeconds * MILLISECONDS_PER_SECOND) {
		return statusReason('test.slow', { seconds: (outcome.time / MILLISECONDS_PER_SECOND).toFixed(2), threshold: thresholdSeconds })
	}
	return undefined
}

/**
 * Counts the failure of an enabled channel; answers the reason to take it (or its key) out with once
 * the count reaches `ChannelTestFailuresToDisable` and auto-disabling is allowed, else undefined.
 */
async function reasonToDisable(dependencies: Dependencies, channel: ToolChannel, reason: StatusReason): Promise<StatusReason | undefined> {
	const { options, store } = dependencies
	const failures = await countHealthFailure(store, channel.id)
	const needed = options.get('ChannelTestFailuresToDisable')
	if (failures < needed || !channel.autoBan || !options.get('AutomaticDisableChannelEnabled')) return undefined
	return needed > 1 ? statusReason('test.failed_repeatedly', { count: failures, reason: statusReasonMessage(reason) }) : reason
}

async function judge(dependencies: Dependencies, channel: ToolChannel, outcome: ChannelTestOutcome, summary: HealthRoundSummary) {
	const { options, logger, store, changes } = dependencies
	const reason = failureReason(dependencies, outcome)
	if (reason) summary.failed++
	else await resetHealthFailures(store, channel.id)
	if (reason && channel.status === CHANNEL_STATUS.enabled) {
		const disableWith = await reasonToDisable(dependencies, channel, reason)
		if (disableWith && await markChannelAutoDisabled(store, channel.id, disableWith, changes)) {
			summary.disabled.push(channel.id)
			logger.warn('channel disabled by its health check', { channelId: channel.id, reason: inEnglish(statusReasonMessage(disableWith)) })
		}
		if (disableWith) await resetHealthFailures(store, channel.id)
	}
	if (!reason && channel.status === CHANNEL_STATUS.autoDisabled && options.get('AutomaticEnableChannelEnabled')) {
		if (await enableAutoDisabledChannel(store, channel.id, changes)) {
			summary.enabled.push(channel.id)
			logger.info('channel enabled again by its health check', { channelId: channel.id })
		}
	}
}

/**
 * A multi-key channel is judged by the key tested: a failing enabled key is auto-disabled (and the
 * channel with it when it was the last) once the channel's count of failures in a row is reached —
 * the next key then starts a count of its own —, a passing auto-disabled key comes back (and the
 * channel when it was out for its keys); a channel auto-disabled for another reason comes back on a pass.
 */
async function judgeKey(dependencies: Dependencies, channel: ToolChannel, key: ToolKey, outcome: ChannelTestOutcome, summary: HealthRoundSummary) {
	const { options, logger, store, changes } = dependencies
	const reason = failureReason(dependencies, outcome)
	const ref = { channelId: channel.id, index: key.index }
	if (reason) summary.failed++
	else await resetHealthFailures(store, channel.id)
	if (reason && key.status === CHANNEL_STATUS.enabled && channel.status === CHANNEL_STATUS.enabled) {
		const disableWith = await reasonToDisable(dependencies, channel, reason)
		if (disableWith) {
			const change = await markKeyAutoDisabled(store, ref, disableWith, changes)
			await resetHealthFailures(store, channel.id)
			if (change.channel) summary.disabled.push(channel.id)
			if (change.key) logger.warn('channel key disabled by its health check', { channelId: channel.id, key: key.index, reason: inEnglish(statusReasonMessage(disableWith)) })
		}
	}
	if (!reason && options.get('AutomaticEnableChannelEnabled')) {
		const change = key.status === CHANNEL_STATUS.autoDisabled ? await enableAutoDisabledKey(store, ref, changes) : { key: false, channel: false }
		const channelBack = change.channel || (channel.status === CHANNEL_STATUS.autoDisabled && !disabledForItsKeys(channel.otherInfo)
			&& await enableAutoDisabledChannel(store, channel.id, changes))
		if (channelBack) summary.enabled.push(channel.id)
		if (change.key || channelBack) logger.info('channel key enabled again by its health check', { channelId: channel.id, key: key.index })
	}
}

export async function runHealthRound(dependencies: Dependencies, trigger: HealthRoundTrigger = SCHEDULED): Promise<HealthRoundSummary> {
	// Types with nothing to test (Midjourney, Suno) would only ever fail.
	const testable = (await loadToolChannels(dependencies, [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled]))
		.filter((channel) => testEndpoint(channel.type) !== undefined)
	const channels = trigger.scheduled ? testable.filter((channel) => channel.scheduledTest) : testable
	const testRunner = trigger.scheduled ? await systemRunner(dependencies) : trigger.runner
	const summary: HealthRoundSummary = { tested: 0, failed: 0, skipped: testable.length - channels.length, disabled: [], enabled: [] }
	await eachBounded(channels, HEALTH_CONCURRENCY, async (channel) => {
		try {
			if (!isMultiKey(channel)) {
				const outcome = await runChannelTest(dependencies, channel, testRunner)
				summary.tested++
				await judge(dependencies, channel, outcome, summary)
				return
			}
			// Every key disabled by hand: nothing to test.
			const key = usableKey(channel)
			if (!key) return
			const outcome = await testChannelKey(dependencies, channel, key, testRunner)
			summary.tested++
			await judgeKey(dependencies, channel, key, outcome, summary)
		} catch (error) {
			dependencies.logger.error('testing a channel failed', { channelId: channel.id, error: String(error) })
		}
	})
	return summary
}
