import type { ReactNode } from 'react'
import { Button } from '@ui/components/ui/button'
import { FieldMessage } from '@ui/components/ui/field'
import { Label } from '@ui/components/ui/label'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import type { FormProblemState } from '@ui/lib/use-form-problem'
import type { ChannelForm } from './form'

type FieldProps = {
	id?: string
	label: ReactNode
	hint?: ReactNode
	/** Translated; shown in the hint's place (`useFormProblem().errorOf`). */
	error?: string
	required?: boolean
	children: ReactNode
}

/** A labelled form row with an optional hint, or an error, below the control. */
export function Field({ id, label, hint, error, required, children }: FieldProps) {
	return (
		<div className="flex flex-col gap-2">
			<div className="flex items-center gap-0.5">
				<Label htmlFor={id}>{label}</Label>
				{required && <span aria-hidden="true" className="text-sm leading-none text-destructive">*</span>}
			</div>
			{children}
			<FieldMessage id={id} hint={hint} error={error} />
		</div>
	)
}

type JsonFieldProps = {
	id: string
	/** The form's field the text is, for its errors. */
	name: keyof ChannelForm
	label: string
	hint: string
	value: string
	template: string
	problems: FormProblemState
	onChange: (value: string) => void
}

/** A JSON text field with a button that fills in the field's template. */
export function JsonField({ id, name, label, hint, value, template, problems, onChange }: JsonFieldProps) {
	const { t } = useTranslation()
	return (
		<Field id={id} label={label} hint={hint} error={problems.errorOf(name)}>
			<Textarea id={id} value={value} rows={4} spellCheck={false} className="font-mono text-xs" placeholder={template} onChange={(event) => onChange(event.target.value)} {...problems.control(name, id)} />
			<Button type="button" variant="link" size="sm" className="h-auto w-fit p-0" aria-label={t('填入模板：{name}', { name: label })} onClick={() => onChange(template)}>
				{t('填入模板')}
			</Button>
		</Field>
	)
}
