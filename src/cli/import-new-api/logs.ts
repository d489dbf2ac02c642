/**
 * `--with-logs`: new-api's consume log lines (model/log.go) as history, with their ids, a page per
 * transaction and a progress line as it goes (a log table can hold millions of rows).
 *
 * Only consume lines come over. Top-up, admin and system lines are credits to Ferry's ledger: the
 * balances they produced are already opened (opening-balance.ts), so importing them would count
 * them twice and the audit would no longer add up. Error and refund lines have no Ferry type.
 * one-api logs time a call in `elapsed_time` (milliseconds) where new-api has `use_time` (seconds).
 */
import { LOG_TYPE } from '@shared/log'
import type { Store, Tables } from '@/db'
import type { ReportSection } from './report'
import type { SourceDatabase, SourceRow } from './source'
import { flag, integer, outOfRange, text, unixSeconds } from './values'
import { PAGE_SIZE, reportRowsWithoutId } from './plan'
import { insertRows } from '@/db/bulk-insert'

type LogRow = Tables['logs']['$inferInsert']

/** new-api's log types other than consume, and why they stay behind. */
const LEFT_BEHIND: Record<number, string> = {
	1: 'top-up lines: credits already in the opened balances',
	3: 'admin lines: credits already in the opened balances',
	4: 'system lines: credits already in the opened balances',
	5: 'error lines: Ferry keeps no error log type',
	6: 'refund lines: refunds already in the opened balances',
}
const MILLISECONDS_PER_SECOND = 1000
/** A progress line every this many rows read. */
const PROGRESS_EVERY = 10_000

function mapLog(row: SourceRow, channelNames: ReadonlyMap<number, string>): LogRow {
	const channelId = integer(row, 'channel_id')
	const useTime = 'use_time' in row ? integer(row, 'use_time') : Math.round(integer(row, 'elapsed_time') / MILLISECONDS_PER_SECOND)
	return {
		id: integer(row, 'id'),
		userId: integer(row, 'user_id'),
		createdAt: unixSeconds(row, 'created_at'),
		type: LOG_TYPE.consume,
		content: text(row, 'content'),
		username: text(row, 'username'),
		tokenName: text(row, 'token_name'),
		tokenId: integer(row, 'token_id'),
		modelName: text(row, 'model_name'),
		quota: integer(row, 'quota'),
		promptTokens: integer(row, 'prompt_tokens'),
		completionTokens: integer(row, 'completion_tokens'),
		useTime,
		isStream: flag(row, 'is_stream'),
		channelId,
		channelName: text(row, 'channel_name') || channelNames.get(channelId) || '',
		group: text(row, 'group'),
		ip: text(row, 'ip'),
		requestId: text(row, 'request_id'),
		other: text(row, 'other'),
	}
}

/** Without a store (a dry run) the lines are only read and counted. */
export async function importLogs(source: SourceDatabase, store: Store | undefined, { channelNames, report, progress }: {
	channelNames: ReadonlyMap<number, string>
	report: ReportSection
	progress(line: string): void
}) {
	if (!await source.hasTable('logs')) {
		report.note('the source has no logs table: nothing to import')
		return
	}
	const total = await source.count('logs')
	await reportRowsWithoutId(source, 'logs', report)
	let nextProgress = PROGRESS_EVERY
	for await (const page of source.pages('logs', PAGE_SIZE)) {
		const consume: LogRow[] = []
		for (const row of page) {
			report.read += 1
			const type = integer(row, 'type')
			if (type !== LOG_TYPE.consume) {
				report.skip(LEFT_BEHIND[type] ?? `lines of type ${type}`)
				continue
			}
			const line = mapLog(row, channelNames)
			const problem = outOfRange(line)
			if (problem) report.skip(problem, integer(row, 'id'))
			else consume.push(line)
		}
		await store?.transaction(function* (_tx, tables) {
			yield* insertRows(tables.logs, consume)
		})
		report.imported += consume.length
		if (report.read >= nextProgress) {
			progress(`logs: ${report.read} of ${total} read, ${report.imported} imported`)
			nextProgress += PROGRESS_EVERY
		}
	}
	progress(`logs: ${report.read} read, ${report.imported} imported`)
}
