/**
 * The task pages' URL state (docs/specification/tasks.md#the-task-lists): the filters live in the query string under the
 * API's own names, so the loaders forward them as they are and fill in the default time range.
 * Shared by the drawing log (`/midjourney`) and the async task log (`/task`).
 */
export type TaskFilters = {
	/** The task id filter: `mj_id` on the drawing log, `task_id` on the task log. */
	id: string
	/** Admin only. */
	channel_id: string
	/** Unix seconds. */
	start_timestamp: number
	end_timestamp: number
}

export type TaskIdFilter = 'mj_id' | 'task_id'

/** The lists end an hour ahead by default, so a task submitted while the page is open shows on a refresh. */
export const TASK_LOOKAHEAD_SECONDS = 60 * 60

const positiveInteger = (value: string | null) => {
	const number = Number(value)
	return value && Number.isInteger(number) && number > 0 ? number : undefined
}

/** The filters named by the page URL; a missing start is `defaultStart`, a missing end an hour from now. */
export function readTaskFilters(url: URL | string, idName: TaskIdFilter, admin: boolean, defaultStart: number, now: number): TaskFilters {
	const search = new URL(url, 'http://console').searchParams
	const text = (name: string) => search.get(name)?.trim() ?? ''
	return {
		id: text(idName),
		channel_id: admin ? text('channel_id') : '',
		start_timestamp: positiveInteger(search.get('start_timestamp')) ?? defaultStart,
		end_timestamp: positiveInteger(search.get('end_timestamp')) ?? now + TASK_LOOKAHEAD_SECONDS,
	}
}

/** The filters as the list call's query parameters. */
export const filterQuery = (filters: TaskFilters, idName: TaskIdFilter) => ({
	[idName]: filters.id, channel_id: filters.channel_id, start_timestamp: filters.start_timestamp, end_timestamp: filters.end_timestamp,
})
