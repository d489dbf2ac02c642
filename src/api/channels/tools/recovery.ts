/**
 * Key recovery: auto-disabled keys, and auto-disabled single-key channels, come back by themselves.
 * Every `KeyRecoveryIntervalMinutes` (0: never), on one node under the `key-recovery` lease, each
 * is probed with the cheapest call its provider has — the upstream's model list — or, when the
 * channel names a test model (or its type lists no models), the channel test with that model. A key
 * that passes is enabled again, and its channel with it when it was out only for its keys. Keys and
 * channels disabled by hand are never probed; neither is a multi-key channel an admin disabled.
 */
import { CHANNEL_STATUS } from '@shared/channel-type'
import type { Dependencies } from '@/dependencies'
import { startScheduledJob, type LeasedSchedule, type ScheduledJobInput } from '@/db/leased-schedule'
import { enableAutoDisabledKey } from '@/db/stores/channel-keys'
import { isMultiKey } from '@/db/stores/channels'
import { capabilities } from '@/relay/providers/registry'
import { eachBounded } from './bounded'
import { runChannelTest, systemRunner, type TestRunner } from './channel-test'
import { listUpstreamModels } from './models'
import { loadToolChannels, withKey, type ToolChannel, type ToolKey } from './upstream'

const RECOVERY_LEASE = 'key-recovery'
const RECOVERY_TICK_MS = 15_000
const MILLISECONDS_PER_MINUTE = 60_000
/** Probes at the same time in one round. */
const RECOVERY_CONCURRENCY = 4
/** The most keys one round probes; the rest wait for the next round. */
export const MAX_PROBES_PER_ROUND = 500

export interface RecoveryRoundSummary {
	probed: number
	/** `channel:index` of each key enabled again. */
	recovered: string[]
}

/** Whether the key answers now: the model list, or the channel test when it names a test model. */
async function probe(dependencies: Dependencies, channel: ToolChannel, key: ToolKey, runner: () => Promise<TestRunner>): Promise<boolean> {
	const keyed = withKey(channel, key)
	if (!channel.testModel && capabilities(channel.type)?.listsModels) {
		return listUpstreamModels(dependencies, { type: channel.type, baseUrl: channel.baseUrl, key: key.key, other: channel.other }).then(() => true, () => false)
	}
	return (await runChannelTest(dependencies, keyed, await runner())).success
}

/** The auto-disabled keys a round probes: of enabled channels, and of channels out only for their keys; a single-key channel's own. */
function keysToProbe(channels: readonly ToolChannel[]): { channel: ToolChannel; key: ToolKey }[] {
	const found: { channel: ToolChannel; key: ToolKey }[] = []
	for (const channel of channels) {
		if (!isMultiKey(channel)) {
			if (channel.status === CHANNEL_STATUS.autoDisabled) found.push({ channel, key: channel.toolKeys[0]! })
			continue
		}
		for (const key of channel.toolKeys) if (key.status === CHANNEL_STATUS.autoDisabled) found.push({ channel, key })
	}
	return found.slice(0, MAX_PROBES_PER_ROUND)
}

export async function runRecoveryRound(dependencies: Dependencies): Promise<RecoveryRoundSummary> {
	const channels = await loadToolChannels(dependencies, [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled])
	const summary: RecoveryRoundSummary = { probed: 0, recovered: [] }
	let testRunner: Promise<TestRunner> | undefined
	const runner = () => (testRunner ??= systemRunner(dependencies))
	await eachBounded(keysToProbe(channels), RECOVERY_CONCURRENCY, async ({ channel, key }) => {
		try {
			summary.probed++
			if (!await probe(dependencies, channel, key, runner)) return
			const change = await enableAutoDisabledKey(dependencies.store, { channelId: channel.id, index: key.index }, dependencies.changes)
			if (change.key || change.channel) {
				summary.recovered.push(`${channel.id}:${key.index}`)
				dependencies.logger.info('an auto-disabled key answered again and is back', { channelId: channel.id, key: key.index, channel: change.channel })
			}
		} catch (error) {
			dependencies.logger.error('probing an auto-disabled key failed', { channelId: channel.id, key: key.index, error: String(error) })
		}
	})
	return summary
}

export function startKeyRecovery(dependencies: Dependencies, input: ScheduledJobInput<RecoveryRoundSummary>): LeasedSchedule {
	const { store, options, logger } = dependencies
	return startScheduledJob(store, logger, input, {
		lease: RECOVERY_LEASE,
		description: 'key recovery',
		intervalMs: () => options.get('KeyRecoveryIntervalMinutes') * MILLISECONDS_PER_MINUTE,
		tickMs: RECOVERY_TICK_MS,
		runAtStart: false,
		run: () => runRecoveryRound(dependencies),
	})
}
