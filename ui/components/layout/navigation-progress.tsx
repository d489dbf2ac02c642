import { useNavigation } from 'react-router'
import { useTranslation } from '@ui/i18n'

/**
 * A bar across the top while a client-side navigation loads its page (its code, data or both), so a
 * slow one is seen to be under way. It waits a moment before showing: quick ones never flash it.
 */
export function NavigationProgress() {
	const { t } = useTranslation()
	const navigation = useNavigation()
	if (navigation.state === 'idle') return null
	return (
		<div role="progressbar" aria-label={t('加载中')} data-testid="navigation-progress" className="pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden">
			<div className="h-full w-1/3 animate-[navigation-progress_1.2s_ease-in-out_infinite] bg-primary opacity-0 [animation-delay:150ms]" />
		</div>
	)
}
