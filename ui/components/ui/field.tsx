import type { ReactNode } from 'react'
import { Label } from '@ui/components/ui/label'
import { useTranslation } from '@ui/i18n'
import { fieldErrorId } from '@ui/lib/use-form-problem'

type FieldProps = {
	id?: string
	/** zh source string. */
	label: string
	hint?: ReactNode
	/** An error under the control, already translated (`useFormProblem().errorOf`); it takes the hint's place. */
	error?: string
	children: ReactNode
}

/** A labelled control with an optional hint or error under it. */
export function Field({ id, label, hint, error, children }: FieldProps) {
	const { t } = useTranslation()
	return (
		<div className="flex flex-col gap-2">
			<Label htmlFor={id}>{t(label)}</Label>
			{children}
			<FieldMessage id={id} hint={hint} error={error} />
		</div>
	)
}

/** The hint under a control, or its error in its place (with the id the control's aria-describedby names). */
export function FieldMessage({ id, hint, error }: { id?: string; hint?: ReactNode; error?: string }) {
	if (error) return <p id={id && fieldErrorId(id)} data-slot="field-error" className="text-xs text-destructive">{error}</p>
	return hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null
}
