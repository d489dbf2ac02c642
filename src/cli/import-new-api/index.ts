/**
 * `ferry import new-api <source>`: moves a new-api (or one-api) installation into an empty Ferry
 * database. Users keep their passwords, `sk-` keys keep working with their balances and limits,
 * channels keep their keys and routing, and every balance is opened in the ledger so `ferry audit`
 * is exact at once. Nothing runs through the relay. The tables' modules say what each carries over.
 *
 * Order: check the target is empty, read and map the core tables (`plan.ts`), write them in one
 * transaction (`write.ts`), then, with `withLogs`, the history page by page.
 */
import type { Store } from '@/db'
import { advanceIdSequences } from '@/db/id-sequences'
import type { SecretBox } from '@/lib/crypto'
import { importLogs } from './logs'
import { planImport } from './plan'
import { importQuotaData } from './quota-data'
import { ImportReport } from './report'
import type { SourceDatabase } from './source'
import { importMidjourneys, importTasks } from './tasks'
import { requireEmptyTarget, writePlan } from './write'

export interface ImportInput {
	source: SourceDatabase
	/** Where `logs` lives when new-api kept it in a database of its own (`LOG_SQL_DSN`). */
	logsSource?: SourceDatabase
	/** The Ferry database and how to name it in messages; absent for a dry run, which writes nothing. */
	target?: { store: Store; where: string }
	/** Ferry's secrets: channel keys and token keys are sealed with them. */
	secrets: SecretBox
	/** Also consume logs, drawing and async tasks, and the dashboard's usage buckets. */
	withLogs: boolean
	progress(line: string): void
	now?: number
}

export async function importNewApi({ source, logsSource = source, target, secrets, withLogs, progress, now = Math.floor(Date.now() / 1000) }: ImportInput): Promise<ImportReport> {
	if (target) await requireEmptyTarget(target.store, target.where)
	const report = new ImportReport()
	const plan = await planImport(source, { secrets, now, report, progress, logsSource })
	const store = target?.store
	if (store) await writePlan(store, plan, { source: plan.flavor, time: now, progress })
	if (!withLogs) {
		report.section('logs').note('not imported: add --with-logs to bring consume logs, drawing and async tasks, and usage buckets')
		return report
	}
	const channelNames = new Map(plan.channels.map((channel) => [channel.id, channel.name]))
	await importLogs(logsSource, store, { channelNames, report: report.section('logs'), progress })
	const drawingsReport = report.section('midjourneys')
	await importTasks(source, store, report.section('tasks'), progress)
	if (store) await advanceIdSequences(store, ['tasks'])
	await importMidjourneys(source, store, drawingsReport, progress)
	await importQuotaData(source, store, report.section('quota_data'), progress)
	return report
}
