/**
 * The log page's URL state: the filters live in the query string under the API's own names
 * (docs/specification/logs-and-dashboard.md#calls), so the loader forwards them as they are and fills in the default time range.
 */
import { LOG_DEFAULT_LOOKAHEAD_SECONDS, LOG_DEFAULT_LOOKBACK_SECONDS, LOG_CLEANUP_DEFAULT_MONTHS_AGO } from '@shared/log-constants'

export type LogFilters = {
	type: string
	token_name: string
	model_name: string
	group: string
	/** Unix seconds. */
	start_timestamp: number
	end_timestamp: number
	/** Admin only. */
	channel: string
	username: string
}

export const textFilterNames = ['type', 'token_name', 'model_name', 'group', 'channel', 'username'] as const

const positiveInteger = (value: string | null) => {
	const number = Number(value)
	return value && Number.isInteger(number) && number > 0 ? number : undefined
}

/** The filters named by the page URL; a missing bound takes the default range around `now`. */
export function readLogFilters(url: URL | string, admin: boolean, now: number): LogFilters {
	const search = new URL(url, 'http://console').searchParams
	const text = (name: string) => search.get(name)?.trim() ?? ''
	return {
		type: text('type'),
		token_name: text('token_name'),
		model_name: text('model_name'),
		group: text('group'),
		start_timestamp: positiveInteger(search.get('start_timestamp')) ?? now - LOG_DEFAULT_LOOKBACK_SECONDS,
		end_timestamp: positiveInteger(search.get('end_timestamp')) ?? now + LOG_DEFAULT_LOOKAHEAD_SECONDS,
		channel: admin ? text('channel') : '',
		username: admin ? text('username') : '',
	}
}

/** The stat call takes the same filters without paging; it sums consumption whatever the type. */
export function statQuery(filters: LogFilters): string {
	const query = new URLSearchParams()
	for (const [name, value] of Object.entries(filters)) {
		if (name !== 'type' && value !== '') query.set(name, String(value))
	}
	return query.toString()
}

/** A month back (calendar months, as the date picker would count them), in unix seconds. */
export function defaultCleanupTime(now: number): number {
	const date = new Date(now * 1000)
	date.setMonth(date.getMonth() - LOG_CLEANUP_DEFAULT_MONTHS_AGO)
	return Math.floor(date.getTime() / 1000)
}
