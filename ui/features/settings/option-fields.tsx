/** The fields and the card of a settings section, bound to an `OptionForm` by option key. */
import type { ReactNode } from 'react'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@ui/components/ui/card'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { Switch } from '@ui/components/ui/switch'
import { Textarea } from '@ui/components/ui/textarea'
import type { OptionForm } from '@ui/features/settings/options-form'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { cn } from '@ui/lib/utils'

type FieldProps = {
	form: OptionForm
	/** The option key. */
	name: string
	/** zh source string. */
	label: string
	/** zh source string shown under the field. */
	hint?: string
	placeholder?: string
	className?: string
}

export const fieldId = (name: string) => `option-${name}`

function Field({ form, name, label, hint, className, children }: Omit<FieldProps, 'placeholder'> & { children: ReactNode }) {
	const { t } = useTranslation()
	const error = form.errors[name]
	return (
		<div className={cn('flex flex-col gap-1.5', className)} data-option={name}>
			<Label htmlFor={fieldId(name)}>{t(label)}</Label>
			{children}
			{error ? (
				<p className="text-xs text-destructive" role="alert">
					{error}
				</p>
			) : hint ? (
				<p className="text-xs text-muted-foreground">{t(hint)}</p>
			) : null}
		</div>
	)
}

export function OptionInput(props: FieldProps) {
	const { t } = useTranslation()
	const { form, name, placeholder } = props
	return (
		<Field {...props}>
			<Input id={fieldId(name)} value={form.values[name] ?? ''} placeholder={placeholder && t(placeholder)} aria-invalid={Boolean(form.errors[name])} onChange={(event) => form.set(name, event.target.value)} />
		</Field>
	)
}

/** The minimum comes from the form's rule for the key (docs/specification/accounts-and-settings.md#options number minimums). */
export function OptionNumber(props: FieldProps & { step?: number }) {
	const { form, name, step } = props
	const rule = form.rules[name]
	return (
		<Field {...props}>
			<Input
				id={fieldId(name)}
				type="number"
				inputMode="decimal"
				min={rule?.kind === 'number' ? rule.min : undefined}
				step={step ?? 'any'}
				value={form.values[name] ?? ''}
				aria-invalid={Boolean(form.errors[name])}
				onChange={(event) => form.set(name, event.target.value)}
			/>
		</Field>
	)
}

/**
 * A quota amount (the form's rule for the key is `quotaRule`), typed in the display unit: dollars,
 * said in the label, when the server shows currency, else whole quota units.
 */
export function OptionQuota(props: FieldProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const { form, name, label } = props
	return (
		<Field {...props} label={status.display_in_currency ? t('{label}（美元）', { label: t(label) }) : label}>
			<Input
				id={fieldId(name)}
				type="number"
				inputMode="decimal"
				min={0}
				step={status.display_in_currency ? 'any' : 1}
				value={form.values[name] ?? ''}
				aria-invalid={Boolean(form.errors[name])}
				onChange={(event) => form.set(name, event.target.value)}
			/>
		</Field>
	)
}

/** The server never sends a secret: the field starts empty and an empty field keeps the stored one. */
export function OptionSecret(props: FieldProps) {
	const { t } = useTranslation()
	const { form, name } = props
	return (
		<Field {...props} hint={props.hint ?? '敏感信息不会发送到前端，留空则保持不变'}>
			<Input id={fieldId(name)} type="password" autoComplete="new-password" value={form.values[name] ?? ''} placeholder={t('留空则保持不变')} onChange={(event) => form.set(name, event.target.value)} />
		</Field>
	)
}

export function OptionTextarea(props: FieldProps & { rows?: number }) {
	const { t } = useTranslation()
	const { form, name, placeholder, rows } = props
	return (
		<Field {...props}>
			<Textarea id={fieldId(name)} rows={rows ?? 4} value={form.values[name] ?? ''} placeholder={placeholder && t(placeholder)} onChange={(event) => form.set(name, event.target.value)} />
		</Field>
	)
}

