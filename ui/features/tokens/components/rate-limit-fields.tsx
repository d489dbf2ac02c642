import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { useTranslation } from '@ui/i18n'
import type { FormProblemState } from '@ui/lib/use-form-problem'

export type RateLimitValues = { rpmLimit: string; tpmLimit: string; rpdLimit: string }

const FIELDS = [
	{ field: 'rpmLimit', label: '每分钟请求数上限' },
	{ field: 'tpmLimit', label: '每分钟 token 数上限' },
	{ field: 'rpdLimit', label: '每天请求数上限' },
] as const

/**
 * Requests a minute, tokens a minute (those calls were billed for) and requests a day: a token's or
 * a user's own limits, whole numbers; 0 sets none (a user's group may then set one).
 */
export function RateLimitFields({ idPrefix, values, onChange, problems }: { idPrefix: string; values: RateLimitValues; onChange: (field: keyof RateLimitValues, value: string) => void; problems: FormProblemState }) {
	const { t } = useTranslation()
	return (
		<fieldset className="flex flex-col gap-2">
			<legend className="mb-1 text-sm font-medium">{t('调用频率限制')}</legend>
			<p className="text-xs text-muted-foreground">{t('超出的调用得到 429 和 Retry-After；0 表示不限')}</p>
			<div className="grid gap-3 sm:grid-cols-3">
				{FIELDS.map(({ field, label }) => {
					const id = `${idPrefix}-${field}`
					return (
						<Field key={field} id={id} label={label} error={problems.errorOf(field)}>
							<Input id={id} inputMode="numeric" autoComplete="off" value={values[field]} onChange={(event) => onChange(field, event.target.value)} {...problems.control(field, id)} />
						</Field>
					)
				})}
			</div>
		</fieldset>
	)
}
