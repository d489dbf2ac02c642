import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { isNumericInput } from '@ui/features/settings/operation/ratio-rows'
import { optionMessages } from '@ui/features/settings/options-form'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

type NumericCellProps = { id?: string; value: string; onChange: (value: string) => void; disabled?: boolean; label?: string; className?: string }

/** A number typed as text: anything but digits and one decimal point is refused with the catalogue's message. */
export function NumericCell({ id, value, onChange, disabled, label, className }: NumericCellProps) {
	const { t } = useTranslation()
	return (
		<Input
			id={id}
			inputMode="decimal"
			aria-label={label}
			className={cn('h-8', className)}
			value={value}
			disabled={disabled}
			onChange={(event) => {
				const next = event.target.value.trim()
				if (isNumericInput(next)) onChange(next)
				else toast.error(t(optionMessages.enterNumber))
			}}
		/>
	)
}
