/** The dashboard's granularities and ranges: zod-free, for the dashboard page (`quota-data.ts` re-exports them). */

/** The bucket sizes the dashboard offers (also the choices of the `DataExportDefaultTime` option). */
export const DATA_EXPORT_GRANULARITIES = ['hour', 'day', 'week'] as const
export type DataGranularity = (typeof DATA_EXPORT_GRANULARITIES)[number]

export const SECONDS_PER_HOUR = 3600
export const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR

/** The length of one bucket of each granularity, in seconds. */
export const GRANULARITY_SECONDS: Record<DataGranularity, number> = {
	hour: SECONDS_PER_HOUR,
	day: SECONDS_PER_DAY,
	week: 7 * SECONDS_PER_DAY,
}

/**
 * The range shown when none is asked for, by granularity: a day of hours, a week of days, a month of
 * weeks (what the peer console opens with); it ends an hour ahead so the current hour is in.
 */
export const DEFAULT_RANGE_SECONDS: Record<DataGranularity, number> = {
	hour: SECONDS_PER_DAY,
	day: 7 * SECONDS_PER_DAY,
	week: 30 * SECONDS_PER_DAY,
}
export const DEFAULT_RANGE_LOOKAHEAD_SECONDS = SECONDS_PER_HOUR

/** The API's own default when a bound is missing: the last seven days up to now. */
export const DATA_DEFAULT_LOOKBACK_SECONDS = 7 * SECONDS_PER_DAY
/** One answer covers at most this span: every bucket of every user and model in it comes back. */
export const DATA_MAX_RANGE_SECONDS = 366 * SECONDS_PER_DAY
