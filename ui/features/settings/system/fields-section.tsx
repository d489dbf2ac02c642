/**
 * A system section made of plain fields: text, secret, address or number, one save button. The
 * field lists are module constants, so their keys and rules are built once.
 */
import type { ReactNode } from 'react'
import { FieldGrid, OptionInput, OptionNumber, OptionSecret, OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { addressRule, type BeforeSave, type FieldRule, numberRule, secretRule, useOptionForm } from '@ui/features/settings/options-form'

type FieldSpec = {
	key: string
	/** zh source strings. */
	label: string
	hint?: string
	placeholder?: string
	kind?: 'text' | 'secret' | 'address' | 'number' | 'switch'
	/** For numbers. */
	min?: number
}

type SectionSpec = { keys: readonly string[]; rules: Readonly<Record<string, FieldRule>>; fields: readonly FieldSpec[] }

export function sectionSpec(fields: readonly FieldSpec[]): SectionSpec {
	const rules: Record<string, FieldRule> = {}
	for (const field of fields) {
		if (field.kind === 'secret') rules[field.key] = secretRule
		if (field.kind === 'address') rules[field.key] = addressRule
		if (field.kind === 'number') rules[field.key] = numberRule(field.min ?? 0)
	}
	return { keys: fields.map((field) => field.key), rules, fields }
}

type FieldsSectionProps = {
	id: string
	title: string
	description?: string
	saveText: string
	spec: SectionSpec
	beforeSave?: BeforeSave
	/** Shown above the fields. */
	children?: ReactNode
}

export function FieldsSection({ id, title, description, saveText, spec, beforeSave, children }: FieldsSectionProps) {
	const form = useOptionForm(spec.keys, spec.rules, beforeSave)
	const switches = spec.fields.filter((field) => field.kind === 'switch')
	return (
		<SectionCard id={id} title={title} description={description} form={form} saveText={saveText}>
			{children}
			<FieldGrid>
				{spec.fields.map((field) => {
					const props = { form, name: field.key, label: field.label, hint: field.hint, placeholder: field.placeholder }
					if (field.kind === 'switch') return null
					if (field.kind === 'secret') return <OptionSecret key={field.key} {...props} />
					if (field.kind === 'number') return <OptionNumber key={field.key} {...props} />
					return <OptionInput key={field.key} {...props} />
				})}
			</FieldGrid>
			{switches.map((field) => (
				<OptionSwitch key={field.key} form={form} name={field.key} label={field.label} hint={field.hint} />
			))}
		</SectionCard>
	)
}
