import type { ReactNode } from 'react'
import { Label } from '@ui/components/ui/label'
import { useTranslation } from '@ui/i18n'

/** A labelled control with an optional hint under it; `label` is a zh source string. */
export function Field({ id, label, hint, children }: { id?: string; label: string; hint?: ReactNode; children: ReactNode }) {
	const { t } = useTranslation()
	return (
		<div className="flex flex-col gap-2">
			<Label htmlFor={id}>{t(label)}</Label>
			{children}
			{hint && <p className="text-xs text-muted-foreground">{hint}</p>}
		</div>
	)
}
