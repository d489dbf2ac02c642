import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import type { FormProblemState } from '@ui/lib/use-form-problem'
import { WINDOW_PRESETS, type WindowPreset } from '@ui/features/tokens/token-form'

const LABELS: Record<WindowPreset, string> = {
	fiveHours: '每 5 小时',
	day: '每天',
	week: '每周',
	month: '每 30 天',
}

/**
 * The token's spend limits over rolling windows, in the display unit like its quota: each window
 * starts at its first call; a call that would pass one is refused. Empty sets none.
 */
export function WindowLimitFields({ values, otherWindows, onChange, problems }: {
	values: Record<WindowPreset, string>
	otherWindows: number
	onChange: (preset: WindowPreset, value: string) => void
	problems: FormProblemState
}) {
	const { t } = useTranslation()
	const status = useStatus()
	return (
		<fieldset className="flex flex-col gap-2">
			<legend className="mb-1 text-sm font-medium">{t(status.display_in_currency ? '额度窗口上限（美元）' : '额度窗口上限')}</legend>
			<p className="text-xs text-muted-foreground">{t('每个窗口从它的第一次调用起计时，到期后重新计算；会超出上限的调用被拒绝。留空表示不限')}</p>
			<div className="grid gap-3 sm:grid-cols-4">
				{WINDOW_PRESETS.map((preset) => {
					const id = `token-window-${preset}`
					const field = `window-${preset}`
					return (
						<Field key={preset} id={id} label={LABELS[preset]} error={problems.errorOf(field)}>
							<Input id={id} inputMode="decimal" autoComplete="off" value={values[preset]} onChange={(event) => onChange(preset, event.target.value)} {...problems.control(field, id)} />
						</Field>
					)
				})}
			</div>
			{otherWindows > 0 && <p className="text-xs text-muted-foreground">{t('另有 {count} 个其他时长的窗口（通过 API 设置），保存时保留', { count: otherWindows })}</p>}
		</fieldset>
	)
}
