import { Input } from '@ui/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { useTranslation } from '@ui/i18n'
import { LENGTH_UNITS } from '@ui/features/plans/plan-display'
import type { LengthValue } from '@ui/features/plans/plan-form'

/** A length as a whole number of days, hours or minutes. */
export function LengthInput({ id, value, onChange, invalid }: { id: string; value: LengthValue; onChange: (value: LengthValue) => void; invalid?: object }) {
	const { t } = useTranslation()
	return (
		<div className="flex gap-2">
			<Input id={id} inputMode="numeric" className="min-w-0 flex-1" value={value.amount} onChange={(event) => onChange({ ...value, amount: event.target.value })} {...invalid} />
			<Select value={String(value.unit)} onValueChange={(unit) => onChange({ ...value, unit: Number(unit) })}>
				<SelectTrigger className="w-24 shrink-0" aria-label={t('单位')}>
					<SelectValue />
				</SelectTrigger>
				<SelectContent>
					{LENGTH_UNITS.map((unit) => <SelectItem key={unit.seconds} value={String(unit.seconds)}>{t(unit.label)}</SelectItem>)}
				</SelectContent>
			</Select>
		</div>
	)
}
