import type { ReactNode } from 'react'
import { useTranslation } from '@ui/i18n'

/**
 * What an empty list says: with filters on, that nothing matches them; otherwise what there will be
 * and how to make the first one (`action`, a button or link).
 */
export function EmptyState({ filtered, nothing, noMatch, action }: { filtered: boolean; nothing: string; noMatch: string; action?: ReactNode }) {
	const { t } = useTranslation()
	return (
		<div className="flex flex-col items-center gap-3 py-4" data-testid="empty-state">
			<p>{t(filtered ? noMatch : nothing)}</p>
			{!filtered && action}
		</div>
	)
}
