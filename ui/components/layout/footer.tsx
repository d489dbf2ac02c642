import { useEffect, useState } from 'react'
import { useTranslation } from '@ui/i18n'
import { sanitizeHtml } from '@ui/lib/sanitize-html'
import { useStatus } from '@ui/lib/status'
import { readStorage, storageKeys } from '@ui/lib/storage'

/** At start-up the footer re-reads the cached status every 200 ms, at most 5 times (docs/specification/console.md#layout). */
const FOOTER_REFRESH_MS = 200
const FOOTER_REFRESH_TIMES = 5

function cachedFooter(): string | undefined {
	try {
		const cached = JSON.parse(readStorage(storageKeys.status) ?? 'null') as { footer_html?: unknown } | null
		return typeof cached?.footer_html === 'string' ? cached.footer_html : undefined
	} catch {
		return undefined
	}
}

export function Footer() {
	const { t } = useTranslation()
	const status = useStatus()
	const [footer, setFooter] = useState(status.footer_html)
	useEffect(() => setFooter(status.footer_html), [status.footer_html])
	useEffect(() => {
		let times = 0
		const timer = setInterval(() => {
			times += 1
			const cached = cachedFooter()
			if (cached !== undefined) setFooter(cached)
			if (times >= FOOTER_REFRESH_TIMES) clearInterval(timer)
		}, FOOTER_REFRESH_MS)
		return () => clearInterval(timer)
	}, [])
	return (
		<footer className="shrink-0 border-t px-4 py-3 text-center text-xs text-muted-foreground">
			{footer ? (
				<div className="[&_a]:underline" dangerouslySetInnerHTML={{ __html: sanitizeHtml(footer) }} />
			) : (
				<span>
					{status.system_name} {status.version && `v${status.version}`} · {t('由 Ferry 驱动')}
				</span>
			)}
		</footer>
	)
}
