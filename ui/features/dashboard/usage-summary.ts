/**
 * What the dashboard draws, computed from the hourly buckets: totals, each model's share and the
 * buckets regrouped by the chosen granularity. Days and weeks are the viewer's calendar days (weeks
 * from Monday), read from the bucket's time formatted in the viewer's zone.
 */
import type { DataGranularity, QuotaData } from '@shared/quota-data'

export const METRICS = ['quota', 'token_used', 'count'] as const
export type Metric = (typeof METRICS)[number]
export type Usage = Record<Metric, number>

/** Models beyond this many are drawn together as one "others" series. */
export const MAX_SERIES = 8
export const OTHER_MODELS = '__other__'

export type ModelUsage = Usage & { model: string }
export type PeriodUsage = { label: string; total: Usage; byModel: Map<string, Usage> }

type UsageSummary = {
	total: Usage
	/** Biggest spender first (by quota, then calls); at most MAX_SERIES entries, the last may be OTHER_MODELS. */
	models: ModelUsage[]
	/** Oldest first; only periods with calls. */
	periods: PeriodUsage[]
}

const emptyUsage = (): Usage => ({ quota: 0, token_used: 0, count: 0 })

function add(target: Usage, bucket: Usage) {
	target.quota += bucket.quota
	target.token_used += bucket.token_used
	target.count += bucket.count
}

const MILLISECONDS_PER_DAY = 24 * 60 * 60 * 1000

/** `yyyy-MM-dd` of the Monday of that day's week. */
function mondayOf(day: string): string {
	const [year, month, date] = day.split('-').map(Number) as [number, number, number]
	const time = Date.UTC(year, month - 1, date)
	const weekday = (new Date(time).getUTCDay() + 6) % 7
	return new Date(time - weekday * MILLISECONDS_PER_DAY).toISOString().slice(0, 10)
}

/** The period label of a bucket: `yyyy-MM-dd HH:00`, `yyyy-MM-dd`, or the week's Monday `yyyy-MM-dd`. */
export function periodLabel(formatted: string, granularity: DataGranularity): string {
	if (granularity === 'hour') return `${formatted.slice(0, 13)}:00`
	const day = formatted.slice(0, 10)
	return granularity === 'day' ? day : mondayOf(day)
}

/** `formatTime` turns unix seconds into `yyyy-MM-dd HH:mm:ss` in the viewer's zone. */
export function summariseUsage(buckets: QuotaData[], granularity: DataGranularity, formatTime: (seconds: number) => string): UsageSummary {
	const total = emptyUsage()
	const perModel = new Map<string, Usage>()
	for (const bucket of buckets) {
		add(total, bucket)
		let usage = perModel.get(bucket.model_name)
		if (!usage) perModel.set(bucket.model_name, (usage = emptyUsage()))
		add(usage, bucket)
	}
	const ranked = [...perModel].map(([model, usage]) => ({ model, ...usage }))
		.sort((left, right) => right.quota - left.quota || right.count - left.count || left.model.localeCompare(right.model))
	const kept = ranked.length > MAX_SERIES ? ranked.slice(0, MAX_SERIES - 1) : ranked
	const keptNames = new Set(kept.map((entry) => entry.model))
	const models: ModelUsage[] = [...kept]
	if (ranked.length > kept.length) {
		const other: ModelUsage = { model: OTHER_MODELS, ...emptyUsage() }
		for (const entry of ranked.slice(kept.length)) add(other, entry)
		models.push(other)
	}

	const periods = new Map<string, PeriodUsage>()
	for (const bucket of [...buckets].sort((left, right) => left.created_at - right.created_at)) {
		const label = periodLabel(formatTime(bucket.created_at), granularity)
		let period = periods.get(label)
		if (!period) periods.set(label, (period = { label, total: emptyUsage(), byModel: new Map() }))
		add(period.total, bucket)
		const series = keptNames.has(bucket.model_name) ? bucket.model_name : OTHER_MODELS
		let usage = period.byModel.get(series)
		if (!usage) period.byModel.set(series, (usage = emptyUsage()))
		add(usage, bucket)
	}
	return { total, models, periods: [...periods.values()] }
}

/** Calls and tokens per minute, averaged over the range up to now. */
export function averagePerMinute(total: Usage, start: number, end: number, now: number): { rpm: number; tpm: number } {
	const minutes = Math.max(1, (Math.min(end, now) - start) / 60)
	const round = (value: number) => Math.round(value * 100) / 100
	return { rpm: round(total.count / minutes), tpm: round(total.token_used / minutes) }
}

/** How many entries the top-models and top-users lists show. */
export const TOP_ENTRIES = 5

export type RankedUsage = Usage & { name: string }

/**
 * The range's biggest users of `metric` by model or by user (admins' buckets carry every user's
 * name), biggest first, then by calls and name; at most `limit`, and none that used nothing.
 */
export function rankUsage(buckets: QuotaData[], by: 'model_name' | 'username', metric: Metric, limit = TOP_ENTRIES): RankedUsage[] {
	const totals = new Map<string, Usage>()
	for (const bucket of buckets) {
		const name = bucket[by]
		let usage = totals.get(name)
		if (!usage) totals.set(name, (usage = emptyUsage()))
		add(usage, bucket)
	}
	return [...totals].map(([name, usage]) => ({ name, ...usage }))
		.filter((entry) => entry[metric] > 0)
		.sort((left, right) => right[metric] - left[metric] || right.count - left.count || left.name.localeCompare(right.name))
		.slice(0, limit)
}
