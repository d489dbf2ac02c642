import { TOKEN_COUNT_PRESETS, TOKEN_EXPIRY_PRESETS, TOKEN_QUOTA_PRESETS } from '@shared/token-constants'
import { Button } from '@ui/components/ui/button'
import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Switch } from '@ui/components/ui/switch'
import { useTranslation } from '@ui/i18n'
import { quotaToDisplay, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { useFormatTime } from '@ui/lib/time-zone'
import { neverExpires } from '@ui/features/tokens/token-form'
import type { FormProblemState } from '@ui/lib/use-form-problem'


function PresetButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
	return (
		<Button type="button" variant="outline" size="sm" className="h-7 px-2 text-xs" disabled={disabled} onClick={onClick}>
			{label}
		</Button>
	)
}

const expiryPresets = [
	{ label: '一小时', seconds: TOKEN_EXPIRY_PRESETS.hour },
	{ label: '一天', seconds: TOKEN_EXPIRY_PRESETS.day },
	{ label: '一个月', seconds: TOKEN_EXPIRY_PRESETS.month },
] as const

type FieldOfForm = { value: string; onChange: (value: string) => void; problems: FormProblemState }

export function ExpiryField({ value, onChange, problems }: FieldOfForm) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	const fromNow = (seconds: number) => formatTime(Math.floor(Date.now() / 1000) + seconds)
	return (
		<Field id="token-expiry" label="过期时间" hint={t('格式为 yyyy-MM-dd HH:mm:ss，-1 表示永不过期')} error={problems.errorOf('expiry')}>
			<Input id="token-expiry" value={value} placeholder="yyyy-MM-dd HH:mm:ss" onChange={(event) => onChange(event.target.value)} {...problems.control('expiry', 'token-expiry')} />
			<div className="flex flex-wrap gap-1">
				<PresetButton label={t('永不过期')} onClick={() => onChange(neverExpires)} />
				{expiryPresets.map((preset) => (
					<PresetButton key={preset.label} label={t(preset.label)} onClick={() => onChange(fromNow(preset.seconds))} />
				))}
			</div>
		</Field>
	)
}

type QuotaFieldProps = {
	quota: string
	unlimited: boolean
	onQuotaChange: (value: string) => void
	onUnlimitedChange: (value: boolean) => void
	problems: FormProblemState
}

/** Remaining quota in the display unit, its presets, and the unlimited switch that sets it aside. */
export function QuotaField({ quota, unlimited, onQuotaChange, onUnlimitedChange, problems }: QuotaFieldProps) {
	const { t } = useTranslation()
	const status = useStatus()
	return (
		<div className="flex flex-col gap-3">
			<Field id="token-quota" label={status.display_in_currency ? '额度（美元）' : '额度'} hint={unlimited ? t('无限额度的令牌不受剩余额度限制') : undefined} error={problems.errorOf('quota')}>
				<Input id="token-quota" inputMode="decimal" value={quota} disabled={unlimited} onChange={(event) => onQuotaChange(event.target.value)} {...problems.control('quota', 'token-quota')} />
				<div className="flex flex-wrap gap-1">
					{TOKEN_QUOTA_PRESETS.map((preset) => (
						<PresetButton key={preset} label={renderQuota(preset, status, 0)} disabled={unlimited} onClick={() => onQuotaChange(quotaToDisplay(preset, status))} />
					))}
				</div>
			</Field>
			<Label className="justify-between">
				{t('无限额度')}
				<Switch checked={unlimited} onCheckedChange={onUnlimitedChange} />
			</Label>
		</div>
	)
}

export function CountField({ value, onChange, problems }: FieldOfForm) {
	const { t } = useTranslation()
	return (
		<Field id="token-count" label="新建数量" hint={t('多建的令牌命名为“名称-6 位随机字符”')} error={problems.errorOf('count')}>
			<Input id="token-count" inputMode="numeric" value={value} onChange={(event) => onChange(event.target.value)} {...problems.control('count', 'token-count')} />
			<div className="flex flex-wrap gap-1">
				{TOKEN_COUNT_PRESETS.map((preset) => (
					<PresetButton key={preset} label={t('{count} 个', { count: preset })} onClick={() => onChange(String(preset))} />
				))}
			</div>
		</Field>
	)
}
