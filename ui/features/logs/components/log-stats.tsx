import type { LogStat } from '@shared/log'
import { Badge } from '@ui/components/ui/badge'
import { useTranslation } from '@ui/i18n'
import { abbreviateNumber, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

/** Totals of the filtered range: quota spent, and requests and tokens of the last minute. */
export function LogStats({ stat }: { stat: LogStat }) {
	const { t } = useTranslation()
	const status = useStatus()
	return (
		<div className="flex flex-wrap gap-2" data-testid="log-stats">
			<Badge variant="blue" className="text-sm">{t('消耗额度：{quota}', { quota: renderQuota(stat.quota, status) })}</Badge>
			<Badge variant="purple" className="text-sm">{t('RPM：{rpm}', { rpm: abbreviateNumber(stat.rpm) })}</Badge>
			<Badge variant="orange" className="text-sm">{t('TPM：{tpm}', { tpm: abbreviateNumber(stat.tpm) })}</Badge>
		</div>
	)
}
