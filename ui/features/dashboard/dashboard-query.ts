/**
 * The dashboard's URL state: `start_timestamp`, `end_timestamp` (unix seconds, the API's names),
 * `granularity` and, for admins, `username`. Missing values take the defaults: the status's
 * granularity and the range that goes with it (a day of hours, a week of days, a month of weeks).
 */
import { DATA_EXPORT_GRANULARITIES, DEFAULT_RANGE_LOOKAHEAD_SECONDS, DEFAULT_RANGE_SECONDS } from '@shared/quota-data-constants'
import type { DataGranularity } from '@shared/quota-data'

export type DashboardFilters = {
	start_timestamp: number
	end_timestamp: number
	granularity: DataGranularity
	/** Admin only; empty means every user. */
	username: string
}

export const isGranularity = (value: string | null | undefined): value is DataGranularity =>
	(DATA_EXPORT_GRANULARITIES as readonly string[]).includes(value ?? '')

const positiveInteger = (value: string | null) => {
	const number = Number(value)
	return value && Number.isInteger(number) && number > 0 ? number : undefined
}

export function readDashboardFilters(url: URL | string, admin: boolean, now: number, defaultGranularity: DataGranularity): DashboardFilters {
	const search = new URL(url, 'http://console').searchParams
	const asked = search.get('granularity')
	const granularity = isGranularity(asked) ? asked : defaultGranularity
	const end = positiveInteger(search.get('end_timestamp')) ?? now + DEFAULT_RANGE_LOOKAHEAD_SECONDS
	return {
		start_timestamp: positiveInteger(search.get('start_timestamp')) ?? end - DEFAULT_RANGE_LOOKAHEAD_SECONDS - DEFAULT_RANGE_SECONDS[granularity],
		end_timestamp: end,
		granularity,
		username: admin ? search.get('username')?.trim() ?? '' : '',
	}
}

/** The data call's query: the range and, for admins, the username. */
export function dataQuery(filters: DashboardFilters): string {
	const query = new URLSearchParams({ start_timestamp: String(filters.start_timestamp), end_timestamp: String(filters.end_timestamp) })
	if (filters.username) query.set('username', filters.username)
	return query.toString()
}
