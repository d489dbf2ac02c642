import { useState } from 'react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import type { BindingProvider } from '@shared/oauth'
import { unbindProvider } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

/** Unbinds after a confirmation; the server refuses the account's last way to sign in and says why. */
export function UnbindButton({ provider, label }: { provider: BindingProvider; label: string }) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const [confirming, setConfirming] = useState(false)

	async function unbind() {
		if (await callApi(t, unbindProvider(browserApi, provider), '解绑成功')) await revalidator.revalidate()
	}

	return (
		<>
			<Button size="sm" variant="ghost" data-testid={`unbind-${provider}`} onClick={() => setConfirming(true)}>{t('解绑')}</Button>
			<ConfirmDialog
				open={confirming}
				onOpenChange={setConfirming}
				title={t('解绑 {provider}', { provider: label })}
				description={t('解绑后将不能再用 {provider} 登录此账户。', { provider: label })}
				confirmText={t('解绑')}
				destructive
				onConfirm={() => void unbind()}
			/>
		</>
	)
}
