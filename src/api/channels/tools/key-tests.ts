/**
 * Testing the keys of a channel: one named key, or every key a few at a time. Each test is the
 * channel test (`channel-test.ts`) with that key, and its outcome — response time, test time, the
 * error or none — is recorded on the key. A single-key channel's one key is index 0: testing it is
 * testing the channel.
 */
import { CHANNEL_MESSAGES, type ChannelKeyTestReport } from '@shared/channel'
import { type Language, nested, renderMessage, withValues } from '@shared/messages'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import type { Dependencies } from '@/dependencies'
import { isMultiKey } from '@/db/stores/channels'
import { recordKeyOutcome } from '@/db/stores/key-outcomes'
import { refused } from '../../errors'
import { eachBounded } from './bounded'
import { runChannelTest, type ChannelTestOutcome, type TestRunner } from './channel-test'
import { usableKey, withKey, type ToolChannel, type ToolKey } from './upstream'

/** Keys of one channel tested at the same time. */
const KEY_TEST_CONCURRENCY = 4
/** How long `keys=all` waits before answering; keys still running then finish in the background. */
const KEY_TEST_REPORT_WAIT_MS = 20_000

export type KeyTestOutcome = ChannelTestOutcome & { key: number }

/** The test of one key of the channel, recorded on the key. Never throws for what the upstream does. */
export async function testChannelKey(dependencies: Dependencies, channel: ToolChannel, key: ToolKey, runner: TestRunner, model?: string): Promise<KeyTestOutcome> {
	const outcome = await runChannelTest(dependencies, withKey(channel, key), runner, model)
	if (isMultiKey(channel)) {
		await recordKeyOutcome(dependencies.store, { channelId: channel.id, index: key.index }, {
			responseTime: outcome.time, tested: true, error: outcome.success ? null : nested(outcome.message || CHANNEL_TOOL_MESSAGES.requestFailed), secret: key.key,
		})
	}
	return { ...outcome, key: key.index }
}

/**
 * The key `index` names, or when none is named a single-key channel's own key (whatever the
 * channel's status) or a multi-key channel's usable one; refused when there is none.
 */
export function keyToTest(channel: ToolChannel, index?: number): ToolKey {
	if (index === undefined && !isMultiKey(channel)) return channel.toolKeys[0]!
	if (index === undefined) {
		const key = usableKey(channel)
		if (!key) throw refused(CHANNEL_TOOL_MESSAGES.noUsableKey)
		return key
	}
	const key = channel.toolKeys.find((candidate) => candidate.index === index)
	if (!key) throw refused(withValues(CHANNEL_MESSAGES.keyNotFound, { index }))
	return key
}

/** Channels whose keys are being tested, so that a second "test all keys" waits for the first. */
const runningKeyTests = new WeakMap<Dependencies, Set<number>>()

/**
 * Tests every key of the channel (disabled ones too: an admin may check a key before enabling it),
 * KEY_TEST_CONCURRENCY at a time; answers the outcomes ready after KEY_TEST_REPORT_WAIT_MS at the
 * latest (in index order, worded in `language`), the rest counted as pending.
 */
export async function testAllKeys(dependencies: Dependencies, channel: ToolChannel, runner: TestRunner, language: Language, model?: string): Promise<ChannelKeyTestReport> {
	const running = runningKeyTests.get(dependencies) ?? new Set<number>()
	runningKeyTests.set(dependencies, running)
	if (running.has(channel.id)) throw refused(CHANNEL_TOOL_MESSAGES.keyTestRunning)
	running.add(channel.id)
	const report: ChannelKeyTestReport = { tested: 0, failed: 0, pending: channel.toolKeys.length, outcomes: [] }
	const done = eachBounded(channel.toolKeys, KEY_TEST_CONCURRENCY, async (key) => {
		try {
			const outcome = await testChannelKey(dependencies, channel, key, runner, model)
			report.tested++
			if (!outcome.success) report.failed++
			report.outcomes.push({ index: key.index, success: outcome.success, message: outcome.message ? renderMessage(language, outcome.message) : '', time: outcome.time })
		} catch (error) {
			dependencies.logger.error('testing a channel key failed', { channelId: channel.id, key: key.index, error: String(error) })
		}
		report.pending--
	}).finally(() => running.delete(channel.id))
	let timer: ReturnType<typeof setTimeout> | undefined
	await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, KEY_TEST_REPORT_WAIT_MS)))])
	clearTimeout(timer)
	return { ...report, outcomes: [...report.outcomes].sort((left, right) => left.index - right.index) }
}
