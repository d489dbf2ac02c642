/**
 * The poller of a platform whose upstream reports on several tasks in one answer (midjourney-proxy's
 * list-by-condition, Suno's batch fetch): the rows are grouped by channel and by the key that
 * submitted them, and each such key is asked once per round, through its provider's task adaptor (`fetchRequest`, `readFetch`).
 */
import type { LogLineCode } from '@shared/messages/logs'
import type { RoutableChannel } from '@/db/stores/channels'
import { loadAdaptor } from '../providers/registry'
import type { TaskAdaptor, TaskPlatform } from '../providers/types'
import { scrubSecrets } from '../upstream/messages'
import { channelsById, withTaskKey } from './task-channels'
import { failureReport, type PollRound, type TaskPoller } from './task-poller'
import { readBilling, type TaskRow } from './task-rows'

const FETCH_TIMEOUT_MS = 30_000
/** Unfinished tasks read per round (new-api reads up to 1 000; one fetch per channel carries them). */
const ROUND_LIMIT = 500

/** Asks the channel after `ids` in one request; undefined (and a warning) when it cannot answer. */
async function fetchReports({ dependencies, relay }: PollRound, channel: RoutableChannel, adaptor: TaskAdaptor, ids: string[]) {
	const upstream = adaptor.fetchRequest(channel, ids)
	try {
		const response = await relay.outbound(upstream.url, { method: upstream.method ?? 'POST', headers: upstream.headers, body: upstream.body, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
		const text = await response.text()
		if (!response.ok) throw new Error(`the upstream answered ${response.status}`)
		const reports = adaptor.readFetch(text)
		return new Map(reports.map((report) => [report.id, { ...report, failReason: report.failReason && scrubSecrets(report.failReason, channel) }]))
	} catch (error) {
		dependencies.logger.warn('polling a channel\'s tasks failed', { channelId: channel.id, reason: scrubSecrets(String((error as Error).message ?? error), channel) })
		return undefined
	}
}

export interface BatchPlatform {
	platform: TaskPlatform
	failedLine: LogLineCode
	/** The id the upstream knows the task by. */
	upstreamId: (row: TaskRow) => string
}

export function batchPoller({ platform, failedLine, upstreamId }: BatchPlatform): TaskPoller {
	return {
		platform,
		failedLine,
		roundLimit: ROUND_LIMIT,
		async poll(round, rows) {
			// One fetch per channel and key: the upstream knows a task under the key that submitted it.
			const byKey = new Map<string, { channelId: number; keyIndex: number | undefined; rows: TaskRow[] }>()
			for (const row of rows) {
				const keyIndex = readBilling(row.privateData).key_index
				const name = `${row.channelId}:${keyIndex ?? ''}`
				const group = byKey.get(name) ?? { channelId: row.channelId, keyIndex, rows: [] }
				group.rows.push(row)
				byKey.set(name, group)
			}
			const channels = await channelsById(round.dependencies, [...new Set(rows.map((row) => row.channelId))])
			for (const { channelId, keyIndex, rows: channelRows } of byKey.values()) {
				const stored = channels.get(channelId)
				const adaptor = stored && (await loadAdaptor(stored.type))?.tasks
				const channel = stored && withTaskKey(round.relay, stored, keyIndex)
				if (!channel || adaptor?.platform !== platform) {
					for (const row of channelRows) await round.apply(row, failureReport('the channel that ran the task no longer exists'), 'channel_gone')
					continue
				}
				const known = channelRows.filter((row) => upstreamId(row) !== '')
				for (const row of channelRows) if (upstreamId(row) === '') await round.apply(row, failureReport('the upstream gave the task no id'), 'task_failed')
				if (known.length === 0) continue
				const reports = await fetchReports(round, channel, adaptor, known.map(upstreamId))
				if (!reports) continue
				for (const row of known) {
					const report = reports.get(upstreamId(row))
					if (report) await round.apply(row, report, 'task_failed')
				}
			}
		},
	}
}
