import { Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { toInputValue } from '@ui/components/filter-form'
import { useTranslation } from '@ui/i18n'
import { describeError } from '@ui/lib/api'
import { browserApi } from '@ui/lib/browser-api'
import { parseDateTime } from '@ui/lib/format'
import { useFormatTime } from '@ui/lib/time-zone'

/** Admins remove the entries older than a chosen time (docs/specification/logs-and-dashboard.md#log-cleanup-and-retention); the default is a month ago. */
export function LogCleanup({ defaultTime }: { defaultTime: number }) {
	const formatTime = useFormatTime()
	const initial = toInputValue(formatTime(defaultTime))
	return <CleanupForm key={initial} initial={initial} />
}

function CleanupForm({ initial }: { initial: string }) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const [value, setValue] = useState(initial)
	const [confirming, setConfirming] = useState(false)
	const [running, setRunning] = useState(false)

	function askToConfirm() {
		const target = value ? parseDateTime(value) : Number.NaN
		if (Number.isNaN(target)) {
			toast.error(t('请选择日志时间'))
			return
		}
		setConfirming(true)
	}

	async function cleanUp() {
		const target = parseDateTime(value)
		setRunning(true)
		try {
			const envelope = await browserApi.delete<number>(`/api/log/?target_timestamp=${target}`)
			if (!envelope.success) {
				toast.error(t('日志清理失败：{reason}', { reason: t(envelope.message) }))
				return
			}
			toast.success(t('{count} 条日志已清理！', { count: envelope.data }))
			revalidator.revalidate()
		} catch (error) {
			toast.error(t('日志清理失败：{reason}', { reason: describeError(error, t) }))
		} finally {
			setRunning(false)
		}
	}

	return (
		<div className="flex flex-wrap items-end gap-2" data-testid="log-cleanup">
			<div className="flex flex-col gap-1.5">
				<Label htmlFor="log-cleanup-time">{t('清除此时间之前的日志')}</Label>
				<Input id="log-cleanup-time" type="datetime-local" step={1} value={value} onChange={(event) => setValue(event.target.value)} className="w-60" />
			</div>
			<Button type="button" variant="destructive" disabled={running} onClick={askToConfirm}>
				<Trash2Icon />
				{t('清除历史日志')}
			</Button>
			<ConfirmDialog
				open={confirming}
				onOpenChange={setConfirming}
				title={t('确定清除历史日志？')}
				description={t('{time} 之前的日志将被永久删除，充值与额度变动记录会保留。', { time: value.replace('T', ' ') })}
				confirmText={t('清除')}
				destructive
				onConfirm={cleanUp}
			/>
		</div>
	)
}
