import { useRef, useState } from 'react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { mountTelegramWidget } from '@ui/features/auth/telegram-widget'
import { bindTelegram } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useStatus } from '@ui/lib/status'

/** Nothing loads from Telegram before the click; then its login widget replaces the button and binds on success. */
export function TelegramBind({ bound }: { bound: boolean }) {
	const { t } = useTranslation()
	const status = useStatus()
	const revalidator = useRevalidator()
	const container = useRef<HTMLDivElement>(null)
	const [widgetShown, setWidgetShown] = useState(false)
	if (bound) return <Button size="sm" variant="outline" disabled>{t('已绑定')}</Button>
	if (!status.telegram_oauth) return <Button size="sm" variant="outline" disabled>{t('绑定')}</Button>

	function showWidget() {
		const mounted = mountTelegramWidget(container.current, status.telegram_bot_name, 'medium', async (fields) => {
			if (await callApi(t, bindTelegram(browserApi, fields), '绑定成功')) await revalidator.revalidate()
		})
		if (mounted) setWidgetShown(true)
	}

	return (
		<div className="flex flex-col items-end gap-1">
			{!widgetShown && (
				<Button size="sm" variant="outline" onClick={showWidget}>
					{t('绑定')}
				</Button>
			)}
			<div ref={container} className="empty:hidden" />
			{widgetShown && <span className="text-xs text-muted-foreground">{t('请在 Telegram 组件中完成授权')}</span>}
		</div>
	)
}