/** Checked as JSON when it loses focus (docs/specification/accounts-and-settings.md#options). */
export function OptionJson(props: FieldProps & { rows?: number }) {
	const { t } = useTranslation()
	const { form, name, placeholder, rows } = props
	return (
		<Field {...props}>
			<Textarea
				id={fieldId(name)}
				rows={rows ?? 6}
				spellCheck={false}
				className="font-mono text-xs"
				value={form.values[name] ?? ''}
				placeholder={placeholder && t(placeholder)}
				aria-invalid={Boolean(form.errors[name])}
				onChange={(event) => form.set(name, event.target.value)}
				onBlur={() => form.check(name)}
			/>
		</Field>
	)
}

/** A boolean option inside a section: flipping sends the opposite of the current string when the section saves. */
export function OptionSwitch({ form, name, label, hint }: FieldProps) {
	const { t } = useTranslation()
	const value = form.values[name]
	return (
		// A long label wraps beside its switch, never under it, where it would read as the next switch's
		// label (phones); the hint goes under the label when both do not fit on one line. The switch
		// stays level with the label's first line, however long the hint.
		<div className="flex items-start gap-2" data-option={name}>
			<Switch id={fieldId(name)} checked={value === 'true'} onCheckedChange={() => form.set(name, value === 'true' ? 'false' : 'true')} />
			<div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
				<Label htmlFor={fieldId(name)} className="leading-snug">{t(label)}</Label>
				{hint && <span className="text-xs text-muted-foreground">{t(hint)}</span>}
			</div>
		</div>
	)
}

export function OptionSelect(props: FieldProps & { choices: readonly { value: string; label: string }[] }) {
	const { t } = useTranslation()
	const { form, name, choices } = props
	return (
		<Field {...props}>
			<Select value={form.values[name] ?? ''} onValueChange={(value) => form.set(name, value)}>
				<SelectTrigger id={fieldId(name)}>
					<SelectValue />
				</SelectTrigger>
				<SelectContent>
					{choices.map((choice) => (
						<SelectItem key={choice.value} value={choice.value}>
							{t(choice.label)}
						</SelectItem>
					))}
				</SelectContent>
			</Select>
		</Field>
	)
}

type SectionProps = {
	/** `data-testid` is `section-<id>`, the element id `settingSectionId(id)` (the section navigation's target). */
	id: string
	title: string
	description?: string
	/** Without a form the card has no save button (its controls save themselves). */
	form?: OptionForm
	saveText?: string
	onSave?: () => void
	children: ReactNode
}

/** The element id of a settings section, which the operation tab's navigation scrolls to. */
export const settingSectionId = (id: string) => `setting-section-${id}`

export function SectionCard({ id, title, description, form, saveText, onSave, children }: SectionProps) {
	const { t } = useTranslation()
	return (
		// Scrolled to below the sticky header (and, on phones, the sticky section list).
		<Card id={settingSectionId(id)} data-testid={`section-${id}`} className="scroll-mt-32 gap-4 lg:scroll-mt-20">
			<CardHeader>
				<CardTitle className="text-base">{t(title)}</CardTitle>
				{description && <CardDescription>{t(description)}</CardDescription>}
			</CardHeader>
			<CardContent className="flex flex-col gap-4">{children}</CardContent>
			{form && (
				<CardFooter>
					<Button type="button" disabled={form.saving} onClick={() => (onSave ? onSave() : void form.save())}>
						{t(saveText ?? '保存')}
					</Button>
				</CardFooter>
			)}
		</Card>
	)
}

/** Fields side by side on wide screens. */
export function FieldGrid({ children, columns = 3 }: { children: ReactNode; columns?: 2 | 3 }) {
	return <div className={cn('grid grid-cols-1 gap-4', columns === 3 ? 'md:grid-cols-3' : 'md:grid-cols-2')}>{children}</div>
}

export function SwitchRow({ children }: { children: ReactNode }) {
	return <div className="flex flex-wrap gap-x-6 gap-y-3">{children}</div>
}
