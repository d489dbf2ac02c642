/**
 * `--with-logs`: drawing tasks (`midjourneys`, model/midjourney.go) and async tasks (`tasks`,
 * model/task.go: Suno, video) as history, all into Ferry's one `tasks` table: the async tasks with
 * their ids, then the drawings with new ones after them (the two source tables' ids overlap).
 *
 * Only finished tasks come over. An unfinished one had its quota taken by new-api when it was
 * submitted and would be settled or refunded by new-api's poller: Ferry holds no hold for it and
 * cannot finish it, so it stays behind (let new-api's tasks finish before the move).
 * A task's `private_data` can hold an upstream key (Gemini, Vertex): only its result URL and
 * upstream task id are kept. Times in milliseconds (Midjourney's) become seconds.
 */
import type { Store, Tables } from '@/db'
import type { ReportSection } from './report'
import type { SourceDatabase, SourceRow } from './source'
import { integer, jsonObjectText, outOfRange, text, unixSeconds } from './values'
import { PAGE_SIZE, reportRowsWithoutId } from './plan'
import { insertRows } from '@/db/bulk-insert'
import { drawingValues } from '@/db/stores/drawings'

const FINISHED = new Set(['SUCCESS', 'FAILURE'])
const UNFINISHED_REASON = 'unfinished: new-api took its quota at submit and only new-api can finish it; let it finish before the move'

function mapMidjourney(row: SourceRow): Tables['tasks']['$inferInsert'] {
	return drawingValues({
		code: integer(row, 'code'),
		userId: integer(row, 'user_id'),
		action: text(row, 'action'),
		mjId: text(row, 'mj_id'),
		prompt: text(row, 'prompt'),
		promptEn: text(row, 'prompt_en'),
		description: text(row, 'description'),
		state: text(row, 'state'),
		submitTime: unixSeconds(row, 'submit_time'),
		startTime: unixSeconds(row, 'start_time'),
		finishTime: unixSeconds(row, 'finish_time'),
		imageUrl: text(row, 'image_url'),
		status: text(row, 'status'),
		progress: text(row, 'progress'),
		failReason: text(row, 'fail_reason'),
		channelId: integer(row, 'channel_id'),
		quota: integer(row, 'quota'),
		buttons: text(row, 'buttons'),
		properties: text(row, 'properties'),
	})
}

/** What of `private_data` may be kept: never the upstream key it can carry. */
function keptPrivateData(row: SourceRow): string {
	const { result_url: resultUrl, upstream_task_id: upstreamTaskId } = jsonObjectText(text(row, 'private_data')).parsed
	const kept = { ...(resultUrl ? { result_url: resultUrl } : {}), ...(upstreamTaskId ? { upstream_task_id: upstreamTaskId } : {}) }
	return Object.keys(kept).length ? JSON.stringify(kept) : ''
}

function mapTask(row: SourceRow): Tables['tasks']['$inferInsert'] {
	return {
		id: integer(row, 'id'),
		createdAt: unixSeconds(row, 'created_at'),
		updatedAt: unixSeconds(row, 'updated_at'),
		taskId: text(row, 'task_id'),
		platform: text(row, 'platform'),
		userId: integer(row, 'user_id'),
		group: text(row, 'group'),
		channelId: integer(row, 'channel_id'),
		quota: integer(row, 'quota'),
		action: text(row, 'action'),
		status: text(row, 'status'),
		failReason: text(row, 'fail_reason'),
		submitTime: unixSeconds(row, 'submit_time'),
		startTime: unixSeconds(row, 'start_time'),
		finishTime: unixSeconds(row, 'finish_time'),
		progress: text(row, 'progress'),
		properties: text(row, 'properties'),
		privateData: keptPrivateData(row),
		data: text(row, 'data'),
	}
}

async function importFinished(source: SourceDatabase, store: Store | undefined, table: 'midjourneys' | 'tasks', map: (row: SourceRow) => Tables['tasks']['$inferInsert'], report: ReportSection, progress: (line: string) => void) {
	if (!await source.hasTable(table)) {
		report.note('the source has no such table: nothing to import')
		return
	}
	await reportRowsWithoutId(source, table, report)
	for await (const page of source.pages(table, PAGE_SIZE)) {
		const finished: Tables['tasks']['$inferInsert'][] = []
		for (const row of page) {
			report.read += 1
			if (!FINISHED.has(text(row, 'status'))) {
				report.skip(UNFINISHED_REASON, integer(row, 'id'))
				continue
			}
			const task = map(row)
			const problem = outOfRange(task)
			if (problem) report.skip(problem, integer(row, 'id'))
			else finished.push(task)
		}
		await store?.transaction(function* (_tx, tables) {
			yield* insertRows(tables.tasks, finished)
		})
		report.imported += finished.length
	}
	progress(`${table}: ${report.read} read, ${report.imported} imported`)
}

/** Without a store (a dry run) the tasks are only read and counted. After importTasks: the drawings take ids after the async tasks'. */
export function importMidjourneys(source: SourceDatabase, store: Store | undefined, report: ReportSection, progress: (line: string) => void) {
	return importFinished(source, store, 'midjourneys', mapMidjourney, report, progress)
}

export function importTasks(source: SourceDatabase, store: Store | undefined, report: ReportSection, progress: (line: string) => void) {
	return importFinished(source, store, 'tasks', mapTask, report, progress)
}
