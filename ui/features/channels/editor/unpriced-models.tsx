import { TriangleAlertIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { isRoot, useCurrentUser } from '@ui/lib/session'
import { checkChannel } from './api'

/** The check waits for the list to settle (typing a custom name, filling many). */
const CHECK_DELAY_MS = 400

/**
 * Under the model list: which of its models have no price. The relay refuses them, and the
 * playground, the pricing page and the users' model lists leave them out; the super admin is led
 * to the ratio editor, or to self-use mode (no billing) for a gateway of their own.
 */
export function UnpricedModels({ type, models }: { type: number; models: string[] }) {
	const { t } = useTranslation()
	const superAdmin = isRoot(useCurrentUser())
	const [unpriced, setUnpriced] = useState<string[]>([])
	const key = models.join(',')
	useEffect(() => {
		if (models.length === 0) {
			setUnpriced([])
			return
		}
		let current = true
		const timer = setTimeout(() => {
			checkChannel(browserApi, { type, models })
				.then((envelope) => {
					if (current && envelope.success) setUnpriced(envelope.data.unpriced_models)
				})
				.catch(() => undefined)
		}, CHECK_DELAY_MS)
		return () => {
			current = false
			clearTimeout(timer)
		}
		// The list's text is the dependency: a new array with the same models asks nothing.
	}, [key, type])
	if (unpriced.length === 0) return null
	return (
		<div role="status" data-testid="unpriced-models" className="flex gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
			<TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
			<div className="flex flex-col gap-1">
				<p>{t('这些模型还没有价格，调用会被拒绝，操练场和定价页也不会列出它们：{models}', { models: unpriced.join(', ') })}</p>
				{superAdmin ? (
					<p className="text-muted-foreground">
						<Link className="underline" to="/setting?tab=operation&unpriced=true#model-ratio">{t('去倍率设置为它们定价')}</Link>
						{' · '}
						<Link className="underline" to="/setting?tab=operation#general">{t('自用、不计费时，可开启自用模式')}</Link>
					</p>
				) : (
					<p className="text-muted-foreground">{t('请超级管理员在运营设置的倍率设置中为它们定价，或开启自用模式')}</p>
				)}
			</div>
		</div>
	)
}
