import type { ReactNode } from 'react'
import { Button } from '@ui/components/ui/button'
import { Label } from '@ui/components/ui/label'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'

/** A labelled form row with an optional hint below the control. */
export function Field({ id, label, hint, required, children }: { id?: string; label: ReactNode; hint?: ReactNode; required?: boolean; children: ReactNode }) {
	return (
		<div className="flex flex-col gap-2">
			<div className="flex items-center gap-0.5">
				<Label htmlFor={id}>{label}</Label>
				{required && <span aria-hidden="true" className="text-sm leading-none text-destructive">*</span>}
			</div>
			{children}
			{hint && <p className="text-xs text-muted-foreground">{hint}</p>}
		</div>
	)
}

type JsonFieldProps = {
	id: string
	label: string
	hint: string
	value: string
	template: string
	onChange: (value: string) => void
}

/** A JSON text field with a button that fills in the field's template. */
export function JsonField({ id, label, hint, value, template, onChange }: JsonFieldProps) {
	const { t } = useTranslation()
	return (
		<Field id={id} label={label} hint={hint}>
			<Textarea id={id} value={value} rows={4} spellCheck={false} className="font-mono text-xs" placeholder={template} onChange={(event) => onChange(event.target.value)} />
			<Button type="button" variant="link" size="sm" className="h-auto w-fit p-0" aria-label={t('填入模板：{name}', { name: label })} onClick={() => onChange(template)}>
				{t('填入模板')}
			</Button>
		</Field>
	)
}
