import type { SubscriptionWindow } from '@shared/plan'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'
import { cn } from '@ui/lib/utils'
import { describeLength, usedPercent } from '@ui/features/plans/plan-display'

/**
 * One meter per usage window: what its current period used (and holds for calls in flight) of its
 * allowance, what is left and when it resets; a window that has not started says it starts at the
 * next call. `onReset` (admins) offers to end a window's period now.
 */
export function WindowMeters({ windows, onReset }: { windows: SubscriptionWindow[]; onReset?: (index: number) => void }) {
	const { t } = useTranslation()
	const status = useStatus()
	const formatTime = useFormatTime()
	return (
		<ul className="flex flex-col gap-3" data-testid="window-meters">
			{windows.map((window, index) => {
				const length = describeLength(window.seconds)
				const percent = usedPercent(window)
				return (
					<li key={index} className="flex flex-col gap-1" data-testid="window-meter" data-used={window.used} data-held={window.held} data-quota={window.quota} data-resets-at={window.resets_at ?? ''}>
						<div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
							<span className="font-medium">{t('每 {length}', { length: t(length.text, length.values) })}</span>
							<span className="tabular-nums text-muted-foreground">
								{t('已用 {used} / {quota}', { used: renderQuota(window.used + window.held, status), quota: renderQuota(window.quota, status) })}
							</span>
						</div>
						<div
							className="h-2 w-full overflow-hidden rounded-full bg-muted"
							role="meter"
							aria-valuemin={0}
							aria-valuemax={100}
							aria-valuenow={percent}
							aria-label={t('每 {length}', { length: t(length.text, length.values) })}
						>
							<div className={cn('h-full rounded-full', percent >= 100 ? 'bg-destructive' : 'bg-primary')} style={{ width: `${percent}%` }} />
						</div>
						<div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-muted-foreground">
							<span data-testid="window-reset">
								{window.resets_at === null ? t('下次调用时开始计时') : t('{time} 重置', { time: formatTime(window.resets_at) })}
							</span>
							<span className="tabular-nums">{t('剩余 {remaining}', { remaining: renderQuota(window.remaining, status) })}</span>
							{onReset && window.resets_at !== null ? (
								<Button type="button" variant="outline" size="sm" className="h-7 px-2 text-xs" onClick={() => onReset(index)}>{t('重置此窗口')}</Button>
							) : null}
						</div>
					</li>
				)
			})}
		</ul>
	)
}
