/**
 * The margin report: consume log rows (channel tests left out) grouped by channel, model, user or
 * day, with plan sales from the subscriptions bought in the range (shared/margin.ts says what each
 * figure means). Read from the log itself, so it covers what the log keeps (`ConsumeLogRetentionDays`).
 */
import { MARGIN_GROUPS, PLAN_SALES_KEY, type MarginGroup, type MarginQuery, type MarginRow } from '@shared/margin'
import { DATA_DEFAULT_LOOKBACK_SECONDS, DATA_MAX_RANGE_SECONDS, QUOTA_DATA_MESSAGES } from '@shared/quota-data'
import { LOG_TYPE } from '@shared/log'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { badRequest } from '../errors'
import { NOT_A_CHANNEL_TEST } from '@/db/quota-buckets'

const SECONDS_PER_DAY = 24 * 60 * 60
const DAY = `created_at - created_at % ${SECONDS_PER_DAY}`

/** Each grouping's key and name over the log. */
const LOG_GROUPS: Record<MarginGroup, { key: string; name: string }> = {
	channel: { key: 'channel_id', name: 'MAX(channel_name)' },
	model: { key: 'model_name', name: "''" },
	user: { key: 'user_id', name: 'MAX(username)' },
	day: { key: DAY, name: "''" },
}

const callsBy = (group: MarginGroup) => `SELECT ${LOG_GROUPS[group].key} AS group_key, ${LOG_GROUPS[group].name} AS name,
	SUM(CASE WHEN subscription_id = 0 THEN quota ELSE 0 END) AS revenue, SUM(COALESCE(cost, 0)) AS cost, COUNT(*) AS calls,
	SUM(CASE WHEN subscription_id > 0 THEN quota ELSE 0 END) AS plan_quota, COUNT(*) - COUNT(cost) AS uncosted
	FROM logs WHERE type = $1 AND created_at >= $2 AND created_at <= $3 AND ${NOT_A_CHANNEL_TEST}
	GROUP BY ${LOG_GROUPS[group].key}`
const CALL_QUERIES = Object.fromEntries(MARGIN_GROUPS.map((group) => [group, callsBy(group)])) as Record<MarginGroup, string>

const SALES_BY_USER = `SELECT s.user_id AS group_key, MAX(u.username) AS name, SUM(s.price) AS revenue
	FROM subscriptions s LEFT JOIN users u ON u.id = s.user_id WHERE s.price > 0 AND s.created_at >= $1 AND s.created_at <= $2 GROUP BY s.user_id`
const SALES_BY_DAY = `SELECT s.created_at - s.created_at % ${SECONDS_PER_DAY} AS group_key, '' AS name, SUM(s.price) AS revenue
	FROM subscriptions s WHERE s.price > 0 AND s.created_at >= $1 AND s.created_at <= $2 GROUP BY s.created_at - s.created_at % ${SECONDS_PER_DAY}`
const SALES_IN_ALL = `SELECT '${PLAN_SALES_KEY}' AS group_key, '' AS name, SUM(s.price) AS revenue FROM subscriptions s WHERE s.price > 0 AND s.created_at >= $1 AND s.created_at <= $2`

type Row = { group_key: string | number; name: string | null; revenue: unknown; cost?: unknown; calls?: unknown; plan_quota?: unknown; uncosted?: unknown }

/** Sums arrive as numeric text from Postgres. */
const amount = (value: unknown) => Number(value ?? 0) || 0

export async function marginReport({ store }: Dependencies, query: MarginQuery): Promise<MarginRow[]> {
	const end = query.end_timestamp || nowSeconds()
	const start = query.start_timestamp || Math.max(0, end - DATA_DEFAULT_LOOKBACK_SECONDS)
	if (start > end) throw badRequest(QUOTA_DATA_MESSAGES.badRange)
	if (end - start > DATA_MAX_RANGE_SECONDS) throw badRequest(QUOTA_DATA_MESSAGES.rangeTooLong)
	const group = query.group_by
	const rows = new Map<string, MarginRow>()
	const rowFor = (key: string, name: string) => {
		let row = rows.get(key)
		if (!row) {
			row = { key, name, revenue: 0, cost: 0, margin: 0, calls: 0, plan_quota: 0, uncosted_calls: 0 }
			rows.set(key, row)
		}
		return row
	}
	for (const found of await store.read<Row>(CALL_QUERIES[group], [LOG_TYPE.consume, start, end])) {
		const row = rowFor(String(found.group_key), found.name ?? '')
		row.revenue += amount(found.revenue)
		row.cost += amount(found.cost)
		row.calls += amount(found.calls)
		row.plan_quota += amount(found.plan_quota)
		row.uncosted_calls += amount(found.uncosted)
	}
	const sales = group === 'user' ? SALES_BY_USER : group === 'day' ? SALES_BY_DAY : SALES_IN_ALL
	for (const found of await store.read<Row>(sales, [start, end])) {
		if (amount(found.revenue) === 0) continue
		const row = rowFor(String(found.group_key), found.name ?? '')
		row.revenue += amount(found.revenue)
		if (!row.name && found.name) row.name = found.name
	}
	const report = [...rows.values()].map((row) => ({ ...row, margin: row.revenue - row.cost }))
	return group === 'day'
		? report.sort((first, second) => Number(first.key) - Number(second.key))
		: report.sort((first, second) => second.revenue - first.revenue || first.key.localeCompare(second.key))
}
