import type { Usage } from '@ui/features/dashboard/usage-summary'
import { useTranslation } from '@ui/i18n'
import { abbreviateNumber, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

type UsageTotalsProps = { total: Usage; rpm: number; tpm: number }

/** The range's totals: quota spent (as money when the status says so), tokens, calls, average RPM and TPM. */
export function UsageTotals({ total, rpm, tpm }: UsageTotalsProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const items = [
		{ name: 'quota', label: '消耗额度', value: renderQuota(total.quota, status), raw: total.quota },
		{ name: 'token_used', label: 'Token 用量', value: abbreviateNumber(total.token_used), raw: total.token_used },
		{ name: 'count', label: '调用次数', value: abbreviateNumber(total.count), raw: total.count },
		{ name: 'rpm', label: '平均 RPM', value: String(rpm), raw: rpm },
		{ name: 'tpm', label: '平均 TPM', value: String(tpm), raw: tpm },
	]
	return (
		<dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="usage-totals">
			{items.map((item) => (
				<div key={item.name} className="rounded-xl border bg-card p-4 text-card-foreground shadow-sm" data-metric={item.name} data-value={item.raw}>
					<dt className="text-sm text-muted-foreground">{t(item.label)}</dt>
					<dd className="mt-1 text-2xl font-semibold tabular-nums">{item.value}</dd>
				</div>
			))}
		</dl>
	)
}
