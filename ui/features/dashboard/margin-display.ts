/** The margin report as the dashboard shows and exports it: its groupings, row labels and the CSV file. */
import { MARGIN_GROUPS, PLAN_SALES_KEY, type MarginGroup } from '@shared/margin-constants'
import type { MarginRow } from '@shared/margin'

export const MARGIN_GROUP_LABELS: Record<MarginGroup, string> = { day: '按天', channel: '按渠道', model: '按模型', user: '按用户' }

export const isMarginGroup = (value: string | null | undefined): value is MarginGroup => (MARGIN_GROUPS as readonly string[]).includes(value ?? '')

/** A row's label: the day (UTC), the channel or user by name and id, the model, or plan sales (a zh source string then). */
export function marginRowLabel(row: MarginRow, group: MarginGroup): { text: string; translate: boolean } {
	if (row.key === PLAN_SALES_KEY && (group === 'channel' || group === 'model')) return { text: '套餐销售', translate: true }
	if (group === 'day') return { text: new Date(Number(row.key) * 1000).toISOString().slice(0, 10), translate: false }
	if (group === 'channel' || group === 'user') return { text: row.name ? `${row.name} (#${row.key})` : `#${row.key}`, translate: false }
	return { text: row.key, translate: false }
}

/** The margin as a share of revenue, in percent with one decimal; empty without revenue. */
export const marginShare = (row: Pick<MarginRow, 'revenue' | 'margin'>) => (row.revenue > 0 ? `${((row.margin / row.revenue) * 100).toFixed(1)}%` : '')

const csvField = (value: string | number) => {
	const text = String(value)
	return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The report as CSV: figures in quota (the ledger's unit), one header row (English names, as spreadsheets and scripts expect them). */
export function marginCsv(rows: readonly MarginRow[], group: MarginGroup): string {
	const header = ['key', 'name', 'revenue', 'cost', 'margin', 'calls', 'plan_quota', 'uncosted_calls']
	const lines = rows.map((row) => [group === 'day' ? marginRowLabel(row, group).text : row.key, row.name, row.revenue, row.cost, row.margin, row.calls, row.plan_quota, row.uncosted_calls].map(csvField).join(','))
	return `${[header.join(','), ...lines].join('\n')}\n`
}
